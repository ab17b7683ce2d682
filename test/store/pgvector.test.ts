/**
 * Vectors on PostgreSQL with pgvector (PGlite's `vector` extension; spec/retrieval.md "Vector
 * search on PostgreSQL"): `embedding_f32` as a pgvector vector holding the engine's Float32 values
 * exactly, ranking in SQL with the filters in its WHERE giving the same top-k as the engine-side
 * scan of the same records (on SQLite); a remote embedding model reached through the async seam at write and search
 * time (the local server of test/support/embeddings-server.ts); `t2m reindex` on PGlite.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgres, postgresVector } from '../../src/dialect/postgres/dialect.js';
import { run, Store, undo, type AsyncSqlDriver } from '../../src/engine/index.js';
import { openAIEmbedder } from '../../src/retrieve/embeddings.js';
import { reindexStore } from '../../src/execute/reindex.js';
import { NgramEmbedder } from '../../src/text/text.js';
import { preparePostgresStore } from '../../src/dialect/postgres/open.js';
import { PgliteDriver } from '../../src/dialect/postgres/pglite-driver.js';
import { openOnDriver, openPostgresStore, type PostgresStore } from '../../src/dialect/postgres/store.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { textToIr } from '../../src/pipeline.js';
import { t2m } from '../cli/run-cli.js';
import { startEmbeddingsServer, type EmbeddingsServer } from '../support/embeddings-server.js';

const NOW = '2025-06-01T00:00:00Z';
const irs = (text: string) => {
  const r = textToIr(text);
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(errors.map((d) => d.message).join('; '));
  return r.irs;
};

async function pglite(options: Parameters<typeof openOnDriver>[1] = {}): Promise<PostgresStore> {
  const opened = await openPostgresStore({ kind: 'pglite' }, options);
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return opened.store;
}

/** Deterministic, distinct texts (no two records share a vector, so the order has no exact ties). */
const WORDS = ['budget', 'meeting', 'review', 'launch', 'incident', 'travel', 'hiring', 'design', 'roadmap', 'vacation', 'Peru', 'outage', 'invoice', 'offsite', 'retro'];
/** Record i (id i + 1). */
const textOf = (i: number) => `${WORDS[i % 15]} ${WORDS[(i * 7 + 3) % 15]} ${WORDS[(i * 11 + 5) % 15]} item${i} ${i % 4 === 0 ? 'quarterly' : 'weekly'}`;

/** Every record's stored vector is exactly (as Float32) `embed` of its text. */
async function vectorsExact(store: PostgresStore, embed: (text: string) => ArrayLike<number>): Promise<number> {
  const rows = await store.driver.all(`SELECT id, text, embedding_f32::text AS e FROM memory WHERE embedding_f32 IS NOT NULL ORDER BY id`);
  for (const row of rows) {
    const stored = (JSON.parse(String(row.e)) as number[]).map((x) => Math.fround(x));
    expect(stored, `memory #${String(row.id)}`).toEqual(Array.from(embed(String(row.text))));
  }
  return rows.length;
}

const offline = new NgramEmbedder();
const SCRIPT = Array.from({ length: 120 }, (_, i) => `ENCODE "${textOf(i)}" TAGS "t${i % 3}";`).join('\n') + '\nPROMOTE WHERE tags HAS "t2" LIMIT 200 SET weight 0.9;';

describe('pgvector on PGlite', () => {
  let store: PostgresStore;
  let twin: Store;
  beforeAll(async () => {
    store = await pglite();
    expect((await run(store, irs(SCRIPT), { now: NOW })).ok).toBe(true);
    // The same records on SQLite (sql.js), where the engine scans packed vectors itself.
    twin = await createStore();
    expect(run(twin, irs(SCRIPT), { now: NOW }).ok).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await store.close();
    twin.close();
  });

  it('opens with the pgvector dialect: embedding_f32 is a vector holding exactly the engine\'s Float32 values', async () => {
    expect(store.dialect.vectors).toBeDefined();
    expect(await store.driver.all(`SELECT data_type AS t FROM information_schema.columns WHERE table_name = 'memory' AND column_name = 'embedding_f32' AND table_schema = current_schema()`)).toEqual([{ t: 'USER-DEFINED' }]);
    expect(await vectorsExact(store, (t) => offline.embed(t))).toBe(120);
  });

  it('ranks in SQL with the same top-k as the engine-side scan of the same records, filters first', async () => {
    const queries = ['budget review', 'vacation in Peru', 'incident outage retro', 'hiring roadmap quarterly'];
    const filters = ['', ' WHERE tags HAS "t1"', ' WHERE weight >= 0.6'];
    let compared = 0;
    for (const q of queries) {
      for (const f of filters) {
        const script = irs(`RETRIEVE WHERE search "${q}" ALPHA 1 LIMIT 8${f} INCLUDE id, tags, weight;`);
        const a = await run(store, script, { now: NOW });
        const b = run(twin, script, { now: NOW });
        if (!a.ok || !b.ok) throw new Error('search refused');
        const [ra, rb] = [a.results[0], b.results[0]];
        expect(ra.ids.length).toBeGreaterThan(0);
        // The same top k; the order too, up to near-ties (pgvector sums in single precision, the engine in double).
        expect(new Set(ra.ids)).toEqual(new Set(rb.ids));
        for (const id of ra.ids) expect(Math.abs(ra.explain![id].score - rb.explain![id].score)).toBeLessThanOrEqual(2e-4);
        ra.ids.forEach((id, k) => expect(Math.abs(ra.explain![id].score - rb.explain![rb.ids[k]].score)).toBeLessThanOrEqual(2e-4));
        // Ranked in SQL (ORDER BY the cosine distance), not by loading vectors.
        expect(ra.sql.some((s) => /<=>/.test(s.sql) && /ORDER BY/.test(s.sql))).toBe(true);
        if (f.includes('t1')) for (const row of ra.rows!) expect(row.tags).toContain('t1');
        if (f.includes('weight')) for (const row of ra.rows!) expect(row.weight).toBeGreaterThanOrEqual(0.6);
        compared++;
      }
    }
    expect(compared).toBe(12);
  });

  it('keeps vectors exact through update, soft delete and undo, and finds no deleted record', async () => {
    const w = await run(store, irs(`UPDATE ID 3 SET text "a new text about the offsite in Peru";\nDELETE ID 4 SOFT;`), { now: NOW });
    expect(w.ok).toBe(true);
    await vectorsExact(store, (t) => offline.embed(t));
    const found = await run(store, irs(`RETRIEVE WHERE search "${textOf(3)}" ALPHA 1 LIMIT 50 INCLUDE id;`), { now: NOW });
    expect(found.ok && found.results[0].ids).not.toContain(4);
    const audit = await store.driver.all(`SELECT id FROM audit_log WHERE op = 'Delete' ORDER BY id DESC LIMIT 1`);
    expect((await undo(store, Number(audit[0].id), { now: NOW })).ok).toBe(true);
    const back = await run(store, irs(`RETRIEVE WHERE search "${textOf(3)}" ALPHA 1 LIMIT 1 INCLUDE id;`), { now: NOW });
    expect(back.ok && back.results[0].ids).toEqual([4]);
    const before = await store.driver.all('SELECT id, embedding_f32::text AS e FROM memory ORDER BY id');
    // Refused at its second statement: the first statement's re-embedding is rolled back too.
    const failed = await run(store, irs(`UPDATE ID 6 SET text "changed and then rolled back";\nMERGE IDS "6", "999" INTO "999";`), { now: NOW });
    expect(failed.ok).toBe(false);
    expect(await store.driver.all('SELECT id, embedding_f32::text AS e FROM memory ORDER BY id')).toEqual(before);
  });

  it('converts the packed vectors of a store created without pgvector, exactly, when it is opened with it', async () => {
    const driver = await PgliteDriver.open();
    expect(await preparePostgresStore(driver, { dialect: postgres })).toEqual([]);
    const plain = new Store(driver, { dialect: postgres }) as Store<AsyncSqlDriver>;
    expect((await run(plain, irs('ENCODE "first note about budgets"; ENCODE "second note on travel";'), { now: NOW })).ok).toBe(true);
    expect(await driver.all(`SELECT data_type AS t FROM information_schema.columns WHERE table_name = 'memory' AND column_name = 'embedding_f32' AND table_schema = current_schema()`)).toEqual([{ t: 'bytea' }]);
    const again = await openOnDriver(driver);
    if (!again.ok) throw new Error('reopen');
    expect(again.store.dialect).toBe(postgresVector);
    expect(await vectorsExact(again.store, (t) => offline.embed(t))).toBe(2);
    // The keyword index's trigger came back with the new column type.
    expect((await run(again.store, irs('ENCODE "third note"; RETRIEVE WHERE search "budgets" LIMIT 1 INCLUDE id;'), { now: NOW })).ok).toBe(true);
    expect((await driver.all(`SELECT docs FROM memory_search_stats`))[0].docs).toBe(3);
    await again.store.close();
  });
});

describe('a remote embedding model through the async seam', () => {
  let srv: EmbeddingsServer;
  beforeAll(async () => {
    srv = await startEmbeddingsServer(32);
  });
  afterAll(() => srv.close());

  it('embeds records and queries via /v1/embeddings in run on PGlite; a server failure refuses and changes nothing', async () => {
    srv.fail = null;
    const embedder = openAIEmbedder({ baseUrl: srv.baseUrl, model: 'mini-embed' });
    const store = await pglite({ embedder });
    try {
      const enc = await run(store, irs('ENCODE "We booked flights to Peru for the holidays"; ENCODE "Quarterly budget review with finance";'), { now: NOW });
      expect(enc.ok).toBe(true);
      expect(await store.driver.all('SELECT embedding_model AS m, vector_dims(embedding_f32) AS n FROM memory ORDER BY id')).toEqual([{ m: 'mini-embed', n: 32 }, { m: 'mini-embed', n: 32 }]);
      await vectorsExact(store, (t) => srv.local.embed(t));
      srv.requests.length = 0;
      const found = await run(store, irs('RETRIEVE WHERE search "flights Peru" ALPHA 1 LIMIT 1 INCLUDE id;'), { now: NOW });
      if (!found.ok) throw new Error(found.diagnostics[0].message);
      expect(found.results[0].ids).toEqual([1]);
      expect(found.results[0].explain![1].vector).toBeGreaterThan(0.3);
      // The query itself went to the server.
      expect(srv.requests.map((r) => r.body.input)).toEqual([['flights Peru']]);

      const rows = await store.driver.all('SELECT * FROM memory ORDER BY id');
      const audit = await store.driver.all('SELECT * FROM audit_log ORDER BY id');
      srv.fail = { status: 503, body: '{"error":{"message":"model loading"}}' };
      const refusedSearch = await run(store, irs('ENCODE "kept only if all goes well"; RETRIEVE WHERE search "budget" LIMIT 3;'), { now: NOW });
      expect(refusedSearch).toMatchObject({ ok: false, diagnostics: [{ code: 'embeddings-http-error', message: expect.stringMatching(/HTTP 503.*model loading/) }] });
      expect(await store.driver.all('SELECT * FROM memory ORDER BY id')).toEqual(rows);
      expect(await store.driver.all('SELECT * FROM audit_log ORDER BY id')).toEqual(audit);
      // A filter read needs no embedding: it runs while the server is down.
      expect((await run(store, irs('RETRIEVE WHERE type = "note" LIMIT 5;'), { now: NOW })).ok).toBe(true);
    } finally {
      srv.fail = null;
      await store.close();
    }
  }, 60_000);

  it('a store whose model is remote answers with a promise from the same entry point, the embedder awaited', async () => {
    const embedder = openAIEmbedder({ baseUrl: srv.baseUrl, model: 'mini-embed' });
    const store = await createStore({ embedder });
    srv.requests.length = 0;
    expect(run(store, irs('RETRIEVE WHERE type = "note" LIMIT 1;'), { now: NOW })).toBeInstanceOf(Promise);
    expect((await run(store, irs('ENCODE "needs the remote model";'), { now: NOW })).ok).toBe(true);
    expect(srv.requests).toHaveLength(1);
    expect(store.query('SELECT embedding_model AS m FROM memory')).toEqual([{ m: 'mini-embed' }]);
    store.close();
  });

  it('an unreachable server is a diagnostic, not an exception', async () => {
    const store = await createStore({ embedder: openAIEmbedder({ baseUrl: 'http://127.0.0.1:1/v1', model: 'gone', timeoutMs: 2000 }) });
    const r = await run(store, irs('ENCODE "x";'), { now: NOW });
    expect(r).toMatchObject({ ok: false, diagnostics: [{ code: expect.stringMatching(/embeddings-(unreachable|timeout)/) }] });
    store.close();
  });

  it('reindexStore re-embeds a PGlite store with the remote model (its vectors follow) and changes nothing when it fails', async () => {
    const store = await pglite();
    try {
      expect((await run(store, irs('ENCODE "alpha budget"; ENCODE "beta review"; ENCODE "gamma launch";'), { now: NOW })).ok).toBe(true);
      const before = await store.driver.all('SELECT id, embedding_model, embedding_f32 FROM memory ORDER BY id');
      srv.fail = { status: 500, body: 'boom' };
      expect(await reindexStore(store, { embedder: openAIEmbedder({ baseUrl: srv.baseUrl, model: 'mini-embed' }) })).toMatchObject({ ok: false, diagnostics: [{ code: 'embeddings-http-error' }] });
      expect(await store.driver.all('SELECT id, embedding_model, embedding_f32 FROM memory ORDER BY id')).toEqual(before);
      srv.fail = null;
      expect(await reindexStore(store, { embedder: openAIEmbedder({ baseUrl: srv.baseUrl, model: 'mini-embed' }), batchSize: 2 })).toEqual({ ok: true, records: 3, model: 'mini-embed' });
      expect(await store.driver.all('SELECT DISTINCT embedding_model AS model, vector_dims(embedding_f32) AS n FROM memory')).toEqual([{ model: 'mini-embed', n: 32 }]);
      await vectorsExact(store, (t) => srv.local.embed(t));
    } finally {
      srv.fail = null;
      await store.close();
    }
  }, 60_000);
});

describe('t2m reindex on PGlite', () => {
  it('re-embeds a pglite: store through the async API', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 't2m-pgret-')), 'data');
    expect(t2m(['run', '-', '--db', `pglite:${dir}`], 'ENCODE "alpha budget"; ENCODE "beta review";').status).toBe(0);
    const r = t2m(['reindex', '--db', `pglite:${dir}`, '--json']);
    expect(r.stderr).toContain('2/2 records');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ records: 2, model: 't2m-ngram-256' });
    // (A failing server changes nothing: reindexStore on PGlite above, the CLI on a file in test/execute/embeddings.test.ts.)
  }, 300_000);
});
