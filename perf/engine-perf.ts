/**
 * Engine throughput at 1k, 10k and 100k memories, printed as a table (figures, not asserts):
 *   - encode: records/s through the whole pipeline (validate → lower → compile → execute, with
 *     embedding and audit log), in scripts of 1,000 Encodes;
 *   - filtered retrieve: Retrieve statements/s with a tag + time-range filter and a limit;
 *   - filtered update: Update statements/s with a tag + one-month filter (about N/600 records each);
 * and, for each, the ratio of the pipeline's time to executing the very SQL it issued (taken from
 * the statement results) directly on sql.js with prepared statements, on an identical database.
 *
 * Run: npm run perf:engine [-- --sizes 1000,10000]
 */
import type { Database, SqlValue } from 'sql.js';
import type { SqlJsDriver } from '../src/sqlite/sqljs-driver.js';
import { createStore, loadSqlJs, run, type SqlStatement, type Store } from '../src/engine/index.js';

const argIndex = process.argv.indexOf('--sizes');
const SIZES = argIndex > 0 ? process.argv[argIndex + 1].split(',').map(Number) : [1_000, 10_000, 100_000];
const NOW = '2026-01-01T00:00:00Z';
const TAGS = Array.from({ length: 100 }, (_, i) => `tag${i}`);
const WORDS = 'budget meeting launch review payment vendor hiring roadmap incident report customer design api security deadline quarter team plan risk metric'.split(' ');

/** Deterministic PRNG (mulberry32) so every run measures the same data. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function encodeIr(i: number, rand: () => number) {
  const words = Array.from({ length: 12 }, () => WORDS[Math.floor(rand() * WORDS.length)]);
  const day = Math.floor(rand() * 365);
  const time = new Date(Date.UTC(2025, 0, 1) + day * 86_400_000 + (i % 86_400) * 1000).toISOString().slice(0, 19) + 'Z';
  return {
    stage: 'ENC', op: 'Encode',
    args: { payload: { text: `${words.join(' ')}.` }, type: 'note', tags: [TAGS[Math.floor(rand() * 100)], TAGS[Math.floor(rand() * 100)]], time },
  };
}

/** A tag + `months`-month window filter: about N × 2% × months/12 matches. */
function filter(k: number, months = 3) {
  const month = (k % 9) + 1;
  return {
    has_tags: [TAGS[k % 100]],
    time_range: { start: `2025-${String(month).padStart(2, '0')}-01T00:00:00Z`, end: `2025-${String(month + months).padStart(2, '0')}-01T00:00:00Z` },
  };
}

function seconds(f: () => void): number {
  const t = performance.now();
  f();
  return (performance.now() - t) / 1000;
}

type Prepared = Map<string, ReturnType<Database['prepare']>>;

/** Runs statements directly on a database with prepared statements (cached like the engine's), reading every row. */
function direct(db: Database, statements: readonly SqlStatement[], cache: Prepared = new Map()): number {
  return seconds(() => {
    for (const s of statements) {
      let st = cache.get(s.sql);
      if (!st) cache.set(s.sql, (st = db.prepare(s.sql)));
      st.bind(s.params as SqlValue[]);
      while (st.step()) st.get();
      st.reset();
    }
  });
}

function free(cache: Prepared): void {
  for (const st of cache.values()) st.free();
}

function runOrDie(store: Store, irs: unknown[]) {
  const r = run(store, irs, { now: NOW });
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
  return r;
}

interface Row {
  size: number;
  encodePerSec: number;
  encodeRatio: number;
  retrievePerSec: number;
  retrieveRows: number;
  retrieveRatio: number;
  updatePerSec: number;
  updateRows: number;
  updateRatio: number;
}

/**
 * Pipeline and direct replay are interleaved batch by batch (each batch's SQL is replayed right
 * after the pipeline ran it), so load from other processes hits both sides alike.
 */
async function measure(size: number): Promise<Row> {
  const SQL = await loadSqlJs();
  const store = await createStore({ sqlJs: SQL });
  const rand = rng(size);
  const replay = new SQL.Database(store.export());
  const cache: Prepared = new Map();
  const transaction = (statements: readonly SqlStatement[]) =>
    seconds(() => replay.run('BEGIN')) + direct(replay, statements, cache) + seconds(() => replay.run('COMMIT'));

  // Encode: the pipeline in scripts of 1,000 statements; the replay in one transaction per script.
  let encodeTime = 0;
  let encodeDirect = 0;
  for (let done = 0; done < size; done += 1000) {
    const batch = Array.from({ length: Math.min(1000, size - done) }, (_, j) => encodeIr(done + j, rand));
    let sql: SqlStatement[] = [];
    encodeTime += seconds(() => {
      sql = runOrDie(store, batch).results.flatMap((r) => r.sql);
    });
    encodeDirect += transaction(sql);
  }

  // Filtered retrieve (read-only: replayed on the same database).
  const QUERIES = size >= 100_000 ? 100 : 300;
  let retrieveTime = 0;
  let retrieveDirect = 0;
  let retrieveRows = 0;
  for (let k = 0; k < QUERIES; k++) {
    let sql: readonly SqlStatement[] = [];
    retrieveTime += seconds(() => {
      const r = runOrDie(store, [{ stage: 'RET', op: 'Retrieve', target: { filter: { ...filter(k), limit: 10 } }, args: { include: ['id', 'text', 'tags', 'time'] } }]);
      retrieveRows += r.results[0].ids.length;
      sql = r.results[0].sql;
    });
    retrieveDirect += direct((store.driver as SqlJsDriver).db, sql, cache);
  }

  // Filtered update: one statement per script; the replay database is in the same state.
  const UPDATES = size >= 100_000 ? 100 : 300;
  let updateTime = 0;
  let updateDirect = 0;
  let updateRows = 0;
  for (let k = 0; k < UPDATES; k++) {
    let sql: readonly SqlStatement[] = [];
    updateTime += seconds(() => {
      const r = runOrDie(store, [{ stage: 'STO', op: 'Update', target: { filter: filter(k + 7, 1) }, args: { set: { type: 'reviewed', weight: 0.8 } } }]);
      updateRows += r.results[0].ids.length;
      sql = r.results[0].sql;
    });
    updateDirect += transaction(sql);
  }
  free(cache);
  replay.close();
  store.close();
  return {
    size,
    encodePerSec: size / encodeTime,
    encodeRatio: encodeTime / encodeDirect,
    retrievePerSec: QUERIES / retrieveTime,
    retrieveRows: retrieveRows / QUERIES,
    retrieveRatio: retrieveTime / retrieveDirect,
    updatePerSec: UPDATES / updateTime,
    updateRows: updateRows / UPDATES,
    updateRatio: updateTime / updateDirect,
  };
}

const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
// Warm-up (JIT, wasm) so the first size is not charged for it.
await measure(500);
const rows: Row[] = [];
for (const size of SIZES) {
  process.stderr.write(`measuring ${fmt(size)} memories…\n`);
  rows.push(await measure(size));
}
const header = ['memories', 'encode rec/s', 'x SQL', 'retrieve q/s', 'rows/q', 'x SQL', 'update stmt/s', 'rows/stmt', 'x SQL'];
const table = rows.map((r) => [
  fmt(r.size), fmt(r.encodePerSec), fmt(r.encodeRatio, 2), fmt(r.retrievePerSec, 1), fmt(r.retrieveRows, 1), fmt(r.retrieveRatio, 2),
  fmt(r.updatePerSec, 1), fmt(r.updateRows, 1), fmt(r.updateRatio, 2),
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of table) console.log(line(r));
console.log('\n"x SQL" = pipeline time / time to run the same compiled SQL directly on sql.js (prepared statements, same data).');
