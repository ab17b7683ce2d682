/**
 * The engine benchmark (perf/engine-perf.ts) on PostgreSQL: PGlite or a server. Same workload and
 * table: encode throughput (scripts of 1,000 Encodes), filtered retrieve (tag + 3-month window,
 * limit 10; p50/p95 per query), filtered update (tag + one month). Each is also given as the ratio
 * of the pipeline's time to running the very SQL it issued (taken from the statement results)
 * directly on the same driver, against an identical copy of the data in a second schema.
 *
 * Run: npx tsx perf/engine-perf-pg.ts --db pglite: [--sizes 1000,10000]
 *      npx tsx perf/engine-perf-pg.ts --db postgres://user@127.0.0.1:5432/db --sizes 1000,10000,100000
 */
import { runAsync, type SqlStatement } from '../src/engine/index.js';
import type { AsyncSqlDriver } from '../src/store/driver.js';
import { Store } from '../src/store/store.js';
import { parseStoreUrl, isDiagnostic, describeStoreUrl } from '../src/store/url.js';
import { postgresDialectOf, preparePostgresStore } from '../src/dialect/postgres/open.js';
import { connectPostgres } from '../src/dialect/postgres/store.js';
import { NOW, encodeIr, filter, rng } from './workload.js';
import { rowStatements } from './row-sql.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SIZES = (arg('--sizes') ?? '1000,10000,100000').split(',').map(Number);
const DB = arg('--db') ?? 'pglite:';

async function seconds(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return (performance.now() - t) / 1000;
}

async function connect(schema: string): Promise<AsyncSqlDriver> {
  const url = parseStoreUrl(DB);
  if (isDiagnostic(url) || (url.kind !== 'pglite' && url.kind !== 'postgres')) throw new Error(`--db must be pglite:… or postgres://…, got ${DB}`);
  const d = await connectPostgres({ ...url, schema });
  if ('code' in d) throw new Error(d.message);
  return d;
}

async function fresh(driver: AsyncSqlDriver, schema: string): Promise<Store<AsyncSqlDriver>> {
  await driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}; SET search_path TO ${schema}, public`);
  const dialect = await postgresDialectOf(driver);
  const problems = await preparePostgresStore(driver, { dialect });
  if (problems.length) throw new Error(problems[0].message);
  return new Store(driver, { dialect }) as Store<AsyncSqlDriver>;
}

async function direct(driver: AsyncSqlDriver, statements: readonly SqlStatement[]): Promise<number> {
  return seconds(async () => {
    for (const s of statements) await driver.all(s.sql, s.params);
  });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function runOrDie(store: Store<AsyncSqlDriver>, irs: unknown[]) {
  const r = await runAsync(store, irs, { now: NOW });
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
  return r;
}

/** PGlite is one connection: the pipeline and the replay share it, in two schemas. A server gets two connections. */
async function measure(size: number) {
  const main = await connect('public');
  const replayDriver = DB.startsWith('pglite') ? main : await connect('public');
  const store = await fresh(main, 't2m_perf_a');
  const inA = () => main.exec('SET search_path TO t2m_perf_a, public');
  const replaySchema = 't2m_perf_b';
  await fresh(replayDriver, replaySchema);
  // The encode's records and audit entries one row at a time (perf/row-sql.ts), in a third schema.
  const rowSchema = 't2m_perf_c';
  await fresh(replayDriver, rowSchema);
  const inB = () => replayDriver.exec(`SET search_path TO ${replaySchema}, public`);
  await inA();
  const transaction = async (statements: readonly SqlStatement[], schema = replaySchema) => {
    await replayDriver.exec(`SET search_path TO ${schema}, public`);
    const t = await seconds(async () => {
      await replayDriver.begin();
      await direct(replayDriver, statements);
      await replayDriver.commit();
    });
    await inA();
    return t;
  };
  const rand = rng(size);
  let encodeTime = 0, encodeDirect = 0, encodeRows = 0;
  for (let done = 0; done < size; done += 1000) {
    const batch = Array.from({ length: Math.min(1000, size - done) }, (_, j) => encodeIr(done + j, rand));
    let sql: SqlStatement[] = [];
    encodeTime += await seconds(async () => {
      sql = (await runOrDie(store, batch)).results.flatMap((r) => r.sql);
    });
    encodeDirect += await transaction(sql);
    encodeRows += await transaction(rowStatements(sql), rowSchema);
  }
  await main.exec('ANALYZE');
  if (replayDriver !== main) await replayDriver.exec('ANALYZE');
  const QUERIES = size >= 100_000 ? 100 : 300;
  const times: number[] = [];
  let retrieveTime = 0, retrieveDirect = 0, retrieveRows = 0;
  for (let k = 0; k < QUERIES; k++) {
    let sql: readonly SqlStatement[] = [];
    const t = await seconds(async () => {
      const r = await runOrDie(store, [{ stage: 'RET', op: 'Retrieve', target: { filter: { ...filter(k), limit: 10 } }, args: { include: ['id', 'text', 'tags', 'time'] } }]);
      retrieveRows += r.results[0].ids.length;
      sql = r.results[0].sql;
    });
    times.push(t);
    retrieveTime += t;
    await inB();
    retrieveDirect += await direct(replayDriver, sql);
    await inA();
  }
  const UPDATES = size >= 100_000 ? 100 : 300;
  let updateTime = 0, updateDirect = 0, updateRows = 0;
  for (let k = 0; k < UPDATES; k++) {
    let sql: readonly SqlStatement[] = [];
    updateTime += await seconds(async () => {
      const r = await runOrDie(store, [{ stage: 'STO', op: 'Update', target: { filter: filter(k + 7, 1) }, args: { set: { type: 'reviewed', weight: 0.8 } } }]);
      updateRows += r.results[0].ids.length;
      sql = r.results[0].sql;
    });
    updateDirect += await transaction(sql);
  }
  await main.exec('SET search_path TO public; DROP SCHEMA t2m_perf_a CASCADE');
  await replayDriver.exec(`SET search_path TO public; DROP SCHEMA IF EXISTS ${replaySchema} CASCADE; DROP SCHEMA IF EXISTS ${rowSchema} CASCADE`);
  await main.close();
  if (replayDriver !== main) await replayDriver.close();
  return {
    size,
    encodePerSec: size / encodeTime, encodeRatio: encodeTime / encodeDirect, encodeRowRatio: encodeTime / encodeRows,
    retrieveP50: pct(times, 50) * 1000, retrieveP95: pct(times, 95) * 1000, retrieveRows: retrieveRows / QUERIES, retrieveRatio: retrieveTime / retrieveDirect,
    updatePerSec: UPDATES / updateTime, updateRows: updateRows / UPDATES, updateRatio: updateTime / updateDirect,
  };
}

const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const parsed = parseStoreUrl(DB);
process.stderr.write(`engine benchmark on ${isDiagnostic(parsed) ? DB : describeStoreUrl(parsed)}\n`);
await measure(500); // warm-up
const header = ['memories', 'encode rec/s', 'x SQL', 'x row SQL', 'retrieve p50 ms', 'p95 ms', 'rows/q', 'x SQL', 'update stmt/s', 'rows/stmt', 'x SQL'];
const table: string[][] = [];
for (const size of SIZES) {
  process.stderr.write(`measuring ${fmt(size)} memories…\n`);
  const r = await measure(size);
  process.stderr.write(`  ${fmt(size)}: encode ${fmt(r.encodePerSec)} rec/s (x${fmt(r.encodeRatio, 2)}), retrieve p50 ${fmt(r.retrieveP50, 2)} ms p95 ${fmt(r.retrieveP95, 2)} ms (x${fmt(r.retrieveRatio, 2)}), update ${fmt(r.updatePerSec, 1)}/s (x${fmt(r.updateRatio, 2)})\n`);
  table.push([fmt(r.size), fmt(r.encodePerSec), fmt(r.encodeRatio, 2), fmt(r.encodeRowRatio, 2), fmt(r.retrieveP50, 2), fmt(r.retrieveP95, 2), fmt(r.retrieveRows, 1), fmt(r.retrieveRatio, 2), fmt(r.updatePerSec, 1), fmt(r.updateRows, 1), fmt(r.updateRatio, 2)]);
}
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of table) console.log(line(r));
console.log(`\n"x row SQL" = encode's pipeline time / time to write the same records and audit entries one row at a time (each multi-row INSERT of a run of Encodes split into the one-row INSERTs of the same values, perf/row-sql.ts), in a third schema.`);
console.log(`"x SQL" = pipeline time / time to run the same compiled SQL directly on the same driver (same data, ${DB.startsWith('pglite') ? 'another schema of the same PGlite' : 'another schema, another connection'}).`);
