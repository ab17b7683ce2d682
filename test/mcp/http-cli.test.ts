/**
 * `t2m mcp --http` as a process (tsx on the sources): its flags, the token file's mode, SIGHUP
 * re-reading the tokens, SIGTERM, on a PGlite store in a directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t2m } from '../cli/run-cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ALICE = 'alice-cli-token-0123456789';
const BOB = 'bob-cli-token-0123456789ab';

let dir: string;
let tokens: string;

function writeTokens(content: unknown, mode = 0o600): void {
  writeFileSync(tokens, JSON.stringify(content));
  chmodSync(tokens, mode);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 't2m-http-cli-'));
  tokens = join(dir, 'tokens.json');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('t2m mcp --http flags', () => {
  it('refuses a token file others may read, a missing --tokens, and stdio flags with --http', () => {
    writeTokens({ [ALICE]: { actor: 'alice' } }, 0o644);
    const loose = t2m(['mcp', '--http', '0', '--tokens', tokens]);
    expect(loose.status).toBe(2);
    expect(loose.stderr).toMatch(/may be read or written by others \(mode 644\)/);
    expect(t2m(['mcp', '--http', '0']).stderr).toMatch(/--http needs --tokens/);
    chmodSync(tokens, 0o600);
    expect(t2m(['mcp', '--http', '0', '--tokens', tokens, '--actor', 'x']).stderr).toMatch(/identity comes from the token file; --actor apply to stdio only/);
    expect(t2m(['mcp', '--http', 'not-a-port', '--tokens', tokens]).status).toBe(2);
    expect(t2m(['mcp', '--tokens', tokens, '--actor', 'x']).stderr).toMatch(/--tokens goes with --http/);
    expect(t2m(['mcp']).stderr).toMatch(/--actor <name> is required over stdio/);
  });
});

describe('t2m mcp --http on PGlite', () => {
  let child: ChildProcess;
  let url: string;
  let stderr = '';

  const rpc = (token: string, name: string, args: Record<string, unknown>) => fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const waitFor = async (pattern: RegExp) => {
    for (let i = 0; i < 600 && !pattern.test(stderr); i++) await new Promise((r) => setTimeout(r, 100));
    expect(stderr).toMatch(pattern);
  };

  beforeAll(async () => {
    writeTokens({ [ALICE]: { actor: 'alice', tenant: 'acme' } });
    child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'mcp', '--db', `pglite:${join(dir, 'pg')}`, '--http', '127.0.0.1:0', '--tokens', tokens], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    await waitFor(/ at http:\/\/127\.0\.0\.1:\d+\/mcp/);
    url = / at (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(stderr)![1];
  }, 90_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('serves a token, re-reads the file on SIGHUP, and stops cleanly on SIGTERM', async () => {
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok' });
    const first = await (await rpc(ALICE, 'run', { script: 'ENCODE "kept across the reload";' })).json();
    expect(first.result.structuredContent.ok).toBe(true);
    expect((await rpc(BOB, 'retrieve', {})).status).toBe(401);
    // Bob in, Alice out.
    writeTokens({ [BOB]: { actor: 'bob', tenant: 'acme' } });
    child.kill('SIGHUP');
    await waitFor(/re-read .*: 1 token/);
    expect((await rpc(ALICE, 'retrieve', {})).status).toBe(401);
    const seen = await (await rpc(BOB, 'retrieve', { include: ['text'] })).json();
    expect(seen.result.structuredContent.rows).toEqual([{ id: 1, text: 'kept across the reload' }]);
    // A file that no longer reads leaves Bob's token in force.
    writeTokens({ [BOB]: { actor: 'bob' } }, 0o644);
    child.kill('SIGHUP');
    await waitFor(/the tokens read before stay in force/);
    expect((await rpc(BOB, 'retrieve', {})).status).toBe(200);
    // One log line per call, naming who and what, never the payload.
    expect(stderr).toMatch(/actor="alice" tenant="acme" tool=run statements=1 ms=[\d.]+ outcome=ok/);
    expect(stderr).not.toContain('kept across');
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 90_000);
});
