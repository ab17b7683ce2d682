/**
 * The MCP server, the planner and the LLM selector on every kind of store: PGlite, and a
 * PostgreSQL server (started by the harness; skipped without Debian's binaries), through the
 * same Session as `t2m run`. Concurrent feedback on one record from many requests (each a
 * read-modify-write of its utility) through two HTTP servers sharing the store loses no reward:
 * within a server a tenant's writes take turns, and between servers the session reruns what a
 * serialization failure aborted.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatherSelections, llmSelector } from '../../src/agents/selector.js';
import { plan } from '../../src/agents/planner.js';
import { openAIProvider } from '../../src/agents/openai.js';
import { openStoreUrl } from '../../src/dialect/open-url.js';
import { Session, type AnySqlDriver, type Store } from '../../src/engine/index.js';
import { startHttpServer, storePool, type HttpMcpServer, type Tokens } from '../../src/mcp/http.js';
import { createHash } from 'node:crypto';
import { fakeServer, type FakeServer } from '../agents/server.js';
import { freshDatabase, postgresBinaries, SKIP_REASON } from '../support/postgres.js';

const hasServer = postgresBinaries() !== null;
if (!hasServer) console.warn(`mcp stores: the PostgreSQL server cases are skipped: ${SKIP_REASON}`);

const NOW = '2026-06-10T00:00:00Z';
const TOKEN = 'store-kinds-token-0123456789';
const tokens: Tokens = new Map([[createHash('sha256').update(TOKEN).digest('hex'), { actor: 'agent', tenant: 'acme', impersonate: false }]]);

async function open(name: string): Promise<Store<AnySqlDriver>> {
  const opened = await openStoreUrl(name);
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return opened.store;
}

const cases: Array<[string, () => Promise<string>, number]> = [
  ['PGlite', async () => 'pglite:', 1],
  ...(hasServer ? [['a PostgreSQL server', () => freshDatabase('mcp_stores'), 4] as [string, () => Promise<string>, number]] : []),
];

describe.each(cases)('MCP tools on %s', (_, name, connections) => {
  let stores: Store<AnySqlDriver>[];
  let server: HttpMcpServer;
  let other: HttpMcpServer;
  let model: FakeServer;
  const clients: Client[] = [];

  const connect = async (to = server) => {
    const transport = new StreamableHTTPClientTransport(new URL(`${to.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
    const c = new Client({ name: 'stores', version: '1.0.0' });
    await c.connect(transport);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    const db = await name();
    stores = [await open(db)];
    // A pool of connections to a server; PGlite is one database in this process.
    for (let i = 1; i < connections; i++) stores.push(await open(db));
    model = await fakeServer(() => 'RETRIEVE WHERE tags HAS "runbook" LIMIT 5;');
    server = await startHttpServer({
      host: '127.0.0.1', port: 0, tokens: () => tokens, stores: storePool(stores),
      server: { now: NOW, planner: { provider: openAIProvider({ baseUrl: model.baseUrl, model: 'fake' }) } },
    });
    // A second server on the same connections: its writes do not queue behind the first's.
    other = await startHttpServer({ host: '127.0.0.1', port: 0, tokens: () => tokens, stores: storePool([...stores].reverse()), server: { now: NOW } });
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) await c.close();
    await server?.close(2000);
    await other?.close(2000);
    await model?.close();
    for (const s of stores ?? []) await s.close();
  });

  it('runs, retrieves, reads facts in time, plans and serves the vocabulary', async () => {
    const c = await connect();
    const ran = await c.callTool({ name: 'run', arguments: { script: 'ENCODE "restart the queue workers" TAGS "runbook" TYPE "procedure"; ENCODE "2026-07-15" SUBJECT mira ATTRIBUTE passport_deadline VALID FROM 2026-06-01T00:00:00Z; ENCODE "2026-06-30" SUBJECT mira ATTRIBUTE passport_deadline VALID FROM 2026-06-05T00:00:00Z;' } });
    expect(ran.structuredContent).toMatchObject({ ok: true });
    const found = await c.callTool({ name: 'retrieve', arguments: { query: 'queue workers', limit: 1, include: ['text', 'weight'] } });
    // No weight of its own: the default the ranking uses.
    expect(found.structuredContent).toMatchObject({ ok: true, rows: [{ text: 'restart the queue workers', weight: 0.5 }] });
    const current = await c.callTool({ name: 'retrieve', arguments: { subject: 'mira', attribute: 'passport_deadline', include: ['text'] } });
    expect((current.structuredContent as { rows: unknown[] }).rows).toEqual([{ id: 3, text: '2026-06-30' }]);
    const then = await c.callTool({ name: 'retrieve', arguments: { subject: 'mira', attribute: 'passport_deadline', as_of: '2026-06-02T00:00:00Z', include: ['text'] } });
    expect((then.structuredContent as { rows: unknown[] }).rows).toEqual([{ id: 2, text: '2026-07-15' }]);
    const history = await c.callTool({ name: 'retrieve', arguments: { subject: 'mira', attribute: 'passport_deadline', history: true, include: ['text'] } });
    expect((history.structuredContent as { rows: unknown[] }).rows).toHaveLength(2);
    const planned = await c.callTool({ name: 'plan', arguments: { request: 'what is in the runbook?' } });
    expect(planned.structuredContent).toMatchObject({ ok: true, dsl: 'RETRIEVE WHERE tags HAS "runbook" LIMIT 5;', dryRun: [{ ids: [1] }] });
    // The store's vocabulary and related memories reached the model's prompt.
    expect(model.requests[0].messages[0].content).toContain('runbook');
    const vocabulary = JSON.parse(String(((await c.readResource({ uri: 'text2mem://vocabulary' })).contents[0] as { text: string }).text));
    // The superseded version of the fact is not a live record.
    expect(vocabulary).toMatchObject({ records: 2, tags: [{ value: 'runbook', count: 1 }], subjects: [{ value: 'mira', count: 1 }] });
  }, 60_000);

  it('concurrent feedback on one record loses no reward', async () => {
    const requests = 8;
    const cs = await Promise.all(Array.from({ length: requests }, (_, i) => connect(i % 2 ? other : server)));
    const answers = await Promise.all(cs.map((c, i) => c.callTool({ name: 'feedback', arguments: { ids: [1], reward: i % 2 } })));
    expect(answers.map((a) => a.isError ?? false)).toEqual(Array(requests).fill(false));
    const session = new Session(stores[0], { tenant: 'acme', actor: 'agent' });
    const row = (await session.run([{ stage: 'RET', op: 'Retrieve', target: { ids: ['1'] }, args: { include: ['utility'] } }])).results[0].rows![0];
    expect(row.utility).toBeCloseTo(0.5, 6);
    const log = await session.auditLog();
    expect(log.filter((e) => e.op === 'Promote')).toHaveLength(requests);
    const n = (await stores[0].driveAsync((function* () {
      return (yield { kind: 'all', sql: 'SELECT utility_n FROM memory WHERE id = 1' }) as Array<{ utility_n: number }>;
    })()))[0].utility_n;
    expect(Number(n)).toBe(requests);
  }, 60_000);

  it('the LLM selector gathers its choices on this store', async () => {
    const selector = await fakeServer((body) => {
      const ids = [...String(body.messages[1].content).matchAll(/"id":\s*(\d+)/g)].map((m) => Number(m[1]));
      return JSON.stringify({ ids: [ids.at(-1)], why: 'the last one' });
    });
    try {
      const setup = await new Session(stores[0], { tenant: 'acme', actor: 'agent', now: NOW }).run([
        { stage: 'ENC', op: 'Encode', args: { payload: { text: 'request: revenue by region. outcome: success' }, level: 'episode' } },
        { stage: 'ENC', op: 'Encode', args: { payload: { text: 'request: revenue by month. outcome: failure' }, level: 'episode' } },
      ]);
      expect(setup.ok).toBe(true);
      const irs = [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'revenue' }, limit: 5 } }, args: { level: 'episode', pick: 1 } }];
      const gathered = await gatherSelections(stores[0], irs, { tenant: 'acme', actor: 'agent', now: NOW, selector: llmSelector(openAIProvider({ baseUrl: selector.baseUrl, model: 'fake' })) });
      expect(gathered.warnings).toEqual([]);
      const r = await new Session(stores[0], { tenant: 'acme', actor: 'agent', now: NOW, selector: gathered.selector }).run(irs);
      expect(r.ok).toBe(true);
      expect(r.results[0].experience?.why[r.results[0].ids[0]]).toBe('model: the last one');
      // The planner takes the store as it is, too.
      const planned = await plan('revenue', { provider: openAIProvider({ baseUrl: model.baseUrl, model: 'fake' }), store: stores[0], tenant: 'acme', actor: 'agent', now: NOW });
      expect(planned.ok).toBe(true);
    } finally {
      await selector.close();
    }
  }, 60_000);
});
