/**
 * The MCP server over Streamable HTTP (src/mcp/http.ts), driven by the SDK's own client: each
 * request's identity from its bearer token (two tokens in two tenants, a third unknown one),
 * `/health`, bad, oversized and malformed requests and dropped connections changing nothing,
 * bounded concurrency, graceful close.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/dialect/sqlite/store.js';
import type { AnySqlDriver, Store } from '../../src/engine/index.js';
import { logLine, readTokenFile, startHttpServer, storePool, type HttpMcpServer, type LogEntry, type StorePool, type Tokens } from '../../src/mcp/http.js';

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef01';
const MALLORY = 'mallory-token-0123456789abcd';

let dir: string;
let store: Store;
let server: HttpMcpServer;
let tokens: Tokens;
const log: LogEntry[] = [];

function tokenFile(content: unknown, mode = 0o600): string {
  const path = join(dir, `tokens-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  chmodSync(path, mode);
  return path;
}

async function client(token: string | undefined, url = `${server.url}/mcp`): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const c = new Client({ name: 'http-test', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

type Result = CallToolResult & { structuredContent: Record<string, any> & { ok: boolean; diagnostics: Array<{ code: string }> } };
const call = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as Result;

const count = () => Number(store.query('SELECT COUNT(*) AS n FROM memory')[0].n);
const audits = () => Number(store.query('SELECT COUNT(*) AS n FROM audit_log')[0].n);

const post = (body: string, headers: Record<string, string> = {}) => fetch(`${server.url}/mcp`, {
  method: 'POST', body, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 't2m-http-'));
  const read = readTokenFile(tokenFile({ [ALICE]: { actor: 'alice', tenant: 'acme' }, [BOB]: { actor: 'bob', tenant: 'globex', impersonate: false } }));
  if (!read.ok) throw new Error(read.message);
  tokens = read.tokens;
  store = await createStore();
  server = await startHttpServer({
    host: '127.0.0.1', port: 0, tokens: () => tokens, stores: storePool([store as Store<AnySqlDriver>]),
    server: { now: '2026-06-10T00:00:00Z' }, maxInput: 64 * 1024, log: (e) => log.push(e),
  });
});

afterAll(async () => {
  await server?.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

describe('the token file', () => {
  it('is refused when others may read it, or when it is not what it should be', () => {
    expect(readTokenFile(tokenFile({ [ALICE]: { actor: 'alice' } }, 0o644))).toMatchObject({ ok: false, message: expect.stringMatching(/may be read or written by others \(mode 644\).*chmod 600/) });
    expect(readTokenFile(tokenFile({ [ALICE]: { actor: 'alice' } }, 0o640))).toMatchObject({ ok: false });
    expect(readTokenFile(tokenFile('{"a'))).toMatchObject({ ok: false, message: expect.stringContaining('not JSON') });
    expect(readTokenFile(tokenFile({ short: { actor: 'alice' } }))).toMatchObject({ ok: false, message: expect.stringContaining('at least 16') });
    expect(readTokenFile(tokenFile({ [ALICE]: { actor: '' } }))).toMatchObject({ ok: false, message: expect.stringContaining('"actor"') });
    expect(readTokenFile(tokenFile({ [ALICE]: { actor: 'a', tennant: 'x' } }))).toMatchObject({ ok: false, message: expect.stringContaining('unknown key "tennant"') });
    expect(readTokenFile(tokenFile({ [ALICE]: { actor: 'a', impersonate: 'yes' } }))).toMatchObject({ ok: false });
    expect(readTokenFile(join(dir, 'missing.json'))).toMatchObject({ ok: false, message: expect.stringContaining('ENOENT') });
    // A refusal never quotes a token.
    const r = readTokenFile(tokenFile({ [ALICE]: { actor: 7 } }));
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).not.toContain(ALICE);
  });
});

describe('t2m mcp --http', () => {
  it('answers /health without a token, and says nothing else', async () => {
    const r = await fetch(`${server.url}/health`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${server.url}/elsewhere`)).status).toBe(404);
  });

  it('two tokens in two tenants: each sees only its own records, as its own actor', async () => {
    const alice = await client(ALICE);
    const bob = await client(BOB);
    const written = await call(alice, 'run', { script: 'ENCODE "acme roadmap: ship v2" TAGS "plan" SUBJECT "roadmap";' });
    expect(written.structuredContent).toMatchObject({ ok: true, results: [{ ids: [1], changes: [{ after: { owner: 'alice' } }] }] });
    expect((await call(bob, 'run', { script: 'ENCODE "globex roadmap" TAGS "plan";' })).structuredContent.ok).toBe(true);
    const mine = await call(alice, 'retrieve', { tags: ['plan'], include: ['id', 'text'] });
    expect(mine.structuredContent.rows).toEqual([{ id: 1, text: 'acme roadmap: ship v2' }]);
    const theirs = await call(bob, 'run', { script: 'RETRIEVE IDS "1"; UPDATE IDS "1" SET text = "mine now";' });
    expect(theirs.structuredContent.results.map((r: { ids: number[] }) => r.ids)).toEqual([[], []]);
    const searched = await call(bob, 'retrieve', { query: 'acme roadmap ship' });
    expect(searched.structuredContent.rows.map((r: { text: string }) => r.text)).toEqual(['globex roadmap']);
    const vocabulary = JSON.parse(String(((await bob.readResource({ uri: 'text2mem://vocabulary' })).contents[0] as { text: string }).text));
    expect(vocabulary).toMatchObject({ records: 1, subjects: [] });
    expect(store.query('SELECT id, tenant, owner, text FROM memory ORDER BY id')).toEqual([
      { id: 1, tenant: 'acme', owner: 'alice', text: 'acme roadmap: ship v2' }, { id: 2, tenant: 'globex', owner: 'bob', text: 'globex roadmap' },
    ]);
    await alice.close();
    await bob.close();
  });

  it('a script\'s AS or a tool argument naming an actor or a tenant does not widen the identity', async () => {
    const bob = await client(BOB);
    const as = await call(bob, 'run', { script: 'ENCODE "as alice" AS "alice";' });
    expect(as.isError).toBe(true);
    expect(as.structuredContent.diagnostics.map((d) => d.code)).toContain('actor-mismatch');
    const widened = await call(bob, 'retrieve', { tags: ['plan'], tenant: 'acme', actor: 'alice', include: ['id'] });
    expect(widened.structuredContent.rows).toEqual([{ id: 2 }]);
    await bob.close();
  });

  it('an unknown token, or none, is 401 with nothing run', async () => {
    const before = [count(), audits()];
    await expect(client(MALLORY)).rejects.toThrow(/401|Unauthorized/);
    await expect(client(undefined)).rejects.toThrow(/401|Unauthorized/);
    const run = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run', arguments: { script: 'DELETE ALL CONFIRM;' } } });
    for (const headers of [{} as Record<string, string>, { authorization: `Bearer ${MALLORY}` }, { authorization: `Basic ${Buffer.from(`x:${ALICE}`).toString('base64')}` }, { authorization: `Bearer ${ALICE.slice(0, -1)}` }]) {
      const r = await post(run, headers);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect([count(), audits()]).toEqual(before);
    expect(log.filter((e) => e.outcome === 'unauthorized').length).toBeGreaterThanOrEqual(6);
  });

  it('bad, oversized and malformed requests and dropped connections change nothing; the server keeps answering', async () => {
    const before = [count(), audits()];
    const auth = { authorization: `Bearer ${ALICE}` };
    expect((await post('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {', auth)).status).toBe(400);
    // An empty batch holds no request: accepted with nothing to answer (the SDK's 202).
    expect((await post('[]', auth)).status).toBe(202);
    expect((await post('{"foo": 1}', auth)).status).toBe(400);
    expect((await post('"just a string"', auth)).status).toBe(400);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run', arguments: { script: `ENCODE "${'x'.repeat(100_000)}";` } } });
    expect((await post(big, auth)).status).toBe(413);
    expect((await post('{}', { ...auth, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await fetch(`${server.url}/mcp`, { headers: auth })).status).toBe(405);
    expect((await fetch(`${server.url}/mcp`, { method: 'DELETE', headers: auth })).status).toBe(405);
    // An unknown tool and arguments of the wrong type are error results.
    const alice = await client(ALICE);
    expect((await alice.callTool({ name: 'drop_tables', arguments: {} })).isError).toBe(true);
    expect((await alice.callTool({ name: 'retrieve', arguments: { limit: 'all' } })).isError).toBe(true);
    // A connection dropped half-way through its body.
    await new Promise<void>((resolve) => {
      const socket = netConnect(server.port, '127.0.0.1', () => {
        socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ALICE}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 5000\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run","arguments":{"script":"ENCODE \\"half`);
        setTimeout(() => { socket.destroy(); resolve(); }, 50);
      });
    });
    await new Promise((r) => setTimeout(r, 50));
    expect([count(), audits()]).toEqual(before);
    expect((await call(alice, 'retrieve', { tags: ['plan'] })).structuredContent.ok).toBe(true);
    await alice.close();
  });

  it('a call whose client hangs up still commits or rolls back whole', async () => {
    const before = count();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'run', arguments: { script: 'ENCODE "left behind" TAGS "dropped";' } } });
    await new Promise<void>((resolve) => {
      const socket = netConnect(server.port, '127.0.0.1', () => {
        socket.end(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ALICE}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        socket.destroy();
        resolve();
      });
    });
    await new Promise((r) => setTimeout(r, 200));
    const n = count();
    // Either the whole script ran (one record, one audit entry) or none of it.
    expect([before, before + 1]).toContain(n);
    if (n === before + 1) expect(store.query("SELECT COUNT(*) AS n FROM audit_log WHERE ir LIKE '%left behind%'")[0].n).toBe(1);
    expect(server.active()).toBe(0);
  });

  it('logs one line per call: time, actor, tenant, tool, statements, ms, outcome; no payload', async () => {
    const alice = await client(ALICE);
    log.length = 0;
    await call(alice, 'run', { script: 'ENCODE "a secret payload"; ENCODE "another";' });
    await call(alice, 'check', { script: 'RETRIEV;' });
    await alice.close();
    const calls = log.filter((e) => e.tool !== undefined);
    expect(calls.map((e) => [e.actor, e.tenant, e.tool, e.statements, e.outcome])).toEqual([['alice', 'acme', 'run', 2, 'ok'], ['alice', 'acme', 'check', 1, 'ok']]);
    const lines = calls.map(logLine);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z actor="alice" tenant="acme" tool=run statements=2 ms=[\d.]+ outcome=ok$/);
    expect(lines.join('\n')).not.toContain('secret');
  });
});

describe('bounds and shutdown', () => {
  it('more requests than --max-clients are answered 503; close lets the one in flight finish', async () => {
    const own = await createStore();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const inner = storePool([own as Store<AnySqlDriver>]);
    // The first request waits for its store until the test opens the gate.
    const held: StorePool = { ...inner, acquire: async () => { await gate; return inner.acquire(); } };
    const small = await startHttpServer({ host: '127.0.0.1', port: 0, tokens: () => tokens, stores: held, server: {}, maxClients: 1 });
    const body = (id: number, text: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'run', arguments: { script: `ENCODE "${text}";` } } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${ALICE}` };
    const first = fetch(`${small.url}/mcp`, { method: 'POST', body: body(1, 'first'), headers });
    await new Promise((r) => setTimeout(r, 100));
    expect(small.active()).toBe(1);
    const second = await fetch(`${small.url}/mcp`, { method: 'POST', body: body(2, 'second'), headers });
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('1');
    const closed = small.close(5000);
    open();
    const answer = await (await first).json();
    expect(answer.result.structuredContent.ok).toBe(true);
    await closed;
    expect(own.query('SELECT text FROM memory')).toEqual([{ text: 'first' }]);
    await expect(fetch(`${small.url}/health`)).rejects.toThrow();
  });

  it('a client that hangs up while its request waits for a store frees its place and runs nothing', async () => {
    const own = await createStore();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const inner = storePool([own as Store<AnySqlDriver>]);
    const held: StorePool = { ...inner, acquire: async () => { await gate; return inner.acquire(); } };
    const small = await startHttpServer({ host: '127.0.0.1', port: 0, tokens: () => tokens, stores: held, server: {}, maxClients: 1 });
    const aborted = new AbortController();
    const pending = fetch(`${small.url}/mcp`, {
      method: 'POST', signal: aborted.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${ALICE}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run', arguments: { script: 'ENCODE "never";' } } }),
    }).catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 100));
    aborted.abort();
    expect(await pending).toBe('aborted');
    await new Promise((r) => setTimeout(r, 100));
    open();
    for (let i = 0; i < 50 && small.active() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(small.active()).toBe(0);
    expect(own.query('SELECT COUNT(*) AS n FROM memory')[0].n).toBe(0);
    // Its place and its store are free again.
    const next = await fetch(`${small.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${ALICE}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run', arguments: { script: 'ENCODE "after";' } } }),
    });
    expect((await next.json()).result.structuredContent.ok).toBe(true);
    await small.close(1000);
  });
});
