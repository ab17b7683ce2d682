/**
 * Reads honour everything a direct read honours (issue 28, spec/semantics.md "Which records an
 * operation sees", "Limits"): on every read path — a filter Retrieve, a search, HISTORY, AS OF,
 * SUMMARIZE, two-stage retrieval (K / PICK), EXPAND episode, the MCP tools and vocabulary
 * resource, the planner's context and the playground's vocabulary — a record whose lock denies
 * Retrieve, a record the reader may not read, and another tenant's record never show (not their
 * ids, not their text, not their words), and the caller's row limit holds.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { run, type RunOptions, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { textToIr } from '../../src/pipeline.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { relatedMemories, storeVocabulary } from '../../src/agents/context.js';
import { termsOfRows } from '../../src/services/rowTerms.js';

const NOW = '2026-03-01T00:00:00Z';
const T = 'acme';
/** Words only hidden records hold: a lock denying Retrieve, read permission, another tenant. */
const MARKERS = ['zebra', 'yak', 'walrus'];

const dsl = (text: string) => {
  const r = textToIr(text);
  if (r.diagnostics.some((d) => d.severity === 'error')) throw new Error(JSON.stringify(r.diagnostics));
  return r.irs;
};

function ok(store: Store, irs: unknown[], options: RunOptions): void {
  const r = run(store, irs, { now: NOW, ...options });
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
}

let store: Store;
let hidden: number[];

beforeAll(async () => {
  store = await createStore();
  // Tenant acme, written by alice: what alice may see.
  ok(store, [
    ...dsl(`LET $e = ENCODE "apple plan for the orchard" LEVEL episode TAGS "fruit" TYPE "plan" SUBJECT "orchard";
ENCODE "apple step one, pick the trees" LEVEL turn OF $e TAGS "fruit";
ENCODE "apple step two, count the crates" LEVEL turn OF $e TAGS "fruit";
LET $z = ENCODE "apple zebra plan, locked away" LEVEL episode TAGS "zebra-tag" TYPE "zebra-type" SUBJECT "zebra-subject";
ENCODE "apple step under the locked plan" LEVEL turn OF $z TAGS "fruit";
ENCODE "apple zebra turn, locked away" LEVEL turn OF $e TAGS "zebra-tag";
ENCODE "apple zebra note, locked away" TAGS "zebra-tag" TYPE "zebra-type" SUBJECT "zebra-subject";`),
    ...[1, 2, 3, 4, 5].map((i) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: `apple note ${i} about the harvest` }, tags: ['fruit'], type: 'note', subject: 'orchard' } })),
  ], { actor: 'alice', tenant: T });
  // Every record that says "zebra" is locked against Retrieve.
  const zebra = store.query(`SELECT id FROM memory WHERE text LIKE '%zebra%'`).map((r) => Number(r.id));
  ok(store, [{ stage: 'STO', op: 'Lock', target: { ids: zebra.map(String) }, args: { mode: 'read_only', policy: { deny: ['Retrieve', 'Summarize'] } } }], { actor: 'alice', tenant: T });
  // bob's private records in the same tenant (an episode, a turn of alice's episode, a note).
  const [ep] = store.query(`SELECT id FROM memory WHERE text = 'apple plan for the orchard'`).map((r) => Number(r.id));
  ok(store, [
    ...dsl(`LET $y = ENCODE "apple yak plan, private" LEVEL episode TAGS "yak-tag" TYPE "yak-type" SUBJECT "yak-subject";
ENCODE "apple yak step, private" LEVEL turn OF $y TAGS "yak-tag";
ENCODE "apple yak turn of alice's plan" LEVEL turn OF ${ep} TAGS "yak-tag";
ENCODE "apple yak note, private" TAGS "yak-tag" TYPE "yak-type" SUBJECT "yak-subject";`).map((ir) => ({ ...(ir as object), args: { ...(ir as { args: object }).args, read_perm_level: 'private' } })),
  ], { actor: 'bob', tenant: T });
  // Another tenant: the same words and more.
  ok(store, dsl(`LET $w = ENCODE "apple walrus plan of another tenant" LEVEL episode TAGS "walrus-tag" TYPE "walrus-type" SUBJECT "walrus-subject";
ENCODE "apple walrus step one" LEVEL turn OF $w TAGS "walrus-tag";
ENCODE "apple walrus note apple apple" TAGS "walrus-tag" TYPE "walrus-type" SUBJECT "walrus-subject";`), { actor: 'alice', tenant: 'globex' });
  hidden = store.query(`SELECT id FROM memory WHERE text LIKE '%zebra%' OR text LIKE '%yak%' OR text LIKE '%walrus%'`).map((r) => Number(r.id));
  expect(hidden.length).toBe(10);
});

/** No hidden record's id, text or vocabulary in what a read returned (its warnings may name ids, as a direct read's do). */
function expectNoLeak(value: unknown): void {
  const text = JSON.stringify(value);
  for (const m of MARKERS) expect(text, `"${m}" leaked`).not.toContain(m);
}

function idsOf(rows: readonly { id: unknown }[] | undefined): number[] {
  return (rows ?? []).map((r) => Number(r.id));
}

/** A read as alice in acme: its results (without warnings), checked for leaks. */
function read(irs: unknown[], options: RunOptions = {}) {
  const r = run(store, irs, { now: NOW, actor: 'alice', tenant: T, ...options });
  expect(r.diagnostics.filter((d) => d.severity === 'error'), JSON.stringify(r.diagnostics)).toEqual([]);
  for (const s of r.results) {
    const { warnings: _w, sql: _sql, ...shown } = s;
    expectNoLeak(shown);
    const named = [...s.ids, ...idsOf(s.rows as { id: unknown }[]), ...Object.keys(s.scores ?? {}), ...Object.keys(s.explain ?? {}), ...(s.experience?.candidates ?? []).map((c) => c.id)];
    for (const id of named) expect(hidden).not.toContain(Number(id));
  }
  return r;
}

const PATHS: Record<string, unknown[]> = {
  'filter Retrieve': [{ stage: 'RET', op: 'Retrieve', target: { filter: { limit: 100 } } }],
  'tag filter Retrieve': [{ stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['fruit'] } } }],
  'ids Retrieve': [{ stage: 'RET', op: 'Retrieve', target: { ids: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20'] } }],
  'search Retrieve': [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'apple zebra yak walrus' }, limit: 50 } } }],
  'HISTORY': [{ stage: 'RET', op: 'Retrieve', target: { filter: { limit: 100 } }, args: { history: true } }],
  'AS OF': [{ stage: 'RET', op: 'Retrieve', target: { filter: { limit: 100 } }, args: { as_of: NOW } }],
  'SUMMARIZE': [{ stage: 'RET', op: 'Summarize', target: { filter: { limit: 100 } }, args: { max_tokens: 500 } }],
  'SUMMARIZE a search': [{ stage: 'RET', op: 'Summarize', target: { search: { intent: { query: 'apple zebra yak walrus' }, limit: 50 } }, args: { max_tokens: 500 } }],
  // (The experience report repeats the query: it names no marker.)
  'two-stage episodes (K, PICK)': dsl('RETRIEVE WHERE search "apple plan away private another tenant" K 50 LEVEL episode PICK 10;'),
  'two-stage turns with EXPAND episode': dsl('RETRIEVE WHERE search CONTEXT "apple step turn away private another tenant" K 50 LEVEL turn PICK 10 EXPAND episode;'),
};

describe('every read path leaves out what a direct read leaves out', () => {
  for (const [name, irs] of Object.entries(PATHS)) {
    it(`${name}: no locked, unreadable or other tenant's record`, () => {
      const r = read(irs);
      const s = r.results[0];
      // The path found something (so leaving the hidden ones out means something).
      expect(s.ids.length, name).toBeGreaterThan(0);
    });
    it(`${name}: at most --max-rows rows (truncated)`, () => {
      const r = read(irs, { limits: { maxRows: 2 } });
      const s = r.results[0];
      expect(s.ids.length, name).toBeLessThanOrEqual(2);
      expect((s.rows ?? []).length).toBeLessThanOrEqual(2);
      if (s.experience) expect(s.experience.candidates.length).toBeLessThanOrEqual(2);
      // Scores and explanations only of the rows returned.
      for (const id of [...Object.keys(s.scores ?? {}), ...Object.keys(s.explain ?? {})]) expect(s.ids).toContain(Number(id));
      expect(r.diagnostics.map((d) => d.code), name).toContain('truncated');
    });
  }

  it('EXPAND episode leaves out an episode whose lock denies Retrieve (and says so)', () => {
    const r = read(dsl('RETRIEVE WHERE search CONTEXT "apple step under the locked plan" K 1 LEVEL turn PICK 1 EXPAND episode;'));
    const s = r.results[0];
    expect(s.rows!.map((x) => x.text)).toEqual(['apple step under the locked plan']);
    expect(s.experience!.expanded).toEqual({});
    expect(r.diagnostics.map((d) => d.code)).toContain('ids-not-found');
  });

  it('two-stage retrieval keeps PICK within --max-rows: K is cut to the limit, then the kept rows and their episodes', () => {
    const r = read(dsl('RETRIEVE WHERE search CONTEXT "apple step" K 10 LEVEL turn PICK 3 EXPAND episode;'), { limits: { maxRows: 3 } });
    const s = r.results[0];
    expect(s.ids).toHaveLength(3);
    expect(s.experience!.candidates.length).toBeLessThanOrEqual(3);
    // The kept turns come first; an episode cut by the limit is not reported as expanded.
    expect(s.ids.slice(0, s.experience!.selected.length)).toEqual(s.experience!.selected.slice(0, 3));
    for (const episode of Object.values(s.experience!.expanded ?? {})) expect(s.ids).toContain(episode);
  });
});

describe('the MCP tools and resources', () => {
  async function client(limits?: RunOptions['limits']): Promise<Client> {
    const server = createMcpServer({ store, actor: 'alice', tenant: T, now: NOW, limits });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const c = new Client({ name: 'test', version: '0' });
    await c.connect(b);
    return c;
  }

  it('retrieve, run and the vocabulary show nothing hidden; the row limit holds on each', async () => {
    const c = await client();
    for (const args of [{ query: 'apple zebra yak walrus', limit: 50 }, { tags: ['zebra-tag'] }, { limit: 100 }]) {
      const r = await c.callTool({ name: 'retrieve', arguments: args });
      expectNoLeak(r.structuredContent);
    }
    for (const irs of Object.values(PATHS)) {
      const r = await c.callTool({ name: 'run', arguments: { script: JSON.stringify(irs) } });
      const { results } = r.structuredContent as { results: { warnings?: unknown }[] };
      expectNoLeak(results);
    }
    const vocab = await c.readResource({ uri: 'text2mem://vocabulary' });
    expectNoLeak(vocab.contents);
    expect(JSON.parse(String((vocab.contents[0] as { text: string }).text)).tags).toEqual([{ value: 'fruit', count: 9 }]);
    await c.close();

    const limited = await client({ maxRows: 2 });
    const r = await limited.callTool({ name: 'retrieve', arguments: { query: 'apple', limit: 50 } });
    expect((r.structuredContent as { ids: number[] }).ids.length).toBe(2);
    const all = await limited.callTool({ name: 'run', arguments: { script: 'RETRIEVE WHERE search CONTEXT "apple step" K 10 LEVEL turn PICK 5 EXPAND episode;' } });
    expect((all.structuredContent as { results: { ids: number[] }[] }).results[0].ids.length).toBeLessThanOrEqual(2);
    const words = JSON.parse(String(((await limited.readResource({ uri: 'text2mem://vocabulary' })).contents[0] as { text: string }).text));
    for (const kind of ['tags', 'types', 'subjects']) expect(words[kind].length).toBeLessThanOrEqual(2);
    await limited.close();
  });
});

describe('the planner\'s context and the playground\'s vocabulary', () => {
  it('the store vocabulary and the related memories hold only what alice may read in acme', () => {
    const v = storeVocabulary(store, { actor: 'alice', tenant: T, now: NOW });
    expectNoLeak(v);
    expect(v.types.map((t) => t.value)).toEqual(['note', 'plan']);
    const related = relatedMemories(store, 'apple zebra yak walrus', 50, { actor: 'alice', tenant: T, now: NOW });
    expectNoLeak(related);
    expect(related.length).toBeGreaterThan(0);
    expect(relatedMemories(store, 'apple', 50, { actor: 'alice', tenant: T, now: NOW, limits: { maxRows: 2 } })).toHaveLength(2);
    expect(storeVocabulary(store, { actor: 'alice', tenant: T, now: NOW, limits: { maxRows: 1 } }).types).toHaveLength(1);
  });

  it('the playground\'s vocabulary (rows read raw) leaves out locked, unreadable, other tenants\', expired and future records', () => {
    const rows = store.query('SELECT * FROM memory');
    const v = termsOfRows(rows, { actor: 'alice', tenant: T, now: NOW });
    expectNoLeak(v);
    expect(v).toEqual({ tags: ['fruit'], types: ['note', 'plan'], subjects: ['orchard'] });
    // bob reads his own private records; another tenant's reader its own.
    expect(termsOfRows(rows, { actor: 'bob', tenant: T, now: NOW }).types).toEqual(['note', 'plan', 'yak-type']);
    expect(termsOfRows(rows, { tenant: 'globex', now: NOW }).types).toEqual(['walrus-type']);
    const expired = { id: 99, tenant: T, text: 'old', type: 'expired-type', deleted: 0, expire_at: '2026-01-01T00:00:00Z' };
    const future = { id: 100, tenant: T, text: 'next', type: 'future-type', deleted: 0, valid_from: '2027-01-01T00:00:00Z' };
    expect(termsOfRows([...rows, expired, future], { actor: 'alice', tenant: T, now: NOW }).types).toEqual(['note', 'plan']);
  });
});
