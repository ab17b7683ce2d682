/**
 * Vector retrieval on PostgreSQL in PGlite (figures, not asserts; spec/retrieval.md "Vector search
 * on PostgreSQL"). At each size (default 1k and 10k memories of a Zipf corpus, encoded through
 * `runAsync` in scripts of 1,000 Encodes) it measures, in one run:
 *
 * - encode throughput of the pgvector store (`embedding_f32 vector`) against a store with packed
 *   vectors (`bytea`: a second PGlite instance prepared with the plain dialect), the same
 *   records, batches alternating between the two;
 * - search p50/p95 of `RETRIEVE WHERE search "…" [ALPHA 1] LIMIT 10` — vectors alone and fused
 *   with BM25, unfiltered and with a tag filter — ranked in SQL by pgvector against the
 *   engine-side scan of packed vectors on the other store (same records, same ids), queries
 *   alternating, and how often the two return the same top-10 ids;
 * - an HNSW index (`vector_cosine_ops`, m = 16, ef_construction = 64) built on a copy of the
 *   vectors: build time, p50/p95 of the bare nearest-10 query and its recall@10 against the
 *   exact scan (ef_search 40 and 100). The store itself keeps no HNSW index (see the spec).
 *
 * Run: nice npx tsx perf/retrieval-pg.ts [--sizes 1000,10000] [--queries 100]
 */
import { postgres } from '../src/dialect/postgres/dialect.js';
import { runAsync } from '../src/engine/index.js';
import type { AsyncSqlDriver } from '../src/store/driver.js';
import { Store } from '../src/store/store.js';
import { NgramEmbedder } from '../src/text/text.js';
import { PgliteDriver } from '../src/dialect/postgres/pglite-driver.js';
import { preparePostgresStore } from '../src/dialect/postgres/open.js';
import { openOnDriver } from '../src/dialect/postgres/store.js';
import { NOW, rng, TAGS, searchCorpus } from './workload.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SIZES = (arg('--sizes') ?? '1000,10000').split(',').map(Number);
const QUERIES = Number(arg('--queries') ?? 100);
const WARMUP = 10;

const { encodeIr, queryOf } = searchCorpus(false);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const f1 = (x: number) => x.toFixed(1);

async function runOrDie(store: Store<AsyncSqlDriver>, irs: unknown[]) {
  const r = await runAsync(store, irs, { now: NOW });
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
  return r;
}

const opened = await openOnDriver(await PgliteDriver.open());
if (!opened.ok) throw new Error(opened.diagnostics[0].message);
const store = opened.store;
if (!store.dialect.vectors) throw new Error('PGlite without pgvector?');
const plainDriver = await PgliteDriver.open();
if ((await preparePostgresStore(plainDriver, { dialect: postgres })).length) throw new Error('prepare');
const plain = new Store(plainDriver, { dialect: postgres }) as Store<AsyncSqlDriver>;
const scan = plain;

console.log(`vectors on PGlite (pgvector ${String((await store.driver.all(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`))[0]?.extversion)}), ${QUERIES} queries per case after ${WARMUP} warm-ups, LIMIT 10`);
let have = 0;
let encodeA = 0, encodeB = 0;
const r = rng(7);
for (const size of SIZES) {
  const start = have;
  while (have < size) {
    const batch = Array.from({ length: Math.min(1000, size - have) }, (_, k) => encodeIr(have + k, r));
    let t = performance.now();
    await runOrDie(store, batch);
    encodeA += performance.now() - t;
    t = performance.now();
    await runOrDie(plain, batch);
    encodeB += performance.now() - t;
    have += batch.length;
  }
  const n = have - start;
  console.log(`\n${size} memories: encode ${f1((n / encodeA) * 1000)} rec/s with vector columns, ${f1((n / encodeB) * 1000)} with packed vectors (×${(encodeB / encodeA).toFixed(2)})`);
  encodeA = encodeB = 0;

  console.log(`${'case'.padEnd(28)} ${'pgvector p50/p95 ms'.padStart(20)} ${'engine scan p50/p95 ms'.padStart(23)} ${'same top-10'.padStart(12)}`);
  for (const [name, alpha, tag] of [['vectors alone', 1, false], ['vectors alone, tag filter', 1, true], ['fused (default alpha)', undefined, false], ['fused, tag filter', undefined, true]] as const) {
    const qr = rng(size + 1);
    const a: number[] = [], b: number[] = [];
    let same = 0;
    for (let i = 0; i < WARMUP + QUERIES; i++) {
      const query = queryOf(qr);
      const ir = [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query }, ...(alpha !== undefined ? { overrides: { alpha } } : {}), limit: 10 }, ...(tag ? { filter: { has_tags: [TAGS[i % 10]] } } : {}) }, args: {} }];
      let t = performance.now();
      const ra = await runOrDie(store, ir);
      const ta = performance.now() - t;
      t = performance.now();
      const rb = await runOrDie(scan, ir);
      const tb = performance.now() - t;
      if (i < WARMUP) continue;
      a.push(ta);
      b.push(tb);
      const ia = ra.results[0].ids, ib = rb.results[0].ids;
      if (ia.length === ib.length && ia.every((id) => ib.includes(id))) same++;
    }
    console.log(`${name.padEnd(28)} ${`${f1(pct(a, 0.5))} / ${f1(pct(a, 0.95))}`.padStart(20)} ${`${f1(pct(b, 0.5))} / ${f1(pct(b, 0.95))}`.padStart(23)} ${`${same}/${QUERIES}`.padStart(12)}`);
  }

  // HNSW on a copy of the vectors (the store keeps none): recall@10 against the exact scan.
  const dims = new NgramEmbedder().dimensions;
  await store.driver.exec(`DROP TABLE IF EXISTS bench_hnsw; CREATE TABLE bench_hnsw AS SELECT id AS memory_id, embedding_f32::vector(${dims}) AS embedding FROM memory WHERE embedding_f32 IS NOT NULL`);
  let t = performance.now();
  await store.driver.exec(`CREATE INDEX bench_hnsw_idx ON bench_hnsw USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)`);
  const build = performance.now() - t;
  const embedder = new NgramEmbedder();
  const qr = rng(size + 2);
  const queries = Array.from({ length: QUERIES }, () => `[${Array.from(embedder.embed(queryOf(qr))).join(',')}]`);
  const nearest = `SELECT memory_id FROM bench_hnsw ORDER BY embedding <=> $1::vector LIMIT 10`;
  const exact: number[][] = [];
  const te: number[] = [];
  await store.driver.exec('SET enable_indexscan = off');
  for (const q of queries) {
    t = performance.now();
    exact.push((await store.driver.all(nearest, [q])).map((x) => Number(x.memory_id)));
    te.push(performance.now() - t);
  }
  await store.driver.exec('SET enable_indexscan = on');
  const line = [`HNSW build ${f1(build / 1000)} s; bare nearest-10: exact scan p50/p95 ${f1(pct(te, 0.5))} / ${f1(pct(te, 0.95))} ms`];
  for (const ef of [40, 100]) {
    await store.driver.exec(`SET hnsw.ef_search = ${ef}`);
    const th: number[] = [];
    let hit = 0, total = 0;
    for (const [k, q] of queries.entries()) {
      t = performance.now();
      const got = (await store.driver.all(nearest, [q])).map((x) => Number(x.memory_id));
      th.push(performance.now() - t);
      hit += got.filter((id) => exact[k].includes(id)).length;
      total += exact[k].length;
    }
    line.push(`HNSW ef_search ${ef}: p50/p95 ${f1(pct(th, 0.5))} / ${f1(pct(th, 0.95))} ms, recall@10 ${f1((100 * hit) / Math.max(1, total))}%`);
  }
  await store.driver.exec('DROP TABLE bench_hnsw');
  console.log(line.join('\n'));
}
await store.close();
await plain.close();
