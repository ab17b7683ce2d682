/**
 * The engine API used by the CLI, the benchmark runner and the browser playground:
 * `run` (a script as one transaction), `explain` (the plan, nothing changed),
 * `sweep` (apply due expiry actions) and `undo` (revert a soft delete from the audit log), on a
 * Store (src/store/) that a dialect opened (`createStore` in src/dialect/sqlite/store.ts). No
 * backend and no Node API here.
 *
 * Each entry point comes twice over one code path (the async seam, src/store/io.ts): `run`,
 * `explain`, `sweep`, `undo`, `auditLog` are synchronous, for stores over a synchronous driver
 * (SQLite: sql.js, better-sqlite3); `runAsync`, `explainAsync`, `sweepAsync`, `undoAsync`,
 * `auditLogAsync` return promises and take a store over either kind of driver (PostgreSQL's are
 * asynchronous). The work itself is a generator of queries (`runIo`, `sweepIo`…) that the store
 * answers. A synchronous entry point given an asynchronous store refuses with `store-is-async`.
 */
import {
  compileAuditInsert, compileAuditLastId, compileAuditMarkUndone, compileAuditSelect, compileDeleteById, compileDueExpiries, compileSelectByIds,
  compileUpdateById, compileAuditScrub, compileFactVersions, decodeRow, type SqlStatement,
} from '../compile/index.js';
import { applyPolicy, check, type Policy } from '../check/index.js';
import { diagnostic, type Code } from '../diagnostics/codes.js';
import { type Diagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import { resolveRange, type SourceMap } from '../diagnostics/sourceMap.js';
import type { IR } from '../ir/schema.js';
import { validateIr } from '../ir/validate.js';
import { irConformance } from '../ir/conforms.js';
import { DERIVED_COLUMNS } from '../store/columns.js';
import { searchTextOf } from '../execute/text.js';

/** An image without the columns the engine derives (search tokens, packed vectors): the audit log keeps what was written. */
const withoutDerived = (image: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(image).filter(([k]) => !DERIVED_COLUMNS.has(k) && k !== 'embedding'));
import { LET_BINDS, REF_ARGS, isRef } from '../language/index.js';
import { refsOf } from '../check/rules/ReferenceRule.js';
import { ARCHIVE_WEIGHT, formatUtc, lowerIr, parseInstant, type LowerResult } from '../lower/index.js';
import type { AnySqlDriver } from '../store/driver.js';
import { auditImages, encodeRunnable, executeEncodeRunIo, executeOperationIo, type Change, type StatementResult } from '../execute/execute.js';
import type { EncodeOp } from '../lower/operation.js';
import { all as ioAll, run as ioRun, type Io } from '../store/io.js';
import { effectsOf, lockRefusal, writeRefusal } from '../execute/governance.js';
import { asyncStoreMessage, Store } from '../store/store.js';
import { withoutFeedback, type Selector } from '../execute/experience.js';
import { checkLimits, resolveLimits, tooManyStatements, type Limits } from './limits.js';
import { DEFAULT_TENANT } from '../store/columns.js';

export { DEFAULT_TENANT };

/** A tenant is a name the caller gives; a blank one names nobody's records (`bad-tenant`). */
function tenantProblem(tenant: string): Diagnostic | undefined {
  return tenant.trim() === '' ? diagnostic('bad-tenant', `the tenant '${tenant}' is blank: give the tenant a name (or leave it out for '${DEFAULT_TENANT}')`) : undefined;
}

/**
 * A run's trace id when the caller gives none: random, so two runs never share one: `run-` and a
 * version 4 UUID (RFC 9562), as `crypto.randomUUID` spells it. Its bytes come from
 * `crypto.getRandomValues`, drawn for 64 ids at a time (as Node's own randomUUID keeps a cache):
 * `randomUUID` went through WebCrypto's checks and Node's buffered UUIDs on every run that
 * writes, about a twentieth of a filtered Update's JavaScript after the checker.
 */
function newTraceId(): string {
  if (traceAt === traceBytes.length) {
    globalThis.crypto.getRandomValues(traceBytes);
    traceAt = 0;
  }
  const b = traceBytes;
  const i = traceAt;
  traceAt += 16;
  const h = HEX;
  // The version (4) and the variant (10xx) bits.
  const v = h[(b[i + 6] & 0x0f) | 0x40];
  const r = h[(b[i + 8] & 0x3f) | 0x80];
  return `run-${h[b[i]]}${h[b[i + 1]]}${h[b[i + 2]]}${h[b[i + 3]]}-${h[b[i + 4]]}${h[b[i + 5]]}-${v}${h[b[i + 7]]}-${r}${h[b[i + 9]]}-${h[b[i + 10]]}${h[b[i + 11]]}${h[b[i + 12]]}${h[b[i + 13]]}${h[b[i + 14]]}${h[b[i + 15]]}`;
}
const traceBytes = new Uint8Array(16 * 64);
let traceAt = traceBytes.length;
const HEX: readonly string[] = Array.from({ length: 256 }, (_, x) => x.toString(16).padStart(2, '0'));

export { Store, type StoreParts, type OpenResult } from '../store/store.js';
export type { AnySqlDriver, AsyncSqlDriver, SqlDriver } from '../store/driver.js';
export { isAsyncDriver } from '../store/driver.js';
export type { Io, Query } from '../store/io.js';
export type { StatementResult, Change } from '../execute/execute.js';
export {
  utilitySelector, similaritySelector, utilityScore, feedbackValues, confidence, UTILITY_PRIOR, UTILITY_WEIGHT, UTILITY_CONFIDENCE_HALF,
  type Selector, type SelectorInput, type SelectorChoice, type Candidate, type ExperienceReport, type CandidateReport,
} from '../execute/experience.js';
export { DEFAULT_LIMITS, type Limits } from './limits.js';
export { HashEmbedder, NgramEmbedder, ExtractiveSummarizer, type Embedder, type Summarizer } from '../execute/text.js';
export type { ScoreExplanation } from '../execute/search.js';
export type { SqlStatement } from '../compile/index.js';

export interface RunOptions {
  /**
   * The clock (default: the real time). Privileged: a caller-supplied clock decides which locks
   * and expiries are in force and stamps the audit log, so only a trusted caller may set it.
   */
  readonly now?: Date | string;
  /**
   * The acting actor, as the caller (not the script) establishes it: the trusted identity for
   * locks, permissions, private reads and the audit log. A statement's `meta.actor` must equal it,
   * or the script is refused (`actor-mismatch`); an anonymous caller may not assert an identity.
   */
  readonly actor?: string;
  /**
   * Privileged: let each statement's `meta.actor` act as that actor (it wins over `actor`). For
   * replaying trusted scripts (the benchmark's gold IRs); never for scripts from untrusted authors.
   */
  readonly impersonate?: boolean;
  /** Per-statement source maps, to give diagnostics source ranges. */
  readonly sourceMaps?: readonly (SourceMap | undefined)[];
  /** Roll everything back at the end, whatever `meta.dry_run` says (used by `explain`). */
  readonly dryRun?: boolean;
  /**
   * The policy (default `default`, as `t2m check` and `t2m run`): `strict` refuses on warnings
   * too, the checker's and validation's (the slips it reads as meant: no stage, `filter.tags`, …).
   */
  readonly policy?: Policy;
  /** Resource limits (statements, text length, rows per read); see ./limits.ts for the defaults. */
  readonly limits?: Limits;
  /**
   * The tenant the run acts in (default `default`), as the caller establishes it: every
   * statement reads and writes only this tenant's records; no script syntax can name another.
   */
  readonly tenant?: string;
  /** The run's trace id, stored with every record and audit entry it writes (default: a new random id). */
  readonly traceId?: string;
  /**
   * The second stage of `RETRIEVE … LEVEL` (experience memory): keeps at most PICK of the
   * candidates. Replaces the default (similarity plus learned utility); `SELECTOR similarity`
   * in a statement still means similarity only. See src/execute/experience.ts.
   */
  readonly selector?: Selector;
  /**
   * Execute each run of consecutive plain Encodes together (default true): their records and
   * audit entries written by multi-row INSERTs (spec/semantics.md "Runs of Encodes"). The store ends the
   * same, and so do the results but for `sql`; false executes every statement on its own (tests
   * and measurements compare the two). `explain` (dryRun) never batches.
   */
  readonly batch?: boolean;
}

export interface RunResult {
  /** True when the script committed (or, under dry run, would have). */
  readonly ok: boolean;
  /**
   * One result per statement. When the script fails: the results of the statements before the
   * failing one (what they did or read before everything was rolled back).
   */
  readonly results: readonly StatementResult[];
  /** Errors (the script changed nothing) and warnings. */
  readonly diagnostics: readonly Diagnostic[];
}

/** The last clock text read, its instant and its UTC form: a caller passing the same `now` to run after run has it read once. */
let lastClock: { readonly text: string; readonly ms: number; utc?: string } | undefined;

/** `formatUtc(now)`, taken from `lastClock` when `now` is its instant. */
function clockText(now: Date): string {
  const last = lastClock;
  if (last === undefined || last.ms !== now.getTime()) return formatUtc(now);
  return (last.utc ??= formatUtc(now));
}

function clock(now: Date | string | undefined): Date | Diagnostic {
  if (now === undefined) return new Date();
  if (now instanceof Date) return now;
  // A fresh Date each time: the caller's script may not share one mutable Date with another run.
  if (lastClock?.text === now) return new Date(lastClock.ms);
  const at = parseInstant(now);
  if (!at) return diagnostic('invalid-datetime', `--now '${now}' is not an ISO-8601 date-time`);
  lastClock = { text: now, ms: at.getTime() };
  return at;
}

function locate(d: Diagnostic, index: number, maps: RunOptions['sourceMaps']): Diagnostic {
  const map = maps?.[index];
  const range = d.range ?? resolveRange(map, d.path ?? '');
  return { ...d, statement: index, ...(range ? { range } : {}) };
}

/**
 * Runs a script (a list of IR instructions) as one transaction, through the same chain as the
 * front end: validate → check (the same checker and policy as `t2m check`) → lower against the
 * clock → compile → execute, in order. A validation or checker error refuses the script before
 * anything runs; the first statement that lowering or execution refuses rolls everything back.
 * Either way the result is `ok: false` with error diagnostics naming the statement (and its span
 * when source maps are given); warnings ride along. A statement with `meta.dry_run` reports its
 * plan and would-be ids, and its effects are undone.
 */
export function run(store: Store, irs: readonly unknown[], options: RunOptions = {}): RunResult {
  if (store.async) return { ok: false, results: [], diagnostics: [asyncStore(store)] };
  const script = prepareScript(irs, options);
  if (!script.ok) return script.refused;
  // One drive of the transaction around the script (not a drive inside `store.transaction`'s).
  return store.drive(store.transactionIo(() => scriptIo(store, script, options)));
}

/** `run` on a store over either kind of driver (scripts on one store run one after another). */
export function runAsync(store: Store<AnySqlDriver>, irs: readonly unknown[], options: RunOptions = {}): Promise<RunResult> {
  return store.driveAsync(runIo(store, irs, options));
}

function asyncStore(store: Store<AnySqlDriver>): Diagnostic {
  return diagnostic('store-is-async', asyncStoreMessage(store.location));
}

/** `run` as queries (src/store/io.ts). */
export function* runIo(store: Store<AnySqlDriver>, irs: readonly unknown[], options: RunOptions = {}): Io<RunResult> {
  const script = prepareScript(irs, options);
  if (!script.ok) return script.refused;
  return yield* store.transactionIo(() => scriptIo(store, script, options));
}

/** A script that passed the checks made before anything runs, with the clock and limits it runs under. */
interface Prepared {
  readonly ok: true;
  readonly now: Date;
  readonly limits: ReturnType<typeof resolveLimits>;
  readonly irs: readonly IR[];
  readonly warnings: readonly Diagnostic[];
  /** The caller's tenant and trace id (provenance); without one, the run makes its own when it first writes. */
  readonly tenant: string;
  readonly traceId: string | undefined;
}

/** A script refused before it ran. */
function refusedScript(diagnostics: readonly Diagnostic[]): { ok: false; refused: RunResult } {
  return { ok: false, refused: { ok: false, results: [], diagnostics } };
}

/** Diagnostics of statement `i`, located (module functions: the happy path makes no closures). */
function locateAll(diagnostics: readonly Diagnostic[], i: number, maps: RunOptions['sourceMaps']): Diagnostic[] {
  return diagnostics.map((d) => locate(d, i, maps));
}

/** The clock, the resource limits, validation and the checker: a refusal here runs nothing. */
function prepareScript(irs: readonly unknown[], options: RunOptions): Prepared | { ok: false; refused: RunResult } {
  const now = clock(options.now);
  if (!(now instanceof Date)) return refusedScript([now]);
  const limits = resolveLimits(options.limits);
  // Validation's fast path first (one walk per statement): a statement it accepts within the
  // text limit is neither measured again by the limits nor validated again, and one it vouches
  // for is checked without a walk of every value (CheckOptions.vouched).
  const fast = tooManyStatements(irs, limits) === undefined ? conformingOf(irs, limits.maxTextLength) : undefined;
  const over = checkLimits(irs, limits, fast?.conforming);
  if (over.length) return refusedScript(over.map((d) => (d.statement === undefined ? d : locate(d, d.statement, options.sourceMaps))));
  const checked = validateAndCheck(irs, options, fast!);
  if (!checked.ok) return refusedScript(checked.diagnostics);
  const tenant = options.tenant ?? DEFAULT_TENANT;
  const badTenant = tenantProblem(tenant);
  if (badTenant) return refusedScript([badTenant]);
  return { ok: true, now, limits, irs: checked.irs, warnings: checked.diagnostics, tenant, traceId: options.traceId };
}

/** A script refused as it ran (rolled back), with the results of the statements before. */
function refusedRun(results: readonly StatementResult[], diagnostics: readonly Diagnostic[]): { commit: false; value: RunResult } {
  return { commit: false, value: { ok: false, results, diagnostics } };
}

/** The script's statements, in the transaction the caller opened: commit, or roll back at the first refusal. */
function* scriptIo(store: Store<AnySqlDriver>, script: Prepared, options: RunOptions): Io<{ commit: boolean; value: RunResult }> {
  const { now, limits } = script;
  const maps = options.sourceMaps;
  const warnings = [...script.warnings];
  const results: StatementResult[] = [];
  const hooks = { selector: options.selector };
  // The clock as text, once per script (every statement's lowering stamps it).
  const nowText = clockText(now);
  const bindings = new Map<string, Binding>();
  // The run's trace id is stored only by writes: a script of reads does without the random one.
  let traceId = script.traceId;
  const irs = script.irs;
  // Runs of consecutive Encodes are executed together (executeEncodeRunIo), except in a plan
  // (`explain` lists each statement's own SQL) and where the caller asks for one at a time.
  const runs = options.batch !== false && !options.dryRun && store.dialect.insertReturning !== undefined;
  // A statement the run's lowering stopped at, lowered: the loop takes it from there.
  let carried: { readonly index: number; readonly ir: IR; readonly lowered: LowerResult } | undefined;
  for (let i = 0; i < irs.length; i++) {
    let ir: IR;
    let lowered: LowerResult;
    if (carried?.index === i) {
      ({ ir, lowered } = carried);
      carried = undefined;
    } else {
      // References (`$n`) become the ids their binding holds, now that the statements before ran.
      const resolved = resolveRefs(irs[i], bindings);
      if (!resolved.ok) return refusedRun(results, locateAll(resolved.diagnostics, i, maps));
      ir = resolved.ir;
      if (traceId === undefined && ir.op !== 'Retrieve' && ir.op !== 'Summarize') traceId = newTraceId();
      // Not frozen: the operation goes straight to execution and nowhere else.
      lowered = lowerIr(ir, { now, nowText, actor: options.actor, tenant: script.tenant, traceId, statement: i, freeze: false });
    }
    if (!lowered.ok) return refusedRun(results, locateAll(lowered.diagnostics, i, maps));
    if (lowered.warnings.length) warnings.push(...locateAll(lowered.warnings, i, maps));
    const op = lowered.operation;
    if (runs && i + 1 < irs.length && irs[i + 1].op === 'Encode' && encodeRunnable(op)) {
      // The run: this Encode and the next ones, lowered in turn, while they are runnable and
      // reference nothing (a `$n` may name a binding of the run: it waits until the run is done).
      const ops: EncodeOp[] = [op];
      const lets: (string | undefined)[] = [ir._let];
      // Each statement's lowering warnings, reported before its own result's (as one at a time).
      const lowerWarnings: (readonly Diagnostic[])[] = [[]];
      for (let j = i + 1; j < irs.length && irs[j].op === 'Encode' && refsOf(irs[j]).length === 0; j++) {
        const next = lowerIr(irs[j], { now, nowText, actor: options.actor, tenant: script.tenant, traceId, statement: j, freeze: false });
        if (!next.ok || !encodeRunnable(next.operation)) {
          carried = { index: j, ir: irs[j], lowered: next };
          break;
        }
        ops.push(next.operation);
        lets.push(irs[j]._let);
        lowerWarnings.push(next.warnings);
      }
      if (ops.length > 1) {
        const outcome = yield* executeEncodeRunIo(store, ops, i);
        for (const [k, result] of outcome.results.entries()) {
          const name = lets[k];
          if (name !== undefined) bindings.set(name, { ids: boundIds('Encode', result), statement: i + k, op: 'Encode' });
          if (lowerWarnings[k].length) warnings.push(...locateAll(lowerWarnings[k], i + k, maps));
          if (result.warnings.length) warnings.push(...locateAll(result.warnings, i + k, maps));
          results.push(result);
        }
        if (!outcome.ok) return refusedRun(results, locateAll(outcome.diagnostics, outcome.index, maps));
        i += ops.length - 1;
        continue;
      }
    }
    const outcome = op.dryRun
      ? yield* store.transactionIo(function* () { return { commit: false, value: yield* executeOperationIo(store, op, i, limits, hooks) }; })
      : yield* executeOperationIo(store, op, i, limits, hooks);
    if (!outcome.ok && op.dryRun) {
      // A dry run asks what the statement would do; "it would be refused" is that answer, so
      // the refusal is reported in its result (and as a warning) and the script goes on.
      const refused = locate(outcome.diagnostics[0], i, maps);
      const warning: Diagnostic = { ...refused, severity: 'warning', message: `dry run: this statement would be refused: ${refused.message}` };
      warnings.push(warning);
      results.push({ index: i, op: op.kind, ids: [], changes: [], warnings: [warning], sql: [], dryRun: true, refused });
      continue;
    }
    if (!outcome.ok) return refusedRun(results, locateAll(outcome.diagnostics, i, maps));
    if (ir._let !== undefined) bindings.set(ir._let, { ids: boundIds(ir.op, outcome.result), statement: i, op: ir.op });
    if (outcome.result.warnings.length) warnings.push(...locateAll(outcome.result.warnings, i, maps));
    results.push(options.dryRun && !outcome.result.dryRun ? { ...outcome.result, dryRun: true } : outcome.result);
  }
  return { commit: !options.dryRun, value: { ok: true, results, diagnostics: warnings } as RunResult };
}

/** The ids a `LET` bound, by the statement that bound them. */
interface Binding {
  readonly ids: readonly number[];
  readonly statement: number;
  readonly op: IR['op'];
}

/**
 * What `LET` binds from a statement's result (src/language/references.ts, `LET_BINDS`): the
 * records it created (ENCODE; SPLIT's pieces), MERGE's primary (the first id it reports), or every
 * id it reports (a write's affected records, RETRIEVE's returned ones).
 */
function boundIds(op: IR['op'], result: StatementResult): number[] {
  switch (LET_BINDS[op]) {
    case 'created': case 'pieces': return result.changes.filter((c) => c.before === null && c.after !== null).map((c) => c.id);
    case 'primary': return result.ids.slice(0, 1);
    case 'affected': case 'returned': return [...result.ids];
    default: return [];
  }
}

/**
 * The statement with its references replaced by the ids their bindings hold (as id strings): in
 * `target.ids` a reference expands to all of them; MERGE's `args.primary_id` needs exactly one.
 * A reference to no ids refuses the statement (`ref-empty`), so the script rolls back. The
 * checker has already made sure every reference names an earlier binding.
 */
function resolveRefs(ir: IR, bindings: ReadonlyMap<string, Binding>): { ok: true; ir: IR } | { ok: false; diagnostics: Diagnostic[] } {
  const refs = refsOf(ir);
  if (refs.length === 0) return { ok: true, ir };
  const diagnostics: Diagnostic[] = [];
  const idsOf = (name: string, path: string): string[] => {
    const b = bindings.get(name);
    const ids = b?.ids.map(String) ?? [];
    if (ids.length === 0) {
      const by = b ? `statement ${b.statement + 1} (${b.op}) bound no ids to it` : 'no earlier statement bound it';
      diagnostics.push(diagnostic('ref-empty', `$${name} holds no ids: ${by}, so this statement has nothing to act on; the script is rolled back`, { path }));
    }
    return ids;
  };
  const copy = structuredClone(ir) as IR & { target?: { ids?: unknown }; args?: Record<string, unknown> };
  const ids: unknown = copy.target?.ids;
  if (isRef(ids)) copy.target!.ids = idsOf(ids.$ref, 'target.ids');
  else if (Array.isArray(ids)) copy.target!.ids = ids.flatMap((id, k) => (isRef(id) ? idsOf(id.$ref, `target.ids.${k}`) : [id]));
  // MERGE's primary (`INTO $n`) and a turn's episode (`OF $e`) name one record.
  const arg = REF_ARGS[copy.op];
  const single: unknown = arg !== undefined ? copy.args?.[arg] : undefined;
  if (arg !== undefined && isRef(single)) {
    const resolved = idsOf(single.$ref, `args.${arg}`);
    if (resolved.length > 1) {
      const clause = copy.op === 'Merge' ? 'INTO takes one primary record' : 'OF takes one episode';
      diagnostics.push(diagnostic('ref-not-single', `$${single.$ref} holds ${resolved.length} ids (${resolved.map((id) => `#${id}`).join(', ')}); ${clause}`, { path: `args.${arg}` }));
    }
    copy.args![arg] = resolved[0];
  }
  return diagnostics.length ? { ok: false, diagnostics } : { ok: true, ir: copy };
}

/** What validation's fast path says of each statement (src/ir/conforms.ts). */
interface Conforming {
  /** It accepts the statement, with no string over the text limit. */
  readonly conforming: readonly boolean[];
  /** It also vouched for it to the checker (`irConformance` answered `vouched`). */
  readonly vouched: readonly boolean[];
}

function conformingOf(irs: readonly unknown[], maxTextLength: number): Conforming {
  const conforming = new Array<boolean>(irs.length);
  const vouched = new Array<boolean>(irs.length);
  for (let i = 0; i < irs.length; i++) {
    const c = irConformance(irs[i], maxTextLength);
    conforming[i] = c !== 'no';
    vouched[i] = c === 'vouched';
  }
  return { conforming, vouched };
}

/**
 * The front of the chain for IR values: shape (validateIr, unless `conforming` already said yes),
 * then the cross-field invariants (check, under the run's policy). Any error refuses the script;
 * warnings are returned located.
 */
function validateAndCheck(
  irs: readonly unknown[],
  options: RunOptions,
  fast: Conforming,
): { ok: true; irs: IR[]; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] } {
  const maps = options.sourceMaps;
  const conforming = fast.conforming;
  const diagnostics: Diagnostic[] = [];
  const valid: IR[] = [];
  // Indexed loops: an entries() iterator makes a pair per statement.
  for (let i = 0; i < irs.length; i++) {
    const json = irs[i];
    // The compiled predicate says yes to most IRs without copying them; only the others go through zod (same verdict, src/ir/conforms.ts).
    if (conforming[i]) {
      valid.push(json as IR);
      continue;
    }
    const v = validateIr(json, maps?.[i], i);
    // The slips validation reads with a warning (no stage, `filter.tags`, …) are refused under `strict`, like the checker's warnings.
    diagnostics.push(...applyPolicy(v.diagnostics, options.policy ?? 'default').map((d) => locate(d, i, maps)));
    if (v.ir) valid.push(v.ir);
  }
  if (hasErrors(diagnostics) || valid.length !== irs.length) return { ok: false, diagnostics };
  // The identity comes from the caller: a script may name its actor only to agree with it.
  if (!options.impersonate) {
    for (let i = 0; i < valid.length; i++) {
      const claimed = valid[i].meta?.actor;
      if (claimed === undefined || claimed === options.actor) continue;
      const caller = options.actor === undefined ? 'an anonymous caller' : `the caller's actor '${options.actor}'`;
      diagnostics.push(locate(diagnostic('actor-mismatch', `the statement claims actor '${claimed}', but it runs as ${caller}; a script cannot choose its identity (the caller may allow impersonation)`, { path: 'meta.actor', statement: i }), i, maps));
    }
    if (hasErrors(diagnostics)) return { ok: false, diagnostics };
  }
  // Every statement is in `valid` at its own index (a refused one returned above).
  const found = check(valid, { sourceMaps: maps, policy: options.policy ?? 'default', vouched: fast.vouched });
  for (let i = 0; i < found.length; i++) {
    const d = found[i];
    // The checker's diagnostics are made for this run and carry their statement and the range
    // its map gives: with no map to look in, the located copy would equal it key for key.
    diagnostics.push(d.statement !== undefined && (d.range !== undefined || maps?.[d.statement] === undefined) ? d : locate(d, d.statement ?? 0, maps));
  }
  return hasErrors(diagnostics) ? { ok: false, diagnostics } : { ok: true, irs: valid, diagnostics };
}

/** The plan of a script: runs it and rolls it back, returning each statement's SQL and would-be ids. */
export function explain(store: Store, irs: readonly unknown[], options: Omit<RunOptions, 'dryRun'> = {}): RunResult {
  return run(store, irs, { ...options, dryRun: true });
}

/** `explain` on a store over either kind of driver. */
export function explainAsync(store: Store<AnySqlDriver>, irs: readonly unknown[], options: Omit<RunOptions, 'dryRun'> = {}): Promise<RunResult> {
  return runAsync(store, irs, { ...options, dryRun: true });
}

export interface SweepResult {
  readonly applied: readonly { readonly id: number; readonly action: string }[];
  /** Due records left alone because a lock in force protects them (they stay hidden). */
  readonly skipped: readonly { readonly id: number; readonly reason: string }[];
  readonly changes: readonly Change[];
  readonly sql: readonly SqlStatement[];
}

/** What `demote` lowers an expired record's weight to, and the text `anonymize` leaves. */
export const ANONYMIZED_TEXT = '[anonymized]';

/**
 * Applies the expiry action of every record whose `expire_at` has passed, as one transaction
 * with one audit entry. `demote` and `anonymize` clear the expiry so the record is live again.
 * Records under a lock that refuses Expire are skipped until the lock lapses.
 */
export function sweep(store: Store, now: Date | string = new Date(), actor = 'system:sweep', tenant: string = DEFAULT_TENANT): SweepResult | { diagnostics: Diagnostic[] } {
  if (store.async) return { diagnostics: [asyncStore(store)] };
  return store.drive(sweepIo(store, now, actor, tenant));
}

/** `sweep` on a store over either kind of driver. */
export function sweepAsync(store: Store<AnySqlDriver>, now: Date | string = new Date(), actor = 'system:sweep', tenant: string = DEFAULT_TENANT): Promise<SweepResult | { diagnostics: Diagnostic[] }> {
  return store.driveAsync(sweepIo(store, now, actor, tenant));
}

/** `sweep` as queries (src/store/io.ts). */
export function* sweepIo(store: Store<AnySqlDriver>, now: Date | string = new Date(), actor = 'system:sweep', tenant: string = DEFAULT_TENANT): Io<SweepResult | { diagnostics: Diagnostic[] }> {
  const at = clock(now);
  if (!(at instanceof Date)) return { diagnostics: [at] };
  const badTenant = tenantProblem(tenant);
  if (badTenant) return { diagnostics: [badTenant] };
  const nowText = formatUtc(at);
  const d = store.dialect;
  return yield* store.transactionIo(function* () {
    const sql: SqlStatement[] = [];
    const exec = (s: SqlStatement) => (sql.push(s), ioRun(s.sql, s.params));
    const due = (yield* ioAll(...stmt(compileDueExpiries(nowText, d, tenant)))).map(decodeRow);
    const applied: { id: number; action: string }[] = [];
    const changes: Change[] = [];
    const skipped: { id: number; reason: string }[] = [];
    // Records an ephemeral deletion took with it (their history), and whose audit images go.
    const erased = new Set<number>();
    for (const row of due) {
      const id = Number(row.id);
      if (erased.has(id)) continue;
      const action = String(row.expire_action ?? 'soft_delete');
      let set: Record<string, unknown> | null = null;
      switch (action) {
        case 'hard_delete':
          break;
        case 'demote':
          set = { weight: Math.min(typeof row.weight === 'number' ? row.weight : 1, ARCHIVE_WEIGHT), expire_at: null, expire_action: null };
          break;
        case 'anonymize':
          set = { text: ANONYMIZED_TEXT, subject: null, location: null, source: null, facets: {}, embedding: null, embedding_model: null, embedding_f32: null, search_text: searchTextOf({ ...row, text: ANONYMIZED_TEXT, subject: null, topic: row.topic }), expire_at: null, expire_action: null };
          break;
        default:
          set = { deleted: 1, deleted_at: nowText };
      }
      // A lock is a hold: the expiry action waits until the lock lapses (or allows Expire), and
      // a policy that denies what the action does (Delete, Update, Demote) keeps it waiting.
      const held = lockRefusal(row, 'Expire', actor, nowText, false, set ? effectsOf(row, set).filter((e) => e !== 'Expire') : ['Delete']);
      if (held) {
        skipped.push({ id, reason: `locked ${String(row.lock_mode)}: ${held}` });
        continue;
      }
      if (action === 'hard_delete') {
        yield* exec(compileDeleteById(id, d, tenant));
        changes.push({ id, before: withoutDerived(row), after: null });
        // An ephemeral record's deletion erases its history (spec/semantics.md "Retention").
        if (row.retention === 'ephemeral') {
          erased.add(id);
          if (typeof row.subject === 'string' && typeof row.attribute === 'string') {
            for (const v of (yield* ioAll(...stmt(compileFactVersions(row.subject, row.attribute, d, tenant)))).map(decodeRow)) {
              yield* exec(compileDeleteById(Number(v.id), d, tenant));
              erased.add(Number(v.id));
            }
          }
        }
      }
      if (set) {
        yield* exec(compileUpdateById(id, { ...set, updated_at: nowText }, d, tenant));
        changes.push({ id, before: withoutDerived(Object.fromEntries(Object.keys(set).map((k) => [k, row[k] ?? null]))), after: withoutDerived(set) });
      }
      applied.push({ id, action });
    }
    if (changes.length) {
      yield* exec(compileAuditInsert({
        tenant, at: nowText, actor, op: 'Sweep', ir: null, affectedIds: changes.map((c) => c.id),
        before: Object.fromEntries(changes.map((c) => [c.id, c.before])), after: Object.fromEntries(changes.map((c) => [c.id, c.after])),
      }, d));
    }
    for (const id of erased) yield* exec(compileAuditScrub(id, d, tenant));
    return { commit: true, value: { applied, skipped, changes, sql } };
  });
}

export interface AuditRecord {
  readonly id: number;
  readonly at: string;
  readonly actor: string | null;
  readonly op: string;
  readonly ir: unknown;
  readonly affectedIds: number[];
  readonly before: Record<string, Record<string, unknown> | null> | null;
  readonly after: Record<string, Record<string, unknown> | null> | null;
  readonly undoneBy: number | null;
  /** The run that wrote the entry (RunOptions.traceId), when it had one. */
  readonly traceId: string | null;
}

/** The tenant's audit log (default tenant `default`), oldest first (or one entry). */
export function auditLog(store: Store, id?: number, tenant: string = DEFAULT_TENANT): AuditRecord[] {
  if (store.async) throw new Error(asyncStoreMessage(store.location));
  return store.drive(auditLogIo(store, id, tenant));
}

/** `auditLog` on a store over either kind of driver. */
export function auditLogAsync(store: Store<AnySqlDriver>, id?: number, tenant: string = DEFAULT_TENANT): Promise<AuditRecord[]> {
  return store.driveAsync(auditLogIo(store, id, tenant));
}

/** `auditLog` as queries (src/store/io.ts). */
export function* auditLogIo(store: Store<AnySqlDriver>, id?: number, tenant: string = DEFAULT_TENANT): Io<AuditRecord[]> {
  return (yield* ioAll(...stmt(compileAuditSelect(store.dialect, tenant, id)))).map((r) => auditImages(r)).map(({ r, ir, before, after }) => ({
    id: Number(r.id),
    traceId: r.trace_id === null || r.trace_id === undefined ? null : String(r.trace_id),
    at: String(r.at),
    actor: r.actor === null ? null : String(r.actor),
    op: String(r.op),
    ir,
    affectedIds: JSON.parse(String(r.affected_ids)),
    before,
    after,
    undoneBy: r.undone_by === null ? null : Number(r.undone_by),
  }));
}

export type UndoResult =
  | {
    readonly ok: true;
    readonly restored: readonly number[];
    /** Restored records whose expiry had passed: it is cleared so that they are live again. */
    readonly unexpired: readonly number[];
    readonly auditId: number;
  }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * Undoes the soft deletes recorded by audit entry `auditId` (a soft Delete, a Merge's or
 * Split's retired records, a sweep's soft_delete): the records become live again, and a restored
 * record whose expiry has passed has that expiry cleared. Other writes of that entry are not
 * reverted. A feedback entry (`PROMOTE … REWARD`) is undone by taking its reward back out of each
 * record's utility; any other entry without soft deletes is refused.
 */
/** `actor` is the caller's (trusted) actor: undo is refused when a lock or the record's write permissions refuse it. */
export function undo(store: Store, auditId: number, options: UndoOptions = {}): UndoResult {
  if (store.async) return { ok: false, diagnostics: [asyncStore(store)] };
  return store.drive(undoIo(store, auditId, options));
}

export interface UndoOptions {
  readonly now?: Date | string;
  readonly actor?: string;
  /** The caller's tenant (default `default`): only its audit entries and records are undone. */
  readonly tenant?: string;
}

/** `undo` on a store over either kind of driver. */
export function undoAsync(store: Store<AnySqlDriver>, auditId: number, options: UndoOptions = {}): Promise<UndoResult> {
  return store.driveAsync(undoIo(store, auditId, options));
}

/** `undo` as queries (src/store/io.ts). */
export function* undoIo(store: Store<AnySqlDriver>, auditId: number, options: UndoOptions = {}): Io<UndoResult> {
  const tenant = options.tenant ?? DEFAULT_TENANT;
  const fail = (code: Code, message: string): UndoResult => ({ ok: false, diagnostics: [diagnostic(code, message)] });
  const at = clock(options.now);
  if (!(at instanceof Date)) return { ok: false, diagnostics: [at] };
  const badTenant = tenantProblem(tenant);
  if (badTenant) return { ok: false, diagnostics: [badTenant] };
  const [entry] = yield* auditLogIo(store, auditId, tenant);
  if (!entry) return fail('undo-not-found', `no audit entry #${auditId}`);
  if (entry.undoneBy !== null) return fail('undo-already-done', `audit entry #${auditId} was already undone by entry #${entry.undoneBy}`);
  const softDeleted = Object.entries(entry.after ?? {})
    .filter(([, after]) => after && after.deleted === 1)
    .map(([id]) => Number(id));
  const reward = feedbackReward(entry);
  if (!softDeleted.length && reward !== undefined) return yield* undoFeedback(store, entry, reward, at, options.actor, tenant);
  if (!softDeleted.length) return fail('undo-unsupported', `audit entry #${auditId} (${entry.op}) soft-deleted nothing; only soft deletes and feedback (PROMOTE … REWARD) can be undone`);
  const nowText = formatUtc(at);
  const d = store.dialect;
  return yield* store.transactionIo<UndoResult>(function* () {
    const rows = (yield* ioAll(...stmt(compileSelectByIds(softDeleted, d, tenant)))).map(decodeRow);
    const restored: number[] = [];
    const unexpired: number[] = [];
    const changes: Change[] = [];
    for (const row of rows) {
      if (row.deleted !== 1) continue;
      const set: Record<string, unknown> = { deleted: 0, deleted_at: null };
      // A record whose expiry has passed (the usual case after a sweep) would come back hidden
      // and be deleted again by the next sweep: undoing its deletion clears the spent expiry.
      if (typeof row.expire_at === 'string' && row.expire_at <= nowText) {
        Object.assign(set, { expire_at: null, expire_action: null, expire_reason: null });
        unexpired.push(Number(row.id));
      }
      // Undo is a write by the caller's actor: locks (as an Update of the record) and write
      // permissions apply as to any verb.
      const lock = lockRefusal(row, 'Update', options.actor, nowText, false, effectsOf(row, set));
      if (lock) return { commit: false, value: fail('record-locked', `undo refused: memory #${String(row.id)} is locked ${String(row.lock_mode)}; ${lock}`) };
      const perm = writeRefusal(row, options.actor);
      if (perm) return { commit: false, value: fail('permission-denied', `undo refused: memory #${String(row.id)}: ${perm}`) };
      yield* ioRun(...stmt(compileUpdateById(Number(row.id), { ...set, updated_at: nowText }, d, tenant)));
      restored.push(Number(row.id));
      changes.push({ id: Number(row.id), before: Object.fromEntries(Object.keys(set).map((k) => [k, row[k] ?? null])), after: set });
    }
    if (!restored.length) return { commit: false, value: fail('undo-nothing', `the records of audit entry #${auditId} are gone or already live`) };
    yield* ioRun(...stmt(compileAuditInsert({
      tenant, at: nowText, actor: options.actor ?? null, op: 'Undo', ir: { undo: auditId }, affectedIds: restored,
      before: Object.fromEntries(changes.map((c) => [c.id, c.before])), after: Object.fromEntries(changes.map((c) => [c.id, c.after])),
    }, d)));
    const [last] = yield* ioAll(...stmt(compileAuditLastId(d, tenant)));
    yield* ioRun(...stmt(compileAuditMarkUndone(auditId, Number(last.id), d, tenant)));
    return { commit: true, value: { ok: true, restored, unexpired, auditId: Number(last.id) } };
  });
}

/** A compiled statement as the arguments of a query. */
const stmt = (s: SqlStatement): [string, SqlStatement['params']] => [s.sql, s.params];

/** One version in a `why` chain: a record and where it came from. */
export interface Provenance {
  readonly id: number;
  readonly text: string | null;
  readonly subject: string | null;
  readonly attribute: string | null;
  readonly validFrom: string | null;
  readonly validTo: string | null;
  /** The source episode the writer named (EPISODE). */
  readonly episode: string | null;
  readonly confidence: number | null;
  readonly retention: string | null;
  /** Who wrote it (the run's actor). */
  readonly actor: string | null;
  /** The run that wrote it, and its statement (0-based). */
  readonly traceId: string | null;
  readonly statement: number | null;
  readonly createdAt: string | null;
  readonly deleted: boolean;
  /** The version it superseded (the next link of the chain), if any. */
  readonly supersedes: number | null;
}

export interface WhyResult {
  readonly ok: true;
  /** The record asked about, then each version it superseded, newest first. */
  readonly chain: readonly Provenance[];
  /** The tenant's audit entries that touched any version of the chain, oldest first. */
  readonly audit: readonly AuditRecord[];
}

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/**
 * Why a record is what it is (`t2m why <id>`): its provenance (actor, run, statement, episode),
 * the chain of versions it superseded, and the audit entries that wrote them — in the caller's
 * tenant only (an id of another tenant is `why-not-found`, as if it did not exist).
 */
export function why(store: Store, id: number, options: { tenant?: string } = {}): WhyResult | { ok: false; diagnostics: Diagnostic[] } {
  if (store.async) return { ok: false, diagnostics: [asyncStore(store)] };
  return store.drive(whyIo(store, id, options));
}

/** `why` on a store over either kind of driver. */
export function whyAsync(store: Store<AnySqlDriver>, id: number, options: { tenant?: string } = {}): Promise<WhyResult | { ok: false; diagnostics: Diagnostic[] }> {
  return store.driveAsync(whyIo(store, id, options));
}

/** `why` as queries (src/store/io.ts). */
export function* whyIo(store: Store<AnySqlDriver>, id: number, options: { tenant?: string } = {}): Io<WhyResult | { ok: false; diagnostics: Diagnostic[] }> {
  const tenant = options.tenant ?? DEFAULT_TENANT;
  const badTenant = tenantProblem(tenant);
  if (badTenant) return { ok: false, diagnostics: [badTenant] };
  const d = store.dialect;
  const chain: Provenance[] = [];
  const seen = new Set<number>();
  for (let next: number | null = id; next !== null && !seen.has(next);) {
    seen.add(next);
    const row: Record<string, unknown> | undefined = (yield* ioAll(...stmt(compileSelectByIds([next], d, tenant)))).map(decodeRow)[0];
    if (!row) break;
    chain.push({
      id: Number(row.id), text: str(row.text), subject: str(row.subject), attribute: str(row.attribute),
      validFrom: str(row.valid_from), validTo: str(row.valid_to), episode: str(row.episode),
      confidence: typeof row.confidence === 'number' ? row.confidence : null, retention: str(row.retention),
      actor: str(row.owner), traceId: str(row.trace_id), statement: typeof row.statement_index === 'number' ? row.statement_index : null,
      createdAt: str(row.created_at), deleted: row.deleted === 1,
      supersedes: typeof row.supersedes === 'number' ? row.supersedes : null,
    });
    next = typeof row.supersedes === 'number' ? row.supersedes : null;
  }
  if (!chain.length) return { ok: false, diagnostics: [diagnostic('why-not-found', `no record #${id} in tenant '${tenant}'`)] };
  const ids = new Set(chain.map((p) => p.id));
  const audit = (yield* auditLogIo(store, undefined, tenant)).filter((e) => e.affectedIds.some((a) => ids.has(a)));
  return { ok: true, chain, audit };
}

/** The reward of a feedback entry (`PROMOTE … REWARD r` that changed utilities), if it is one. */
function feedbackReward(entry: AuditRecord): number | undefined {
  const ir = entry.ir as { op?: unknown; args?: { reward?: unknown } } | null;
  const reward = ir?.op === 'Promote' ? ir.args?.reward : undefined;
  const changedUtility = Object.values(entry.after ?? {}).some((a) => a && 'utility_n' in a);
  return typeof reward === 'number' && changedUtility ? reward : undefined;
}

/**
 * Undoes a feedback entry: each record it rewarded has that reward taken back out of its running
 * mean (later feedback stays counted), as one transaction with its own audit entry. Locks and
 * write permissions apply as to any write.
 */
function* undoFeedback(store: Store<AnySqlDriver>, entry: AuditRecord, reward: number, at: Date, actor: string | undefined, tenant: string): Io<UndoResult> {
  const nowText = formatUtc(at);
  const d = store.dialect;
  const ids = Object.entries(entry.after ?? {}).filter(([, a]) => a && 'utility_n' in a).map(([id]) => Number(id));
  return yield* store.transactionIo<UndoResult>(function* () {
    const rows = (yield* ioAll(...stmt(compileSelectByIds(ids, d, tenant)))).map(decodeRow);
    const restored: number[] = [];
    const changes: Change[] = [];
    for (const row of rows) {
      const set = withoutFeedback(row, reward);
      if (!set) continue;
      const lock = lockRefusal(row, 'Promote', actor, nowText, false, effectsOf(row, set));
      if (lock) return { commit: false, value: { ok: false, diagnostics: [diagnostic('record-locked', `undo refused: memory #${String(row.id)} is locked ${String(row.lock_mode)}; ${lock}`)] } };
      const perm = writeRefusal(row, actor);
      if (perm) return { commit: false, value: { ok: false, diagnostics: [diagnostic('permission-denied', `undo refused: memory #${String(row.id)}: ${perm}`)] } };
      yield* ioRun(...stmt(compileUpdateById(Number(row.id), { ...set, updated_at: nowText }, d, tenant)));
      restored.push(Number(row.id));
      changes.push({ id: Number(row.id), before: { utility: row.utility ?? null, utility_n: row.utility_n ?? 0 }, after: set });
    }
    if (!restored.length) return { commit: false, value: { ok: false, diagnostics: [diagnostic('undo-nothing', `the records of audit entry #${entry.id} are gone or have no feedback to take back`)] } };
    yield* ioRun(...stmt(compileAuditInsert({
      tenant, at: nowText, actor: actor ?? null, op: 'Undo', ir: { undo: entry.id }, affectedIds: restored,
      before: Object.fromEntries(changes.map((c) => [c.id, c.before])), after: Object.fromEntries(changes.map((c) => [c.id, c.after])),
    }, d)));
    const [last] = yield* ioAll(...stmt(compileAuditLastId(d, tenant)));
    yield* ioRun(...stmt(compileAuditMarkUndone(entry.id, Number(last.id), d, tenant)));
    return { commit: true, value: { ok: true, restored, unexpired: [], auditId: Number(last.id) } };
  });
}
