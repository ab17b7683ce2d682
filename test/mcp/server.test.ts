/**
 * createMcpServer in-process (the SDK's in-memory transport): identity, read permissions in the
 * vocabulary, the IR the retrieve tool builds, store errors as error results.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../src/diagnostics/diagnostic.js';
import { type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { createMcpServer, type McpServerOptions, retrieveIr } from '../../src/mcp/server.js';

const NOW = '2025-05-01T00:00:00Z';

async function connect(options: Partial<McpServerOptions> & { store: Store }): Promise<Client> {
  const server = createMcpServer({ actor: 'alice', now: NOW, ...options });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

type Result = CallToolResult & { structuredContent: Record<string, unknown> & { ok: boolean; diagnostics: Array<{ code: string }> } };
const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;

describe('createMcpServer', () => {
  it('acts as the configured actor: AS of another actor is refused unless impersonation is configured', async () => {
    const store = await createStore();
    const alice = await connect({ store });
    const refused = await call(alice, 'run', { script: 'ENCODE "x" AS "bob";' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.diagnostics[0].code).toBe('actor-mismatch');
    const trusted = await connect({ store, impersonate: true });
    const asBob = await call(trusted, 'run', { script: 'ENCODE "x" AS "bob";' });
    expect(asBob.structuredContent).toMatchObject({ ok: true, results: [{ changes: [{ after: { owner: 'bob' } }] }] });
  });

  it('the vocabulary and retrieve show only what the actor may read', async () => {
    const store = await createStore();
    const bob = await connect({ store, actor: 'bob' });
    expect((await call(bob, 'run', { script: 'ENCODE "bob\'s secret" TAGS "secret-project" TYPE "diary" SUBJECT "layoffs" SET read_perm_level = "private"; ENCODE "lunch" TAGS "food";' })).structuredContent.ok).toBe(true);
    const alice = await connect({ store });
    const read = await alice.readResource({ uri: 'text2mem://vocabulary' });
    const vocabulary = JSON.parse(String((read.contents[0] as { text: string }).text));
    expect(vocabulary).toEqual({ records: 1, tags: [{ value: 'food', count: 1 }], types: [], subjects: [] });
    expect((await call(alice, 'retrieve', { tags: ['secret-project'] })).structuredContent.rows).toEqual([]);
    const own = JSON.parse(String(((await bob.readResource({ uri: 'text2mem://vocabulary' })).contents[0] as { text: string }).text));
    expect(own.subjects).toEqual([{ value: 'layoffs', count: 1 }]);
  });

  it('retrieve builds the IR from its arguments as data', () => {
    expect(retrieveIr({ query: 'a "b"', tags: ['t'], limit: 3 })).toEqual({
      stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'a "b"' }, limit: 3 }, filter: { has_tags: ['t'] } },
    });
    expect(retrieveIr({ type: 'note', include: ['id', 'text'] })).toEqual({
      stage: 'RET', op: 'Retrieve', target: { filter: { type: 'note', limit: 10 } }, args: { include: ['id', 'text'] },
    });
    expect(retrieveIr({})).toEqual({ stage: 'RET', op: 'Retrieve', target: { filter: { limit: 10 } } });
  });

  it('a store error is an error result with its diagnostic; other exceptions are the SDK\'s error results', async () => {
    const store = await createStore();
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    // The driver refuses to begin, as SQLite does when another writer holds the file.
    const broken = store;
    (broken.driver as { begin: () => void }).begin = () => { throw busy; };
    const client = await connect({ store: broken, storeError: (e) => (e === busy ? diagnostic('store-busy', 'busy') : undefined) });
    const result = await call(client, 'run', { script: 'ENCODE "x";' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent.diagnostics[0].code).toBe('store-busy');
    const bare = await connect({ store: broken });
    const generic = await call(bare, 'run', { script: 'ENCODE "x";' });
    expect(generic.isError).toBe(true);
    expect(JSON.stringify(generic.content)).toContain('database is locked');
  });
});

describe('what the tools answer', () => {
  it('compact JSON; an Encode\'s image with the user-facing fields it has; weight shown as the default', async () => {
    const store = await createStore();
    const alice = await connect({ store });
    const ran = await call(alice, 'run', { script: 'ENCODE "plan the offsite" TAGS "team";' });
    const text = (ran.content[0] as { text: string }).text;
    expect(text).not.toContain('\n');
    expect(JSON.parse(text)).toEqual(ran.structuredContent);
    const after = (ran.structuredContent.results as Array<{ changes: Array<{ after: Record<string, unknown> }> }>)[0].changes[0].after;
    for (const internal of ['embedding', 'embedding_f32', 'search_text', 'embedding_model', 'trace_id', 'statement_index', 'tenant']) expect(after).not.toHaveProperty(internal);
    expect(Object.values(after)).not.toContain(null);
    expect(after).toMatchObject({ id: 1, text: 'plan the offsite', tags: ['team'], owner: 'alice' });
    const rows = (await call(alice, 'retrieve', { query: 'offsite' })).structuredContent.rows as Array<Record<string, unknown>>;
    // The default fields, as the include parameter says; no weight of its own shows 0.5.
    expect(Object.keys(rows[0]).sort()).toEqual(['facets', 'id', 'location', 'source', 'subject', 'tags', 'text', 'time', 'topic', 'type', 'weight']);
    expect(rows[0].weight).toBe(0.5);
    const { tools } = await alice.listTools();
    const include = tools.find((t) => t.name === 'retrieve')!.inputSchema.properties!.include as { description: string };
    expect(include.description).toContain('default: id, text, type, tags, facets, time, subject, location, topic, source, weight');
    for (const t of tools) for (const [key, p] of Object.entries(t.inputSchema.properties ?? {})) expect((p as { description?: string }).description, `${t.name}.${key}`).toBeTruthy();
  });

  it('a misplaced target.limit: one warning, and the read stays bounded', async () => {
    const store = await createStore();
    const alice = await connect({ store });
    await call(alice, 'run', { script: [1, 2, 3, 4, 5].map((i) => `ENCODE "n${i}" TAGS "x";`).join(' ') });
    const r = await call(alice, 'run', { script: '{"stage": "RET", "op": "Retrieve", "target": {"filter": {"has_tags": ["x"]}, "limit": 2}}' });
    expect(r.structuredContent.ok).toBe(true);
    expect(r.structuredContent.diagnostics.map((d) => d.code)).toEqual(['misplaced-field']);
    expect((r.structuredContent.results as Array<{ ids: number[] }>)[0].ids).toHaveLength(2);
  });

  it('retrieve maps the reads in time to the IR, and returns diagnostics for a bad one instead of throwing', async () => {
    expect(retrieveIr({ subject: 'mira', attribute: 'passport_deadline', as_of: '2026-06-02T00:00:00Z', known_at: '2026-06-03T00:00:00Z', history: true })).toEqual({
      stage: 'RET', op: 'Retrieve', target: { filter: { subject: 'mira', attribute: 'passport_deadline', limit: 10 } },
      args: { as_of: '2026-06-02T00:00:00Z', known_at: '2026-06-03T00:00:00Z', history: true },
    });
    const store = await createStore();
    const alice = await connect({ store });
    const bad = await call(alice, 'retrieve', { subject: 'mira', as_of: 'yesterday-ish' });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent.diagnostics.length).toBeGreaterThan(0);
    const known = await call(alice, 'retrieve', { subject: 'mira', known_at: '2026-06-03T00:00:00Z' });
    // Whatever the language makes of known_at, the answer is a result with diagnostics, not an exception.
    expect(known.structuredContent).toHaveProperty('diagnostics');
  });

  it('retrieve reads both time axes: known_at answers what the store believed then', async () => {
    const store = await createStore();
    const june1 = await connect({ store, now: '2026-06-01T09:00:00Z' });
    const fact = (text: string, episode: string) => `ENCODE "${text}" SUBJECT "mira" ATTRIBUTE "passport_deadline" VALID FROM 2026-06-01T09:00:00Z EPISODE "${episode}";`;
    expect((await call(june1, 'run', { script: fact('2026-07-15', 'e1') })).structuredContent.ok).toBe(true);
    const june2 = await connect({ store, now: '2026-06-02T09:00:00Z' });
    expect((await call(june2, 'run', { script: fact('2026-06-30', 'e2') })).structuredContent.ok).toBe(true);
    const read = async (args: Record<string, unknown>) => {
      const r = await call(june2, 'retrieve', { subject: 'mira', attribute: 'passport_deadline', as_of: '2026-06-02T00:00:00Z', include: ['text', 'episode'], ...args });
      expect(r.structuredContent.diagnostics).toEqual([]);
      return (r.structuredContent.rows as Array<{ text: string; episode: string }>).map((row) => [row.text, row.episode]);
    };
    expect(await read({ known_at: '2026-06-01T21:00:00Z' })).toEqual([['2026-07-15', 'e1']]);
    expect(await read({})).toEqual([['2026-06-30', 'e2']]);
  });

  it('the facts resource lists the tenant\'s attribute schemas in force, and no other tenant\'s', async () => {
    const store = await createStore();
    const alice = await connect({ store, tenant: 'acme' });
    const declared = await call(alice, 'run', { script: 'ENCODE ATTRIBUTE passport_deadline SCHEMA { type: "date", normalize: ["trim", "casefold"] };' });
    expect(declared.structuredContent.ok).toBe(true);
    const schemas = async (client: Client) => JSON.parse(String(((await client.readResource({ uri: 'text2mem://facts' })).contents[0] as { text: string }).text)).schemas;
    expect(await schemas(alice)).toMatchObject([{ attribute: 'passport_deadline', version: 1, schema: { type: 'date' } }]);
    expect(await schemas(await connect({ store, tenant: 'globex' }))).toEqual([]);
  });

  it('retrieve normalises its subject as the attribute\'s schema does, and shows a fact\'s confidence and source by default', async () => {
    const store = await createStore();
    const alice = await connect({ store, now: '2026-06-10T00:00:00Z' });
    const script = 'ENCODE ATTRIBUTE passport_deadline SCHEMA { type: "date", normalize: ["trim", "casefold"] };\n'
      + 'ENCODE "2026-07-15" SUBJECT " Mira" ATTRIBUTE passport_deadline VALID FROM 2026-06-01T09:00:00Z EPISODE "e1" CONFIDENCE 0.9 SOURCE "email";';
    expect((await call(alice, 'run', { script })).structuredContent.ok).toBe(true);
    const read = async (args: Record<string, unknown>) => {
      const r = await call(alice, 'retrieve', args);
      expect(r.structuredContent.diagnostics).toEqual([]);
      return r.structuredContent.rows as Array<Record<string, unknown>>;
    };
    const rows = await read({ subject: ' MIRA', attribute: 'passport_deadline' });
    expect(rows).toEqual([{ id: 1, text: '2026-07-15', subject: 'mira', attribute: 'passport_deadline', valid_from: '2026-06-01T09:00:00Z', valid_to: null, confidence: 0.9, source: 'email', episode: 'e1' }]);
    // Without an attribute: the subject as the tenant's normalising schemas keep it, on their facts.
    expect((await read({ subject: 'Mira ', include: ['text'] }))).toEqual([{ id: 1, text: '2026-07-15' }]);
    // An explicit include wins.
    expect(await read({ subject: 'Mira', attribute: 'passport_deadline', include: ['text'] })).toEqual([{ id: 1, text: '2026-07-15' }]);
  });

  it('feedback rewards ids, an episode or a turn; it needs at least one', async () => {
    const store = await createStore();
    const alice = await connect({ store });
    await call(alice, 'run', { script: 'LET $e = ENCODE "request: revenue. outcome: success" LEVEL episode; ENCODE "state: error. action: fix" LEVEL turn OF $e; ENCODE "a plain note";' });
    const r = await call(alice, 'feedback', { episode: 1, turn: 2, reward: 1, reason: 'the task succeeded' });
    expect(r.structuredContent).toMatchObject({ ok: true, records: [{ id: 1, utility: 1, utility_n: 1, level: 'episode' }, { id: 2, utility: 1, utility_n: 1, level: 'turn' }], diagnostics: [] });
    const plain = await call(alice, 'feedback', { ids: [3], reward: 0 });
    expect(plain.structuredContent).toMatchObject({ ok: true, records: [{ id: 3, utility: 0, utility_n: 1 }] });
    const misnamed = await call(alice, 'feedback', { episode: 3, reward: 1 });
    expect(misnamed.structuredContent.diagnostics.map((d) => d.code)).toEqual(['ignored-arg']);
    const none = await call(alice, 'feedback', { reward: 1 });
    expect(none.isError).toBe(true);
    expect(none.structuredContent.diagnostics[0].code).toBe('missing-field');
    const outOfRange = await alice.callTool({ name: 'feedback', arguments: { ids: [1], reward: 2 } });
    expect(outOfRange.isError).toBe(true);
    expect(store.query('SELECT COUNT(*) AS n FROM audit_log WHERE op = \'Promote\'')[0].n).toBe(3);
  });

  it('tools/list stays small', async () => {
    const alice = await connect({ store: await createStore() });
    const size = JSON.stringify(await alice.listTools()).length;
    expect(size).toBeLessThan(20_000);
  });
});
