/**
 * The Text2Mem benchmark's conformance runner (`t2m bench`; the performance benchmarks are in
 * `perf/`): for each sample, a store as fresh as a new one at the sample's clock, its
 * prerequisites then its gold `schema_list`, then the SQL assertions and the ranking check.
 */
import type { SqlJsStatic } from 'sql.js';
import { OPS } from '../ir/schema.js';
import type { AnySqlDriver, SqlRow } from '../store/driver.js';
import { all, type Io } from '../store/io.js';
import { forgetVectorIndex } from '../retrieve/vectors.js';
import type { Store } from '../store/store.js';
import { loadSqlJs, openStore } from '../dialect/sqlite/store.js';
import type { Policy } from '../check/index.js';
import { Session, type StatementOutcome, type StatementResult } from '../engine/index.js';
import { parseInstant } from '../lower/time.js';
import { withoutDoubleQuotedStrings, withUnplannedPatterns } from './legacy-sql.js';
import { sqliteAssertionToPostgres } from './postgres.js';
import { asIntended } from './quirks.js';

export interface Assertion {
  readonly name: string;
  /** `params` may sit here instead of beside `select` (a recurring slip in benchmark data). */
  readonly select: { readonly from: string; readonly where: readonly string[]; readonly params?: Readonly<Record<string, unknown>> };
  readonly expect: { readonly op: string; readonly value: number };
  readonly params?: Readonly<Record<string, unknown>>;
}

export interface Ranking {
  readonly gold_ids: readonly (string | number)[];
  readonly min_hits: number;
  readonly allow_extra: boolean;
  readonly k: number;
}

export interface Sample {
  readonly id: string;
  readonly prerequisites: readonly unknown[];
  readonly schema_list: readonly unknown[];
  readonly expected: {
    readonly assertions: readonly Assertion[];
    readonly ranking: Ranking | null;
    readonly meta: { readonly eval_time_utc: string };
  };
}

export interface Tally {
  total: number;
  passed: number;
}

export interface Failure {
  readonly sample: string;
  readonly op: string;
  readonly kind: 'assertion' | 'ranking' | 'error';
  readonly name: string;
  readonly why: string;
}

export interface BenchReport {
  readonly samples: Tally;
  readonly assertions: Tally;
  readonly ranking: Tally;
  readonly by_op: Record<string, { samples: Tally; assertions: Tally; ranking: Tally }>;
  readonly failures: Failure[];
}

const tally = (): Tally => ({ total: 0, passed: 0 });

/** The operation a sample exercises: from its id (`...-single-label-003`), else its last gold op. */
export function sampleOp(sample: Sample): string {
  const m = /-(encode|update|label|promote|demote|merge|split|lock|expire|delete|retrieve|summarize)-\d+$/i.exec(sample.id);
  if (m) return OPS.find((o) => o.toLowerCase() === m[1].toLowerCase())!;
  const last = sample.schema_list.at(-1) as { op?: string } | undefined;
  return last?.op ?? 'unknown';
}

function compare(written: string, actual: number, expected: number): boolean {
  // A comparator written with spaces (`">= "`) is the comparator.
  switch (written.trim()) {
    case '==': case '=': return actual === expected;
    case '!=': case '<>': return actual !== expected;
    case '>=': return actual >= expected;
    case '<=': return actual <= expected;
    case '>': return actual > expected;
    case '<': return actual < expected;
    default: return false;
  }
}

type SqlValue = string | number | null;

/** One parameter value as SQLite binds it: booleans as 1/0, lists and objects as their JSON. */
function sqlValue(v: unknown): SqlValue {
  if (v === null || typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return JSON.stringify(v) ?? null;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An assertion's SQL and where each named parameter's value comes from: `[name, param, element]` (element -1: the whole value). */
interface AssertionPlan {
  readonly sql: string;
  readonly binds: readonly (readonly [string, string, number])[];
}

/** Plans by the assertion's shape (from, where, parameter names, list lengths): the benchmark repeats a few hundred shapes. */
const plans = new Map<string, AssertionPlan>();
const PLANS_KEPT = 4096;

function assertionPlan(a: Assertion, params: Readonly<Record<string, unknown>>): AssertionPlan {
  let shape = a.select.from;
  for (const w of a.select.where) shape += '\u0000' + w;
  for (const k in params) shape += '\u0001' + k + (Array.isArray(params[k]) ? `[${(params[k] as unknown[]).length}]` : '');
  let plan = plans.get(shape);
  if (plan) return plan;
  const where = a.select.where.length ? a.select.where.map((w) => `(${w})`).join(' AND ') : '1 = 1';
  let sql = `SELECT COUNT(*) AS n FROM ${a.select.from} WHERE ${where}`;
  const binds: [string, string, number][] = [];
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) {
      const inList = new RegExp(`\\bIN\\s*\\(\\s*:${escapeRe(k)}\\s*\\)`, 'gi');
      if (inList.test(sql)) {
        const names = v.map((_, i) => `${k}__${i}`);
        sql = sql.replace(inList, `IN (${names.map((n) => `:${n}`).join(', ')})`);
        names.forEach((n, i) => binds.push([n, k, i]));
      }
    }
    if (new RegExp(`:${escapeRe(k)}\\b`).test(sql)) binds.push([k, k, -1]);
  }
  if (plans.size >= PLANS_KEPT) plans.clear();
  plan = { sql, binds };
  plans.set(shape, plan);
  return plan;
}

/**
 * The SQL and bindings of an assertion. Its parameters are `params`, or `select.params` when the
 * data put them there; a list parameter bound inside `IN (:ids)` means the list, so the
 * placeholder becomes one placeholder per element (`IN (:ids_0, :ids_1)`).
 */
export function assertionSql(a: Assertion): { sql: string; bind: Record<string, SqlValue> } {
  const params = a.params ?? a.select.params ?? {};
  const { sql, binds } = assertionPlan(a, params);
  const bind: Record<string, SqlValue> = {};
  for (const [name, k, i] of binds) bind[name] = sqlValue(i < 0 ? params[k] : (params[k] as unknown[])[i]);
  return { sql, bind };
}

/** Evaluates one assertion as `SELECT COUNT(*) FROM <from> WHERE (w1) AND (w2)...` with its named parameters. */
export function evaluateAssertion(store: Store, a: Assertion): { passed: boolean; actual: number | string } {
  return store.drive(assertionIo(store, a));
}

function counted(a: Assertion, rows: readonly SqlRow[]): { passed: boolean; actual: number } {
  const n = Number(Object.values(rows[0] ?? {})[0]);
  return { passed: compare(String(a.expect.op), n, Number(a.expect.value)), actual: n };
}

/**
 * `evaluateAssertion` on a store of either kind; on PostgreSQL the SQLite SQL goes through the
 * compatibility layer (./postgres.ts, spec/storage.md "Benchmark assertions on PostgreSQL").
 */
export function evaluateAssertionAsync(store: Store<AnySqlDriver>, a: Assertion): Promise<{ passed: boolean; actual: number | string }> {
  return store.driveAsync(assertionIo(store, a));
}

/** Assertion texts as each kind of database runs them, by the data's text (the benchmark repeats a few hundred). */
const texts = new Map<string, string>();

/**
 * The assertion's SQLite text as `to` runs it: PostgreSQL through the compatibility layer
 * (./postgres.ts); better-sqlite3 is built without SQLite's legacy double-quoted strings, which the
 * data relies on; on both SQLite drivers a bound LIKE/GLOB pattern is not planned for (./legacy-sql.ts).
 */
function assertionText(sql: string, to: 'postgres' | 'better-sqlite3' | 'sqlite'): string {
  const key = to + '\u0000' + sql;
  let text = texts.get(key);
  if (text === undefined) {
    text = to === 'postgres' ? sqliteAssertionToPostgres(sql) : withUnplannedPatterns(to === 'better-sqlite3' ? withoutDoubleQuotedStrings(sql) : sql);
    if (texts.size >= PLANS_KEPT) texts.clear();
    texts.set(key, text);
  }
  return text;
}

/** An assertion as a query (src/store/io.ts): an SQL error in it is a failed assertion, not a crash. */
function* assertionIo(store: Store<AnySqlDriver>, a: Assertion): Io<{ passed: boolean; actual: number | string }> {
  const { sql, bind } = assertionSql(a);
  const text = assertionText(sql, store.dialect.name === 'postgres' ? 'postgres' : store.driver.kind === 'better-sqlite3' ? 'better-sqlite3' : 'sqlite');
  try {
    // Benchmark assertions are the benchmark's own SQL, run against the store's database as that database reads it.
    return counted(a, yield* all(text, bind));
  } catch (e) {
    return { passed: false, actual: `SQL error: ${(e as Error).message}` };
  }
}

/**
 * Checks the gold ids against the first `k` retrieved ids: the results of the script's Retrieve
 * statements in order (deduplicated), or of its last Summarize when it has no Retrieve.
 */
export function evaluateRanking(results: readonly StatementResult[], r: Ranking): { passed: boolean; why: string } {
  const retrieves = results.filter((s) => s.op === 'Retrieve');
  const sources = retrieves.length ? retrieves : results.filter((s) => s.op === 'Summarize').slice(-1);
  if (!sources.length) return { passed: false, why: 'no Retrieve statement ran' };
  const top = [...new Set(sources.flatMap((s) => s.ids))].slice(0, r.k).map(String);
  const gold = r.gold_ids.map(String);
  const hits = top.filter((id) => gold.includes(id)).length;
  const extra = top.filter((id) => !gold.includes(id));
  const passed = hits >= r.min_hits && (r.allow_extra || extra.length === 0);
  return { passed, why: `top-${r.k} [${top.join(', ')}], gold [${gold.join(', ')}], ${hits} hit(s), need ${r.min_hits}${r.allow_extra ? '' : ', no extras'}` };
}

/** What the statements of a list did, numbered by their place in it. */
export interface Ran {
  readonly results: StatementResult[];
  readonly errors: string[];
}

/** The `onStatement` hook that adds each statement's result, or the errors that refused it, to `ran`. */
function collector(ran: Ran): (i: number, outcome: StatementOutcome) => void {
  return (i, outcome) => {
    if (outcome.result) ran.results.push(outcome.result);
    else for (const d of outcome.errors) ran.errors.push(`[${i}] ${d.code}: ${d.message}`);
  };
}

/**
 * Where each sample runs: a fresh store from `open`, given back to `release` after the sample
 * (e.g. a schema per sample on PostgreSQL, dropped afterwards). Default: one in-memory sql.js
 * store for the whole run, each sample inside a transaction that is rolled back afterwards, so
 * the next sample finds the store as fresh as a new one (its records, audit log, id counters and
 * indexes all rolled back) and the prepared statements of the last are reused.
 */
export interface BenchBackend {
  open(sample: number): Promise<Store<AnySqlDriver>>;
  release(store: Store<AnySqlDriver>, sample: number): Promise<void>;
}

export interface BenchOptions {
  /** Only samples of this op. */
  readonly only?: string;
  /** The engine's policy for every statement (default `default`); `strict` refuses on any warning, the slips validation reads included. */
  readonly policy?: Policy;
  readonly sqlJs?: SqlJsStatic;
  readonly onProgress?: (done: number, total: number) => void;
  /** Each sample's outcome, as it is known (what every statement returned, each assertion's count, the ranking). */
  readonly onSample?: (outcome: SampleOutcome) => void;
  /** Run the samples on another backend (`t2m bench --db`; see src/conformance/backends.ts). */
  readonly backend?: BenchBackend;
  /**
   * The empty synchronous store the samples share (each in a transaction rolled back after it),
   * e.g. a native in-memory SQLite store on Node (src/dialect/sqlite/native.ts `openMemoryStore`);
   * default a sql.js store. The runner closes it at the end.
   */
  readonly store?: Store;
}

/** One sample's outcome in detail (the report keeps only its tallies and failures). */
export interface SampleOutcome {
  readonly sample: string;
  readonly op: string;
  /** Per statement run (prerequisites, then gold), the ids it reports. */
  readonly ids: readonly (readonly number[])[];
  readonly errors: { readonly prerequisites: readonly string[]; readonly schema_list: readonly string[] };
  readonly assertions: readonly { readonly name: string; readonly passed: boolean; readonly actual: number | string }[];
  readonly ranking?: { readonly passed: boolean; readonly why: string };
}

/** One sample's statements (one at a time), assertions and ranking, as queries on the store it runs on (src/store/io.ts). */
function* sampleIo(store: Store<AnySqlDriver>, sample: Sample, op: string, policy: Policy): Io<SampleOutcome> {
  // The engine checks every script like `t2m check`; the gold IRs pass the default policy
  // (test/check/corpus.test.ts), so the runner names it rather than relaxing it (`--strict`
  // refuses the slips it reads as meant).
  // Gold IRs are trusted scripts replayed with the actors they name: the runner grants
  // impersonation explicitly (a privileged option; spec/security.md).
  // The clock is read once per sample (a text the engine cannot read is passed on for it to
  // refuse), and the sample's id is the trace id of its audit entries (rolled back with them), so
  // no statement parses the clock again or draws a random id.
  const now = sample.expected.meta.eval_time_utc;
  const options = { now: (typeof now === 'string' ? parseInstant(now) : null) ?? now, policy, impersonate: true, traceId: `bench:${sample.id}` } as const;
  // Each statement on its own, as the reference runner executes them: a refused statement is
  // reported and undoes nothing before it (`t2m run` keeps its one-transaction scripts). The
  // prerequisites, then the gold statements, are each one engine call, so a `$n` resolves across
  // statements as in `t2m run`; the hook collects each statement's result or refusal.
  // The data's slips are read as meant (./quirks.ts), but under `--strict`, which refuses them.
  const read = policy === 'strict' ? (ir: unknown) => ir : asIntended;
  const session = new Session(store, options);
  const pre: Ran = { results: [], errors: [] };
  if (sample.prerequisites.length) yield* runApart(session, sample.prerequisites.map(read), pre);
  const gold: Ran = { results: [], errors: [] };
  if (sample.schema_list.length) yield* runApart(session, sample.schema_list.map(read), gold);
  const assertions: { name: string; passed: boolean; actual: number | string }[] = [];
  for (const a of sample.expected.assertions) assertions.push({ name: a.name, ...(yield* assertionIo(store, a)) });
  return {
    sample: sample.id,
    op,
    ids: [...pre.results, ...gold.results].map((r) => r.ids),
    errors: { prerequisites: pre.errors, schema_list: gold.errors },
    assertions,
    ...(sample.expected.ranking ? { ranking: evaluateRanking(gold.results, sample.expected.ranking) } : {}),
  };
}

/** A list of statements, each on its own, into `ran`; a refusal of the whole list (one naming no statement) is reported as statement 0's. */
function* runApart(session: Session, irs: readonly unknown[], ran: Ran): Io<void> {
  const r = yield* session.runIo(irs, { statementwise: true, onStatement: collector(ran) });
  if (r.ok || ran.errors.length) return;
  for (const d of r.diagnostics) if (d.severity === 'error') ran.errors.push(`[${d.statement ?? 0}] ${d.code}: ${d.message}`);
}

export async function runBenchmark(samples: readonly Sample[], options: BenchOptions = {}): Promise<BenchReport> {
  const chosen = options.only ? samples.filter((s) => sampleOp(s).toLowerCase() === options.only!.toLowerCase()) : samples;
  const report: BenchReport = { samples: tally(), assertions: tally(), ranking: tally(), by_op: {}, failures: [] };
  const policy = options.policy ?? 'default';
  let shared: Store | undefined = options.backend ? undefined : options.store;
  if (!options.backend && !shared) {
    const opened = await openStore({ sqlJs: options.sqlJs ?? (await loadSqlJs()) });
    if (!opened.ok) throw new Error('internal: cannot open an empty store');
    shared = opened.store;
  }
  try {
    for (const [i, sample] of chosen.entries()) {
      const op = sampleOp(sample);
      let outcome: SampleOutcome;
      if (shared) {
        const store = shared;
        // The sample's transaction is never committed; the in-memory vector index, which follows
        // the store's writes, is dropped with it.
        // Driven inside the transaction rather than through it: each of the sample's queries
        // passes through one generator fewer.
        outcome = store.transaction(() => ({ commit: false, value: store.drive(sampleIo(store, sample, op, policy)) }));
        forgetVectorIndex(store);
      } else {
        const store = await options.backend!.open(i);
        try {
          outcome = await store.driveAsync(sampleIo(store, sample, op, policy));
        } finally {
          await options.backend!.release(store, i);
        }
      }
      tallySample(report, sample, outcome);
      options.onSample?.(outcome);
      options.onProgress?.(i + 1, chosen.length);
    }
  } finally {
    shared?.close();
  }
  return report;
}

/** Adds one sample's outcome to the report. */
function tallySample(report: BenchReport, sample: Sample, outcome: SampleOutcome): void {
  const op = outcome.op;
  const byOp = (report.by_op[op] ??= { samples: tally(), assertions: tally(), ranking: tally() });
  const fail = (kind: Failure['kind'], name: string, why: string) => report.failures.push({ sample: sample.id, op, kind, name, why });
  let ok = true;
  for (const part of ['prerequisites', 'schema_list'] as const) {
    if (!outcome.errors[part].length) continue;
    ok = false;
    fail('error', part, outcome.errors[part].join('; '));
  }
  for (const [k, a] of sample.expected.assertions.entries()) {
    const r = outcome.assertions[k];
    report.assertions.total++;
    byOp.assertions.total++;
    if (r.passed) {
      report.assertions.passed++;
      byOp.assertions.passed++;
    } else {
      ok = false;
      fail('assertion', a.name, `expected COUNT ${a.expect.op} ${a.expect.value}, got ${r.actual}; WHERE ${a.select.where.join(' AND ')} ${JSON.stringify(a.params ?? {})}`);
    }
  }
  if (outcome.ranking) {
    report.ranking.total++;
    byOp.ranking.total++;
    if (outcome.ranking.passed) {
      report.ranking.passed++;
      byOp.ranking.passed++;
    } else {
      ok = false;
      fail('ranking', 'ranking', outcome.ranking.why);
    }
  }
  report.samples.total++;
  byOp.samples.total++;
  if (ok) {
    report.samples.passed++;
    byOp.samples.passed++;
  }
}

/** Parses benchmark JSONL text; a bad line is reported with its line number. */
export function parseSamples(text: string): { samples: Sample[]; errors: string[] } {
  const samples: Sample[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const s = JSON.parse(line);
      if (!s || typeof s !== 'object' || !Array.isArray(s.schema_list) || !s.expected) throw new Error('not a benchmark sample (needs schema_list and expected)');
      samples.push({ ...s, prerequisites: s.prerequisites ?? [] });
    } catch (e) {
      errors.push(`line ${i + 1}: ${(e as Error).message}`);
    }
  });
  return { samples, errors };
}

const pct = (t: Tally) => (t.total ? ((100 * t.passed) / t.total).toFixed(2) + '%' : '-');

/** The human-readable report. */
export function formatReport(r: BenchReport): string {
  const lines: string[] = [];
  lines.push(`samples     ${r.samples.passed}/${r.samples.total} (${pct(r.samples)})`);
  lines.push(`assertions  ${r.assertions.passed}/${r.assertions.total} (${pct(r.assertions)})`);
  lines.push(`ranking     ${r.ranking.passed}/${r.ranking.total} (${pct(r.ranking)})`);
  lines.push('', 'op          samples        assertions     ranking');
  for (const [op, t] of Object.entries(r.by_op).sort()) {
    const cell = (x: Tally) => `${x.passed}/${x.total}`.padEnd(15);
    lines.push(`${op.padEnd(12)}${cell(t.samples)}${cell(t.assertions)}${x(t.ranking)}`);
  }
  if (r.failures.length) {
    lines.push('', `failures (${r.failures.length}):`);
    for (const f of r.failures) lines.push(`  ${f.sample} [${f.op}] ${f.kind} ${f.name}: ${f.why}`);
  }
  return lines.join('\n');
  function x(t: Tally) {
    return t.total ? `${t.passed}/${t.total}` : '-';
  }
}
