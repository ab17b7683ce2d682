/**
 * `t2m bench --plan`: the benchmark's planning evaluation (spec/planning.md#metrics). For each
 * sample: a fresh store with its prerequisites, the planner on its request, the checked plan run
 * as one transaction, then its assertions and ranking check; SMA (Levenshtein and cosine), ESR
 * and EMR overall and per operation.
 */
import type { SqlJsStatic } from 'sql.js';
import { evaluateAssertion, evaluateRanking, sampleOp, type Sample, type Tally } from '../conformance/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { run } from '../engine/index.js';
import { loadSqlJs, openStore } from '../dialect/sqlite/store.js';
import { canonicalJson, cosineSimilarity, levenshteinSimilarity } from './metrics.js';
import { plan, type PlanOptions } from './planner.js';

export interface PlanSample extends Sample {
  readonly nl?: Readonly<Record<string, unknown>>;
}

/** The sample's request: `nl.en`, else `nl.zh`, else the first text in `nl`. */
export function sampleRequest(sample: PlanSample): string | undefined {
  const nl = sample.nl ?? {};
  for (const v of [nl.en, nl.zh, ...Object.values(nl)]) if (typeof v === 'string' && v.trim()) return v;
  return undefined;
}

export interface PlanMetrics {
  samples: number;
  sma_lev: number;
  sma_cos: number;
  sma: number;
  esr: number;
  emr: number;
  assertions: Tally;
  ranking: Tally;
  /** Samples whose plan ran and met every assertion and the ranking check. */
  passed: number;
  /** Mean answers per sample. */
  attempts: number;
}

export interface PlanSampleResult {
  readonly sample: string;
  readonly op: string;
  readonly request: string;
  readonly sma_lev: number;
  readonly sma_cos: number;
  /** ψ(s): the plan checked and ran. */
  readonly executed: boolean;
  readonly assertions: Tally;
  readonly ranking?: boolean;
  readonly attempts: number;
  readonly dsl: string;
  /** Errors of the attempt (provider, checker, run) and the failed checks. */
  readonly problems: readonly string[];
}

export interface PlanBenchReport {
  readonly overall: PlanMetrics;
  readonly by_op: Record<string, PlanMetrics>;
  readonly results: PlanSampleResult[];
}

export interface PlanBenchOptions extends Omit<PlanOptions, 'store' | 'now' | 'execute' | 'impersonate'> {
  readonly only?: string;
  /** At most this many samples (after `only`). */
  readonly limit?: number;
  readonly sqlJs?: SqlJsStatic;
  readonly onProgress?: (done: number, total: number) => void;
}

const errorsOf = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === 'error').map((d) => `${d.statement === undefined ? '' : `[${d.statement}] `}${d.code}: ${d.message}`);

export async function runPlanBenchmark(samples: readonly PlanSample[], options: PlanBenchOptions): Promise<PlanBenchReport> {
  const sqlJs = options.sqlJs ?? (await loadSqlJs());
  let chosen = options.only ? samples.filter((s) => sampleOp(s).toLowerCase() === options.only!.toLowerCase()) : [...samples];
  if (options.limit !== undefined) chosen = chosen.slice(0, options.limit);
  const results: PlanSampleResult[] = [];
  for (const [i, sample] of chosen.entries()) {
    results.push(await planSample(sample, options, sqlJs));
    options.onProgress?.(i + 1, chosen.length);
  }
  const byOp: Record<string, PlanSampleResult[]> = {};
  for (const r of results) (byOp[r.op] ??= []).push(r);
  return {
    overall: summarise(results),
    by_op: Object.fromEntries(Object.entries(byOp).sort(([a], [b]) => a.localeCompare(b)).map(([op, rs]) => [op, summarise(rs)])),
    results,
  };
}

async function planSample(sample: PlanSample, options: PlanBenchOptions, sqlJs: SqlJsStatic): Promise<PlanSampleResult> {
  const op = sampleOp(sample);
  const request = sampleRequest(sample) ?? '';
  const problems: string[] = [];
  const opened = await openStore({ sqlJs });
  if (!opened.ok) throw new Error('internal: cannot open an empty store');
  const store = opened.store;
  try {
    const now = sample.expected.meta.eval_time_utc;
    // The benchmark is a trusted sandbox: prerequisites and plans may act as the actors they name.
    const pre = run(store, sample.prerequisites, { now, impersonate: true });
    if (!pre.ok) problems.push(...errorsOf(pre.diagnostics).map((e) => `prerequisites: ${e}`));
    const { only: _o, limit: _l, sqlJs: _s, onProgress: _p, ...planOptions } = options;
    const planned = request
      ? await plan(request, { ...planOptions, store, now, execute: true, impersonate: true })
      : undefined;
    if (!request) problems.push('the sample has no request text (nl)');
    const executed = planned?.ok === true && planned.run?.ok === true;
    if (planned && !executed) problems.push(...errorsOf(planned.diagnostics));
    const produced = planned?.irs ?? [];
    const a = canonicalJson(produced);
    const g = canonicalJson(sample.schema_list);
    const assertions: Tally = { total: 0, passed: 0 };
    for (const assertion of sample.expected.assertions) {
      const r = evaluateAssertion(store, assertion);
      assertions.total++;
      if (r.passed) assertions.passed++;
      else problems.push(`assertion ${assertion.name}: expected COUNT ${assertion.expect.op} ${assertion.expect.value}, got ${r.actual}`);
    }
    let ranking: boolean | undefined;
    if (sample.expected.ranking) {
      const r = evaluateRanking(executed ? planned!.run!.results : [], sample.expected.ranking);
      ranking = r.passed;
      if (!r.passed) problems.push(`ranking: ${r.why}`);
    }
    return {
      sample: sample.id, op, request,
      sma_lev: levenshteinSimilarity(a, g), sma_cos: cosineSimilarity(a, g),
      executed, assertions, ...(ranking === undefined ? {} : { ranking }),
      attempts: planned?.attempts ?? 0, dsl: planned?.dsl ?? '', problems,
    };
  } finally {
    store.close();
  }
}

function summarise(rs: readonly PlanSampleResult[]): PlanMetrics {
  const n = rs.length;
  const mean = (f: (r: PlanSampleResult) => number) => (n ? rs.reduce((s, r) => s + f(r), 0) / n : 0);
  const assertions = { total: rs.reduce((s, r) => s + r.assertions.total, 0), passed: rs.reduce((s, r) => s + r.assertions.passed, 0) };
  const ranked = rs.filter((r) => r.ranking !== undefined);
  const sma_lev = mean((r) => r.sma_lev);
  const sma_cos = mean((r) => r.sma_cos);
  return {
    samples: n, sma_lev, sma_cos, sma: (sma_lev + sma_cos) / 2,
    esr: mean((r) => (r.executed ? 1 : 0)),
    emr: assertions.total ? assertions.passed / assertions.total : 0,
    assertions,
    ranking: { total: ranked.length, passed: ranked.filter((r) => r.ranking).length },
    passed: rs.filter((r) => r.executed && r.assertions.passed === r.assertions.total && r.ranking !== false).length,
    attempts: mean((r) => r.attempts),
  };
}

const f4 = (x: number) => x.toFixed(4);

/** The human-readable report. */
export function formatPlanReport(r: PlanBenchReport): string {
  const row = (name: string, m: PlanMetrics) =>
    `${name.padEnd(11)}${String(m.samples).padStart(7)}  ${f4(m.sma_lev)}  ${f4(m.sma_cos)}  ${f4(m.sma)}  ${f4(m.esr)}  ${f4(m.emr)}  ${`${m.passed}/${m.samples}`.padStart(9)}  ${m.attempts.toFixed(2)}`;
  const lines = ['op         samples  SMA_lev SMA_cos SMA     ESR     EMR       passed  answers'];
  for (const [op, m] of Object.entries(r.by_op)) lines.push(row(op, m));
  lines.push(row('overall', r.overall));
  lines.push('', `assertions ${r.overall.assertions.passed}/${r.overall.assertions.total}, ranking ${r.overall.ranking.passed}/${r.overall.ranking.total}`);
  const failed = r.results.filter((x) => x.problems.length);
  if (failed.length) {
    lines.push('', `samples with problems (${failed.length}):`);
    for (const x of failed) lines.push(`  ${x.sample} [${x.op}] ${x.problems.join('; ')}`);
  }
  return lines.join('\n');
}
