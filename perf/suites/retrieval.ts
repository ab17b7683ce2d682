/**
 * Retrieval speed at 1k and 100k memories of a synthetic corpus (a Zipf-distributed vocabulary of
 * 5,000 words, perf/workload.ts), built through the engine in scripts of 1,000 Encodes on sql.js:
 * `RETRIEVE WHERE search "…" LIMIT 10` through the whole pipeline, p50/p95 over 200 queries of
 * 2–4 words taken from stored texts, after 20 warm-ups, plus the first search (it loads the
 * in-memory keyword and vector indexes). Every record also holds the word "review", and 40
 * more queries are two topic words of a stored text plus "review" (a word every record holds: the
 * common-word tail). Targets (issues 10 and 32): for both kinds, p95(100k) ≤ 3 × p95(1k) and ≤ 30 ms.
 * `--db <name>`: the same on another store (`pglite:`, `pglite:?keywords=server`, `postgres://…` in
 * a fresh schema, dropped after), and the JavaScript heap after the searches (what the in-memory
 * indexes hold; PGlite's own memory is outside it).
 */
import { rng, searchCorpus } from '../workload.js';
import { project, quantile, sizes, SIZED, type Figures, type Suite } from './suite.js';

const NOW = '2026-01-01T00:00:00Z';
const QUERIES = 200;
const COMMON_QUERIES = 40;
const COMMON = 'review';
const WARMUP = 20;

const suite: Suite = {
  rounds: 1,
  ...SIZED,
  flags: ['sizes', 'db'],
  async round(root, flags) {
    const t2m = await project(root);
    const { encodeIr, queryOf, commonQueryOf } = searchCorpus(true, COMMON);
    const db = flags.db;
    const open = async (name: string) => {
      const o = await t2m.openStoreUrl(name);
      if (!o.ok) throw new Error(o.diagnostics.map((d) => d.message).join('; '));
      return o.store;
    };
    const schema = 't2m_perf_retrieval';
    const onServer = db !== undefined && /^postgres(ql)?:\/\//i.test(db);
    if (onServer) {
      const admin = await open(db);
      await admin.driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
      await admin.close();
    }
    const store = db === undefined ? await t2m.createStore() : await open(onServer ? `${db}${db.includes('?') ? '&' : '?'}schema=${schema}` : db);
    const figures: Figures = {};
    const all = sizes(flags, [1_000, 100_000]).sort((a, b) => a - b);
    const r = rng(7);
    let have = 0;
    const p95s: number[] = [];
    const commonP95s: number[] = [];
    for (const size of all) {
      const t0 = performance.now();
      const before = have;
      while (have < size) {
        const batch = Array.from({ length: Math.min(1000, size - have) }, (_, k) => encodeIr(have + k, r));
        const res = await t2m.run(store, batch, { now: NOW });
        if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
        have += batch.length;
      }
      const encodeRate = (size - before) / ((performance.now() - t0) / 1000);
      const qr = rng(size);
      const search = async (q: string) => {
        const t = performance.now();
        const res = await t2m.run(store, [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: q }, limit: 10 } }, args: {} }], { now: NOW });
        if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
        return performance.now() - t;
      };
      const first = await search(queryOf(qr));
      for (let i = 0; i < WARMUP; i++) await search(queryOf(qr));
      const times: number[] = [];
      for (let i = 0; i < QUERIES; i++) times.push(await search(queryOf(qr)));
      const commonTimes: number[] = [];
      for (let i = 0; i < WARMUP; i++) await search(commonQueryOf(qr));
      for (let i = 0; i < COMMON_QUERIES; i++) commonTimes.push(await search(commonQueryOf(qr)));
      if (db !== undefined) {
        (globalThis as { gc?: () => void }).gc?.();
        figures[`${size >= 1000 ? `${size / 1000}k` : size} heap MB`] = process.memoryUsage().heapUsed / 2 ** 20;
      }
      const at = size >= 1000 ? `${size / 1000}k` : String(size);
      figures[`${at} encode rec/s`] = encodeRate;
      figures[`${at} first search ms`] = first;
      figures[`${at} search p50 ms`] = quantile(times, 0.5);
      figures[`${at} search p95 ms`] = quantile(times, 0.95);
      figures[`${at} common-word p50 ms`] = quantile(commonTimes, 0.5);
      figures[`${at} common-word p95 ms`] = quantile(commonTimes, 0.95);
      p95s.push(quantile(times, 0.95));
      commonP95s.push(quantile(commonTimes, 0.95));
    }
    if (p95s.length > 1) figures['p95 largest / smallest'] = p95s.at(-1)! / p95s[0];
    if (commonP95s.length > 1) figures['common-word p95 largest / smallest'] = commonP95s.at(-1)! / commonP95s[0];
    if (onServer) await store.driver.exec(`DROP SCHEMA ${schema} CASCADE`);
    await store.close();
    return figures;
  },
  notes: 'Targets (issues 10, 32): p95 at 100k at most 3 x p95 at 1k, and at most 30 ms, for plain and for common-word queries.',
};
export default suite;
