/**
 * `t2m bench --plan`: the benchmark's planning evaluation (spec/planning.md#metrics). For each
 * sample: a fresh store with its prerequisites, the planner on its request, the checked plan run
 * as one transaction, then its assertions and ranking check; SMA (Levenshtein and cosine), ESR
 * and EMR overall and per operation. With `answers`, the replies were written elsewhere (a batch
 * run, a notebook, a person): each is scored as a live model's first reply, with no repair round.
 */
import type { SqlJsStatic } from 'sql.js';
import { evaluateAssertion, evaluateRanking, sampleOp, type Sample, type Tally } from '../conformance/index.js';
import type { Code } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { run, type Store } from '../engine/index.js';
import { loadSqlJs, openStore } from '../dialect/sqlite/store.js';
import { canonicalJson, cosineSimilarity, levenshteinSimilarity } from './metrics.js';
import { completionBody } from './openai.js';
import { plan, planRequest, type PlanMode, type PlanOptions } from './planner.js';
import type { ChatProvider } from './provider.js';

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
  /** Samples whose assertions look for wording their request and store do not state (`unstatedWording`). */
  unstated: number;
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
  /** What the sample's assertions look for that neither its request nor its store states. */
  readonly unstated: readonly string[];
}

export interface PlanBenchReport {
  readonly overall: PlanMetrics;
  readonly by_op: Record<string, PlanMetrics>;
  readonly results: PlanSampleResult[];
}

export interface PlanBenchOptions extends Omit<PlanOptions, 'store' | 'now' | 'execute' | 'impersonate' | 'provider'> {
  /** The model asked for each sample's plan; not used with `answers`. */
  readonly provider?: ChatProvider;
  /**
   * Replies given beforehand, by sample id (`parseAnswers`): each is scored as the model's one
   * reply (no repair round); a sample without one is not executed and its plan is empty.
   */
  readonly answers?: ReadonlyMap<string, string>;
  /** Only these samples (by id, in the file's order), before `only` and `limit`. */
  readonly ids?: readonly string[];
  readonly only?: string;
  /** At most this many samples (after `only`). */
  readonly limit?: number;
  readonly sqlJs?: SqlJsStatic;
  readonly onProgress?: (done: number, total: number) => void;
}

const errorsOf = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === 'error').map((d) => `${d.statement === undefined ? '' : `[${d.statement}] `}${d.code}: ${d.message}`);

/** The samples a run takes: `ids` (in the file's order), then `only`, then `limit`. */
function chooseSamples(samples: readonly PlanSample[], options: Pick<PlanBenchOptions, 'ids' | 'only' | 'limit'>): PlanSample[] {
  let chosen = [...samples];
  if (options.ids) {
    const ids = new Set(options.ids);
    chosen = chosen.filter((s) => ids.has(s.id));
  }
  if (options.only) chosen = chosen.filter((s) => sampleOp(s).toLowerCase() === options.only!.toLowerCase());
  if (options.limit !== undefined) chosen = chosen.slice(0, options.limit);
  return chosen;
}

/** A fresh store at the sample's clock with its prerequisites run: what its planner is shown and its plan runs on. */
async function sampleStore(sample: PlanSample, sqlJs: SqlJsStatic): Promise<{ store: Store; now: string; problems: string[] }> {
  const opened = await openStore({ sqlJs });
  if (!opened.ok) throw new Error('internal: cannot open an empty store');
  const now = sample.expected.meta.eval_time_utc;
  // The benchmark is a trusted sandbox: prerequisites and plans may act as the actors they name.
  const pre = run(opened.store, sample.prerequisites, { now, impersonate: true });
  return { store: opened.store, now, problems: pre.ok ? [] : errorsOf(pre.diagnostics).map((e) => `prerequisites: ${e}`) };
}

export async function runPlanBenchmark(samples: readonly PlanSample[], options: PlanBenchOptions): Promise<PlanBenchReport> {
  const sqlJs = options.sqlJs ?? (await loadSqlJs());
  if (!options.provider && !options.answers) throw new Error('internal: runPlanBenchmark needs a provider or answers');
  const chosen = chooseSamples(samples, options);
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
  const { store, now, problems } = await sampleStore(sample, sqlJs);
  try {
    const { only: _o, limit: _l, sqlJs: _s, onProgress: _p, answers, ids: _i, provider, ...planOptions } = options;
    const answer = answers?.get(sample.id);
    // A given answer goes through the planner as the model's one reply, so that it is scored as
    // a live reply is; the prompt no model reads is left without the store's vocabulary.
    const replay = answer === undefined ? undefined : { ...planOptions, provider: replayProvider(answer), maxRounds: 1, related: 0, vocabulary: false };
    const planned = replay
      ? await plan(request, { ...replay, store, now, execute: true, impersonate: true })
      : !answers && request && provider
        ? await plan(request, { ...planOptions, provider, store, now, execute: true, impersonate: true })
        : undefined;
    if (answers && answer === undefined) problems.push('no answer for this sample');
    else if (!answers && !request) problems.push('the sample has no request text (nl)');
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
      attempts: planned?.attempts ?? 0, dsl: planned?.dsl ?? '', problems, unstated: unstatedWording(sample),
    };
  } finally {
    store.close();
  }
}

export interface PlanRequestsOptions extends Pick<PlanBenchOptions, 'mode' | 'structured' | 'grammar' | 'temperature' | 'related' | 'ids' | 'only' | 'limit' | 'sqlJs' | 'onProgress'> {
  /** The model named in each request body. */
  readonly model: string;
}

/**
 * The requests a live `--plan` run would send first, one per sample, as lines of the OpenAI
 * Batch API's input (`{custom_id, method, url, body}`, `custom_id` the sample id, `body` the
 * chat completion `plan` posts): for a batch run, a notebook or a person, whose replies
 * `--answers` then scores.
 */
export async function planRequests(samples: readonly PlanSample[], options: PlanRequestsOptions): Promise<string[]> {
  const sqlJs = options.sqlJs ?? (await loadSqlJs());
  const chosen = chooseSamples(samples, options);
  const lines: string[] = [];
  for (const [i, sample] of chosen.entries()) {
    const { store, now } = await sampleStore(sample, sqlJs);
    try {
      const { mode, structured, grammar, temperature, related } = options;
      const { messages, complete } = await planRequest(sampleRequest(sample) ?? '', { mode, structured, grammar, temperature, related, store, now, impersonate: true });
      lines.push(JSON.stringify({ custom_id: sample.id, method: 'POST', url: '/v1/chat/completions', body: completionBody(options.model, messages, complete) }));
    } finally {
      store.close();
    }
    options.onProgress?.(i + 1, chosen.length);
  }
  return lines;
}

/**
 * The wording a sample's assertions look for (the pieces of their `LIKE '%…%'` parameters, `_`
 * matching any character as in SQL, and the values they compare with `=`, ids aside) that neither
 * its request, its store nor its clock states anywhere: a plan meets such an assertion only by
 * guessing the gold plan's own words or times.
 */
export function unstatedWording(sample: PlanSample): string[] {
  const given: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') given.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(sample.nl);
  collect(sample.prerequisites);
  collect(sample.expected.meta.eval_time_utc);
  const text = given.join('\n');
  const out: string[] = [];
  for (const a of sample.expected.assertions) {
    const params: Record<string, unknown> = { ...a.select.params, ...a.params };
    const compared = new Set(a.select.where.flatMap((w) => [...w.matchAll(/(\bid\s*)?(?<![<>!=])=\s*:(\w+)/gi)].filter((m) => !m[1]).map((m) => m[2])));
    for (const [name, v] of Object.entries(params)) {
      if (typeof v !== 'string') continue;
      const pieces = v.includes('%') ? v.split('%') : compared.has(name) ? [v] : [];
      for (const piece of pieces) {
        if (!piece.trim() || out.includes(piece)) continue;
        const like = new RegExp(piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/_/g, '.'), 'i');
        if (!like.test(text)) out.push(piece);
      }
    }
  }
  return out;
}

/** A provider whose one reply is the given text. */
function replayProvider(text: string): ChatProvider {
  return { complete: async () => ({ ok: true, text }) };
}

/** A bad line of an answers file. */
export interface AnswerProblem {
  /** 1-based line number. */
  readonly line: number;
  readonly code: Code;
  readonly message: string;
}

/** A request of a batch run that got no reply: its sample is scored as not executed. */
export interface FailedRequest {
  readonly line: number;
  readonly id: string;
  readonly why: string;
}

/**
 * Reads an answers file: JSONL, each line `{"id": "<sample id>", "answer": "<reply text>"}`, or a
 * line of the OpenAI Batch API's output (`{custom_id, response: {status_code, body}, error}`,
 * whose reply is `body.choices[0].message.content`; a request that failed is listed in `failed`
 * and its sample scored as not executed). In IR mode the answer may also be the JSON value itself
 * (`{"schema_list": [...]}`), kept as its text. With `known`, an id that names no sample is a
 * problem; so is an id given twice.
 */
export function parseAnswers(text: string, options: { readonly mode?: PlanMode; readonly known?: ReadonlySet<string> } = {}): { answers: Map<string, string>; problems: AnswerProblem[]; failed: FailedRequest[]; lines: Map<string, number> } {
  const answers = new Map<string, string>();
  const firstLine = new Map<string, number>();
  const problems: AnswerProblem[] = [];
  const failed: FailedRequest[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    const bad = (message: string, code: Code = 'invalid-answer') => problems.push({ line, code, message });
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      return bad(`not JSON: ${(e as Error).message}`, 'json-syntax');
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return bad('not an object {"id": "<sample id>", "answer": "<reply>"}');
    const batch = 'custom_id' in value ? batchOutput(value as BatchOutputLine) : undefined;
    const { id, answer } = batch ?? (value as { id?: unknown; answer?: unknown });
    if (typeof id !== 'string' || !id) return bad(batch ? '"custom_id" must be the sample\'s id, a non-empty string' : '"id" must be the sample\'s id, a non-empty string');
    if (options.known && !options.known.has(id)) return bad(`${id} names no sample of the benchmark file`);
    if (batch?.why !== undefined) {
      failed.push({ line, id, why: batch.why });
      return;
    }
    let reply: string;
    if (typeof answer === 'string') reply = answer;
    else if (options.mode === 'ir' && answer !== null && typeof answer === 'object') reply = JSON.stringify(answer);
    else return bad(answer === undefined ? `no "answer" for ${id}` : `"answer" of ${id} must be the reply as text${options.mode === 'ir' ? ' or a JSON object {"schema_list": [...]}' : ''}`);
    const first = firstLine.get(id);
    if (first !== undefined) return bad(`a second answer for ${id} (the first is on line ${first})`);
    firstLine.set(id, line);
    answers.set(id, reply);
  });
  return { answers, problems, failed, lines: firstLine };
}

interface BatchOutputLine {
  readonly custom_id?: unknown;
  readonly response?: { readonly status_code?: unknown; readonly body?: { readonly choices?: ReadonlyArray<{ readonly message?: { readonly content?: unknown } }> } } | null;
  readonly error?: { readonly message?: unknown } | null;
}

/** A Batch API output line as an answer, or why its request got none. */
function batchOutput(line: BatchOutputLine): { id: unknown; answer?: string; why?: string } {
  const id = line.custom_id;
  if (line.error) return { id, why: `the request failed: ${typeof line.error.message === 'string' ? line.error.message : JSON.stringify(line.error)}` };
  const status = line.response?.status_code;
  if (status !== 200) return { id, why: `the request failed with status ${String(status)}` };
  const content = line.response?.body?.choices?.[0]?.message?.content;
  return typeof content === 'string' ? { id, answer: content } : { id, why: 'the response has no choices[0].message.content' };
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
    unstated: rs.filter((r) => r.unstated.length).length,
  };
}

const f4 = (x: number) => x.toFixed(4);

/** The human-readable report. */
export function formatPlanReport(r: PlanBenchReport): string {
  const row = (name: string, m: PlanMetrics) =>
    `${name.padEnd(11)}${String(m.samples).padStart(7)}  ${f4(m.sma_lev)}  ${f4(m.sma_cos)}  ${f4(m.sma)}  ${f4(m.esr)}  ${m.assertions.total ? f4(m.emr) : '—'.padStart(6)}  ${`${m.passed}/${m.samples}`.padStart(9)}  ${m.attempts.toFixed(2)}`;
  const lines = ['op         samples  SMA_lev SMA_cos SMA     ESR     EMR       passed  answers'];
  for (const [op, m] of Object.entries(r.by_op)) lines.push(row(op, m));
  lines.push(row('overall', r.overall));
  lines.push('', `assertions ${r.overall.assertions.passed}/${r.overall.assertions.total}, ranking ${r.overall.ranking.passed}/${r.overall.ranking.total}`);
  const u = r.overall.unstated;
  if (u) lines.push(`unstated wording: ${u} sample${u === 1 ? '' : 's'} assert${u === 1 ? 's' : ''} words that neither the request nor the store states (met only by guessing the gold's wording)`);
  const failed = r.results.filter((x) => x.problems.length);
  if (failed.length) {
    lines.push('', `samples with problems (${failed.length}):`);
    for (const x of failed) lines.push(`  ${x.sample} [${x.op}] ${x.problems.join('; ')}${x.unstated.length ? ` (unstated: ${x.unstated.map((w) => JSON.stringify(w)).join(', ')})` : ''}`);
  }
  return lines.join('\n');
}
