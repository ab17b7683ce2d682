/** `t2m plan` and `t2m bench --plan` as a process, against a local OpenAI-compatible server (async spawn: the server runs in this process). */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';
import { fakeServer, requestOf, type FakeServer } from '../agents/server.js';

const MAIN = resolve(import.meta.dirname, '../../src/cli/main.ts');

function t2m(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { env: { ...process.env, OPENAI_API_KEY: 'sk-env' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

let server: FakeServer;
beforeAll(async () => {
  server = await fakeServer((body) => {
    const req = requestOf(body);
    const repairing = body.messages.length > 2;
    if (req.startsWith('fail')) return { status: 500, body: 'boom' };
    if (req.startsWith('remember')) return 'ENCODE "buy milk" TAGS "todo";';
    return repairing ? 'LABEL WHERE tags HAS "todo" LIMIT 5 TAGS "done" MODE add;' : 'LABEL WHERE tags HAS "todo" LIMIT 5 TAGS "done" MODE ad;';
  });
});
afterAll(() => server?.close());

describe('t2m plan', () => {
  it('plans, repairs, dry-runs; --run changes the store, without it nothing changes', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 't2m-plan-')), 'store.sqlite');
    const flags = ['--base-url', server.baseUrl, '--model', 'm', '--db', db, '--now', '2025-10-21T00:00:00Z'];
    const seed = await t2m(['plan', 'remember to buy milk', ...flags, '--run']);
    expect(seed.status, seed.stderr).toBe(0);
    expect(seed.stdout).toContain('ENCODE "buy milk"');
    expect(server.headers.at(-1)?.authorization).toBe('Bearer sk-env');

    const dry = await t2m(['plan', 'mark the todos done', ...flags, '--json']);
    expect(dry.status, dry.stderr).toBe(0);
    const out = JSON.parse(dry.stdout);
    expect(out.attempts).toBe(2);
    expect(out.dsl).toContain('MODE add');
    expect(out.dryRun.results[0].ids).toEqual([1]);
    expect(Object.keys(out)).toEqual(expect.arrayContaining(['dsl', 'irs', 'attempts', 'diagnostics', 'dryRun']));
    const tags = () => {
      const opened = openStoreFile(db);
      if (!opened.ok) throw new Error('store');
      const t = String(opened.store.query('SELECT tags FROM memory WHERE id = 1')[0].tags);
      opened.store.close();
      return JSON.parse(t);
    };
    expect(tags()).toEqual(['todo']); // without --run nothing changed
    const check = await t2m(['plan', 'mark the todos done', ...flags, '--json', '--run']);
    const ran = JSON.parse(check.stdout);
    expect(ran.run.ok).toBe(true);
    expect(tags()).toEqual(['todo', 'done']);
  }, 60_000);

  it('exits 2 with a diagnostic when the server fails, and on missing flags', async () => {
    const r = await t2m(['plan', 'fail please', '--base-url', server.baseUrl, '--model', 'm']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('llm-http-error');
    const m = await t2m(['plan', 'x', '--model', 'm']);
    expect(m.status).toBe(2);
    expect(m.stderr).toContain('--base-url is required');
  }, 60_000);

  it('sends the GBNF with --grammar gbnf', async () => {
    const before = server.requests.length;
    await t2m(['plan', 'remember', '--base-url', server.baseUrl, '--model', 'm', '--grammar', 'gbnf']);
    expect(server.requests[before].grammar).toMatch(/^# Text2Mem DSL grammar in GBNF/);
  }, 60_000);
});
