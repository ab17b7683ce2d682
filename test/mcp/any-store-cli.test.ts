/**
 * `t2m plan`, `t2m run --selector-url` and `t2m reindex` on a PGlite store (a directory): the
 * commands that used to serve SQLite stores only take any store, through the same Session.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer, type FakeServer } from '../agents/server.js';
import { files } from '../cli/run-cli.js';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');

/** The CLI as a process, without blocking this one (the model server answers from here). */
function t2m(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', MAIN, ...args], { maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

let dir: string;
let model: FakeServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 't2m-any-store-'));
  model = await fakeServer((body) => {
    // The selector asks for JSON naming candidates; the planner for a script.
    if (body.response_format?.type === 'json_object') {
      const ids = [...String(body.messages[1].content).matchAll(/"id":\s*(\d+)/g)].map((m) => Number(m[1]));
      return JSON.stringify({ ids: [ids.at(-1)], why: 'the last candidate' });
    }
    return 'ENCODE "planned on PGlite" TAGS "planned";';
  });
});

afterAll(async () => {
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('commands on a PGlite store', () => {
  it('plan --run, run --selector-url and reindex', async () => {
    const db = `pglite:${join(dir, 'pg')}`;
    const planned = await t2m(['plan', 'remember that I planned this', '--db', db, '--run', '--base-url', model.baseUrl, '--model', 'fake', '--json']);
    expect(planned.status, planned.stderr).toBe(0);
    expect(JSON.parse(planned.stdout)).toMatchObject({ ok: true, run: { ok: true, results: [{ op: 'Encode', ids: [1] }] } });
    const { script } = files({ script: 'ENCODE "request: revenue by region. outcome: success" LEVEL episode; ENCODE "request: revenue by month. outcome: failure" LEVEL episode; RETRIEVE WHERE search "revenue" K 5 LEVEL episode PICK 1;' });
    const ran = await t2m(['run', script, '--db', db, '--selector-url', model.baseUrl, '--selector-model', 'fake', '--json']);
    expect(ran.status, ran.stderr).toBe(0);
    const result = JSON.parse(ran.stdout);
    expect(result.results[2].experience.selector).toBeDefined();
    expect(Object.values(result.results[2].experience.why)).toEqual(['model: the last candidate']);
    const reindexed = await t2m(['reindex', '--db', db, '--json']);
    expect(reindexed.status, reindexed.stderr).toBe(0);
    expect(JSON.parse(reindexed.stdout)).toMatchObject({ records: 3 });
  }, 120_000);
});
