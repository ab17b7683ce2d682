/** `t2m run --selector-url`: the model chooses in RETRIEVE … LEVEL, against a local OpenAI-compatible server (async spawn: the server runs here). */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer, type FakeServer } from '../agents/server.js';

const MAIN = resolve(import.meta.dirname, '../../src/cli/main.ts');

function t2m(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { env: { ...process.env, OPENAI_API_KEY: 'sk-test' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

let server: FakeServer;
beforeAll(async () => {
  // Keeps the least similar candidate, so that the model's choice shows.
  server = await fakeServer((body) => {
    const s = JSON.parse(body.messages[1].content);
    return JSON.stringify({ ids: [s.candidates[s.candidates.length - 1].id], why: 'its outcome was better' });
  });
});
afterAll(() => server.close());

describe('t2m run --selector-url', () => {
  it('prints the model\'s selection and why; without the flag the default selector keeps the most similar', async () => {
    const dir = mkdtempSync(join(tmpdir(), 't2m-exp-'));
    const file = join(dir, 'task.t2m');
    writeFileSync(file, [
      'ENCODE "request: monthly revenue by region from sales" LEVEL episode;',
      'ENCODE "request: revenue by region per month" LEVEL episode;',
      'RETRIEVE WHERE search "revenue by region per month" LEVEL episode INCLUDE id, text;',
    ].join('\n'));
    const withModel = await t2m(['run', file, '--now', '2025-07-01T00:00:00Z', '--selector-url', server.baseUrl, '--selector-model', 'm']);
    expect(withModel.stderr).toBe('');
    expect(withModel.status).toBe(0);
    expect(withModel.stdout).toContain('selector caller');
    expect(withModel.stdout).toContain('kept #1: model: its outcome was better');
    expect(server.requests.length).toBe(1);
    expect(server.requests[0].model).toBe('m');
    const plain = await t2m(['run', file, '--now', '2025-07-01T00:00:00Z']);
    expect(plain.stdout).toMatch(/kept #2: score [\d.]+ = similarity/);
  });
});
