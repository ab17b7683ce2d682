/**
 * Keyword scoring on the server (`keywords=server`, spec/retrieval.md "Keywords on PostgreSQL"):
 * BM25 in SQL over the engine's tokens ranks as the engine's in-memory index does. The same
 * records on PGlite opened both ways (and on SQLite): the same ids in the same order with the same
 * BM25, ranks, context and scores, for keyword-only and fused searches, filters (a selective one
 * too, which scores only what it admits), tenants whose records interleave, soft-deleted and
 * expired records; no in-memory keyword index is loaded; explain names the ranker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../../src/dialect/postgres/store.js';
import { openStoreUrl } from '../../src/dialect/open-url.js';
import { parseStoreUrl } from '../../src/store/url.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { run, type RunResult, type StatementResult, type Store } from '../../src/engine/index.js';
import { textToIr } from '../../src/pipeline.js';
import { KeywordIndex } from '../../src/retrieve/keywords.js';
import { tokens } from '../../src/text/text.js';
import { formatStatement } from '../../src/cli/engine-output.js';
import { freshDatabase, postgresBinaries } from '../support/postgres.js';

const NOW = '2025-06-01T00:00:00Z';
const LATER = '2025-06-05T00:00:00Z';
const irs = (text: string) => {
  const r = textToIr(text);
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(errors.map((d) => d.message).join('; ').slice(0, 400));
  return r.irs;
};
const WORDS = ['budget', 'meeting', 'review', 'launch', 'incident', 'travel', 'hiring', 'design', 'roadmap', 'vacation', 'Peru', 'outage', 'invoice', 'offsite', 'retro', 'finance', 'vendor', 'dentist', '预算', '会议'];
const textOf = (i: number) => `${WORDS[i % 20]} ${WORDS[(i * 7 + 3) % 20]} ${WORDS[(i * 11 + 5) % 20]} ${i % 5 === 0 ? WORDS[(i * 3) % 20] : ''} note${i % 37} ${i % 4 === 0 ? 'quarterly' : 'weekly'} ${i % 9 === 0 ? WORDS[(i * 5) % 20] : ''}`.replace(/ +/g, ' ').trim();
const line = (i: number, tenant: string) => `ENCODE "${textOf(i)} for ${tenant}" TAGS "t${i % 3}"${i % 41 === 0 ? ', "rare"' : ''};`;
// Tenants interleave: alpha, beta, alpha again, then deletes in both.
const STEPS: [string, string][] = [
  ['alpha', Array.from({ length: 120 }, (_, i) => line(i, 'alpha')).join('\n')],
  ['beta', Array.from({ length: 70 }, (_, i) => line(i * 3 + 1, 'beta')).join('\n')],
  ['alpha', Array.from({ length: 60 }, (_, i) => line(i + 120, 'alpha')).join('\n') + '\nPROMOTE WHERE tags HAS "t2" LIMIT 500 SET weight 0.9;'],
  ['alpha', 'DELETE WHERE search "dentist" LIMIT 3;\nDELETE WHERE tags HAS "t0" AND search "budget" LIMIT 4;'],
  ['beta', 'PROMOTE WHERE tags HAS "t1" LIMIT 500 SET weight 0.8;\nDELETE WHERE search "vendor" LIMIT 2;'],
  // Expired (by the searches' clock, LATER) but not deleted: still in the statistics, as in the in-memory index; never returned.
  ['alpha', 'EXPIRE WHERE search "offsite review" LIMIT 6 TTL P1D;'],
];
const QUERIES = ['budget review', 'vacation in Peru', 'incident outage retro', 'hiring roadmap quarterly', 'vendor invoice', 'dentist', 'design launch meeting weekly', '预算会议', 'note3 review weekly'];
const FILTERS = ['', ' WHERE tags HAS "t1"', ' WHERE weight >= 0.6', ' WHERE tags HAS "rare"'];
const ALPHAS = ['', ' ALPHA 0', ' ALPHA 0.5'];

async function pglite(keywords?: 'server'): Promise<PostgresStore> {
  const opened = await openPostgresStore({ kind: 'pglite' }, { keywords });
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return opened.store;
}
async function server15(keywords?: 'server'): Promise<PostgresStore> {
  const opened = await openPostgresStore({ kind: 'postgres', url: await freshDatabase('kw') }, { keywords });
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return opened.store;
}
const BACKENDS: [string, boolean, (keywords?: 'server') => Promise<PostgresStore>][] = [
  ['PGlite', true, pglite],
  ['a PostgreSQL server', postgresBinaries() !== null, server15],
];
const first = (r: RunResult): StatementResult => {
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
  return r.results[0] as StatementResult;
};
const LOAD = /SELECT "id", "search_text" FROM "memory"/;

for (const [backend, available, open] of BACKENDS) describe.skipIf(!available)(`keywords=server ranks as the engine, on ${backend}`, () => {
  let server: PostgresStore;
  let engine: PostgresStore;
  let lite: Store;
  beforeAll(async () => {
    server = await open('server');
    engine = await open();
    lite = await createStore();
    for (const [tenant, text] of STEPS) {
      const script = irs(text);
      for (const s of [server, engine]) expect((await run(s, script, { now: NOW, tenant })).ok).toBe(true);
      expect(run(lite, script, { now: NOW, tenant }).ok).toBe(true);
    }
  }, 180_000);
  afterAll(async () => {
    await server.close();
    await engine.close();
    lite.close();
  });

  it('the same ids, order, BM25, ranks, context and scores as the engine (PGlite and SQLite), per tenant and filter', async () => {
    let compared = 0;
    for (const tenant of ['alpha', 'beta']) {
      for (const q of QUERIES) {
        for (const f of FILTERS) {
          for (const a of ALPHAS) {
            const script = irs(`RETRIEVE WHERE search "${q}"${a} LIMIT 10${f} INCLUDE id, text;`);
            const x = first(await run(server, script, { now: LATER, tenant }));
            const y = first(await run(engine, script, { now: LATER, tenant }));
            const z = first(run(lite, script, { now: LATER, tenant }));
            const where = `${tenant} ${q}${a}${f}`;
            expect(x.ids, where).toEqual(y.ids);
            expect(y.ids, where).toEqual(z.ids);
            for (const id of x.ids) {
              const [ex, ey] = [x.explain![id], y.explain![id]];
              expect({ ...ex, keywords: undefined }, `${where} #${id}`).toEqual({ ...ey, keywords: undefined });
              expect(ex.keywords).toBe('server');
              expect(ey.keywords).toBeUndefined();
              expect(x.rows!.find((r) => r.id === id)!.text).toContain(tenant);
            }
            // The server never loads the in-memory index; the engine does (once per tenant).
            expect(x.sql.some((s) => LOAD.test(s.sql)), where).toBe(false);
            if (x.ids.length) compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(150);
  }, 180_000);

  it('BM25 over the unrounded doubles: the server\'s scores are the in-memory index\'s, bit for bit', async () => {
    let compared = 0;
    for (const tenant of ['alpha', 'beta']) {
      // The engine's index over the same records, built from what the store holds.
      const index = new KeywordIndex();
      for (const r of await server.driver.all(`SELECT id, search_text FROM memory WHERE tenant = $1 AND deleted = 0 ORDER BY id`, [tenant])) index.set(Number(r.id), r.search_text as string | null);
      for (const q of [...QUERIES, 'weekly', 'review weekly quarterly note3']) {
        const script = irs(`RETRIEVE WHERE search "${q}" ALPHA 0 LIMIT 50 INCLUDE id;`);
        const x = first(await run(server, script, { now: LATER, tenant }));
        const scoring = x.sql.find((st) => /ORDER BY score DESC, d\.id/.test(st.sql));
        expect(scoring, q).toBeDefined();
        const raw = (await server.driver.all(scoring!.sql, scoring!.params as never)).map((r) => ({ id: Number(r.id), score: Number(r.score) }));
        const want = index.search([...new Set(tokens(q))], raw.length);
        expect(raw, `${tenant} ${q}`).toEqual(want);
        compared += raw.length;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  it('a tenant\'s scores do not depend on another tenant\'s records', async () => {
    const only = await open('server');
    try {
      for (const [tenant, text] of STEPS) if (tenant === 'beta') expect((await run(only, irs(text), { now: NOW, tenant })).ok).toBe(true);
      let compared = 0;
      for (const q of QUERIES) {
        for (const a of ALPHAS) {
          const script = irs(`RETRIEVE WHERE search "${q}"${a} LIMIT 10 INCLUDE id, text;`);
          const [x, y] = [first(await run(only, script, { now: LATER, tenant: 'beta' })), first(await run(server, script, { now: LATER, tenant: 'beta' }))];
          // Alpha wrote before, between and after beta's records in \`server\`: the ids differ, the texts, order and scores do not.
          const seen = (r: StatementResult) => r.rows!.map((row) => [row.text, { ...r.explain![Number(row.id)] }]);
          expect(seen(y), `${q}${a}`).toEqual(seen(x));
          compared += x.ids.length ? 1 : 0;
        }
      }
      expect(compared).toBeGreaterThan(15);
    } finally {
      await only.close();
    }
  });

  it('candidates come from the GIN index on the engine\'s tokens', async () => {
    const x = first(await run(server, irs('RETRIEVE WHERE search "dentist vendor" ALPHA 0 LIMIT 5 INCLUDE id;'), { now: NOW, tenant: 'alpha' }));
    const scoring = x.sql.find((s) => /ORDER BY score DESC, d\.id/.test(s.sql))!;
    await server.driver.exec('ANALYZE memory');
    const plan = (await server.driver.all(`EXPLAIN ${scoring.sql}`, scoring.params as never)).map((r) => String(r['QUERY PLAN'])).join('\n');
    expect(plan).toMatch(/Bitmap Index Scan on memory_search_terms/);
  });

  it('a search after a write in the same script sees the write in its statistics, and later searches too', async () => {
    for (const text of ['ENCODE "dentist dentist vendor retro for alpha";\nRETRIEVE WHERE search "dentist vendor" ALPHA 0 LIMIT 10 INCLUDE id;', 'RETRIEVE WHERE search "dentist vendor" ALPHA 0 LIMIT 10 INCLUDE id;']) {
      const script = irs(text);
      const [x, y] = [await run(server, script, { now: LATER, tenant: 'alpha' }), await run(engine, script, { now: LATER, tenant: 'alpha' })];
      if (!x.ok || !y.ok) throw new Error('refused');
      const last = (r: RunResult) => (r.ok ? r.results.at(-1) : undefined) as StatementResult;
      expect(last(x).ids).toEqual(last(y).ids);
      for (const id of last(x).ids) expect(last(x).explain![id].bm25).toBe(last(y).explain![id].bm25);
    }
  });

  it('the server ranker\'s indexes exist only where a store was opened writable with keywords=server', async () => {
    const names = async (s: PostgresStore) => (await s.driver.all(`SELECT indexname FROM pg_indexes WHERE tablename = 'memory' AND indexname LIKE 'memory_search_%' ORDER BY 1`)).map((r) => r.indexname);
    expect(await names(server)).toEqual(['memory_search_order', 'memory_search_terms']);
    expect(await names(engine)).toEqual([]);
  });

});

describe('choosing the ranker', () => {
  it('is chosen by the store name: ?keywords=server on pglite: and postgres://; anything else is refused', async () => {
    expect(parseStoreUrl('pglite:?keywords=server')).toEqual({ kind: 'pglite', keywords: 'server' });
    expect(parseStoreUrl('pglite:./dir?keywords=engine')).toEqual({ kind: 'pglite', dataDir: './dir', keywords: 'engine' });
    expect(parseStoreUrl('pglite:./dir')).toEqual({ kind: 'pglite', dataDir: './dir' });
    expect(parseStoreUrl('postgres://me@localhost/db?schema=s1&keywords=server')).toEqual({ kind: 'postgres', url: 'postgres://me@localhost/db', schema: 's1', keywords: 'server' });
    for (const bad of ['pglite:?keywords=bm25', 'postgres://me@localhost/db?keywords=']) expect(parseStoreUrl(bad)).toMatchObject({ code: 'bad-store-url' });
    const opened = await openStoreUrl('pglite:?keywords=server');
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    try {
      expect((await run(opened.store, irs('ENCODE "budget review on Monday";\nENCODE "travel to Peru";'), { now: NOW })).ok).toBe(true);
      const r = first(await run(opened.store, irs('RETRIEVE WHERE search "budget" ALPHA 0 INCLUDE id;'), { now: NOW }));
      expect(r.ids).toHaveLength(1);
      expect(r.explain![r.ids[0]].keywords).toBe('server');
      expect(formatStatement(r, { explain: true })).toMatch(/keywords/);
    } finally {
      await opened.store.close();
    }
  });
});
