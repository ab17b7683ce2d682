/**
 * A script's run inside the transaction its caller opened (src/engine/session.ts): the checks
 * made before anything runs (`prepareScript`), then each statement lowered against the clock,
 * compiled and executed in order, references (`$n`) resolved to the ids earlier statements bound.
 * A caller may watch each statement inside the transaction (`onStatement`: the playground's
 * snapshots), or run each on its own (`statementwise`: the benchmark's reference runner), with
 * references resolved across statements either way.
 */
import { applyPolicy } from '../check/index.js';
import { diagnostic, hasErrors, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { IR } from '../ir/schema.js';
import { refsOf } from '../ir/refs.js';
import { LET_BINDS, REF_ARGS, isRef } from '../language/index.js';
import { lowerIr, type LowerResult } from '../lower/index.js';
import { addDuration, formatUtc, parseDuration, type DurationParts } from '../lower/time.js';
import type { EncodeOp } from '../lower/operation.js';
import { checkIrs, isCheckedScript, type CheckedScript, type Policy } from '../pipeline.js';
import type { AnySqlDriver } from '../store/driver.js';
import { encodeRunnable, executeEncodeRunIo, executeOperationIo } from '../execute/index.js';
import type { StatementResult } from '../execute/rows.js';
import type { Io } from '../store/io.js';
import type { Store } from '../store/store.js';
import type { Selector } from '../experience/experience.js';
import type { Reranker } from '../retrieve/rerank.js';
import { clock, clockText, DEFAULT_TENANT, locate, locateAll, tenantProblem, type SourceMaps } from './caller.js';
import { checkLimits, resolveLimits, tooManyStatements, type Limits } from './limits.js';

export interface RunOptions {
  /**
   * The clock (default: the real time). Privileged: a caller-supplied clock decides which locks
   * and expiries are in force and stamps the audit log, so only a trusted caller may set it.
   */
  readonly now?: Date | string;
  /**
   * Privileged, with `now`: an ISO-8601 duration the clock moves on by before each statement
   * after the first (statement i runs at now + i × tick), for replaying a log of statements
   * recorded over time in one run; default: every statement at `now`.
   */
  readonly tick?: string;
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
  /** Per-statement source maps, to give diagnostics source ranges (plain IRs; a `CheckedScript` carries its own). */
  readonly sourceMaps?: SourceMaps;
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
   * in a statement still means similarity only. See src/experience/experience.ts.
   */
  readonly selector?: Selector;
  /**
   * The second stage of every search (spec/retrieval.md "Reranking"): reorders the first `top`
   * results (`httpReranker` for a /v1/rerank server, `functionReranker` for any function). A
   * failure keeps the first stage's order with a `rerank-failed` warning.
   */
  readonly rerank?: Reranker;
  /**
   * Execute each run of consecutive plain Encodes together (default true): their records and
   * audit entries written by multi-row INSERTs (spec/semantics.md "Runs of Encodes"). The store ends the
   * same, and so do the results but for `sql`; false executes every statement on its own (tests
   * and measurements compare the two). `explain` (dryRun) never batches.
   */
  readonly batch?: boolean;
  /**
   * Called inside the run's transaction after each statement, in order, with its result, or with
   * the errors that refused it (the script stops there unless `statementwise`). What the hook
   * reads of the store is the state that statement left. With a hook, Encodes are executed one at
   * a time, so that each statement's effects are seen on their own.
   */
  readonly onStatement?: (index: number, outcome: StatementOutcome) => void;
  /**
   * Each statement on its own, as the benchmark's reference runner executes them: a statement the
   * checker, lowering or execution refuses is rolled back alone and reported (in `diagnostics`
   * and to `onStatement`), and the statements after it still run; a reference to what a refused
   * statement would have bound is refused in turn (`ref-undefined` when the checker refused that
   * statement, `ref-empty` when it was refused as it ran). The run commits what ran; `ok` says
   * whether every statement did. A refusal that names no statement (too many statements, a
   * bad clock or tenant) still refuses the whole script.
   */
  readonly statementwise?: boolean;
  /**
   * Where the statements given stand in the script they were taken from (default 0): statement
   * i's records carry `statementOffset + i` as their provenance's statement index, and messages
   * number statements that way too. For running a part of a script (the playground's Run
   * selection) on a store its other statements wrote. Results, diagnostics' `statement` and the
   * hook's index still count from 0 in the statements given.
   */
  readonly statementOffset?: number;
}

/** One statement as `onStatement` sees it: its result, or the errors that refused it. */
export type StatementOutcome =
  | { readonly result: StatementResult; readonly errors?: undefined }
  | { readonly result?: undefined; readonly errors: readonly Diagnostic[] };

export interface RunResult {
  /** True when the script committed (or, under dry run, would have); under `statementwise`, when no statement was refused. */
  readonly ok: boolean;
  /**
   * One result per statement. When the script fails: the results of the statements before the
   * failing one (what they did or read before everything was rolled back).
   */
  readonly results: readonly StatementResult[];
  /** Errors (the script changed nothing) and warnings. */
  readonly diagnostics: readonly Diagnostic[];
}


/** A run's trace id when the caller gives none: random, so two runs never share one. */
function newTraceId(): string {
  return `run-${globalThis.crypto.randomUUID()}`;
}

/** A script that passed the checks made before anything runs, with the clock and limits it runs under. */
export interface Prepared {
  readonly ok: true;
  readonly now: Date;
  /** RunOptions.tick, parsed: how far the clock moves on before each statement after the first. */
  readonly tick?: DurationParts;
  readonly limits: ReturnType<typeof resolveLimits>;
  readonly irs: readonly IR[];
  readonly sourceMaps: SourceMaps;
  readonly warnings: readonly Diagnostic[];
  /** The caller's tenant and trace id (provenance); without one, the run makes its own when it first writes. */
  readonly tenant: string;
  readonly traceId: string | undefined;
  /** Under `statementwise`, the statements refused before anything runs (their errors, located), by index; `irs` holds them unchecked. */
  readonly refused: ReadonlyMap<number, readonly Diagnostic[]>;
}

const NONE_REFUSED: ReadonlyMap<number, readonly Diagnostic[]> = new Map();

/** A script refused before it ran. */
function refusedScript(diagnostics: readonly Diagnostic[]): { ok: false; refused: RunResult } {
  return { ok: false, refused: { ok: false, results: [], diagnostics } };
}

/**
 * The clock, the resource limits, validation and the checker (plain IRs go through the front
 * end's `checkIrs`; a `CheckedScript` has been through it), and the caller's identity: a refusal
 * here runs nothing.
 */
export function prepareScript(input: CheckedScript | readonly unknown[], options: RunOptions): Prepared | { ok: false; refused: RunResult } {
  const now = clock(options.now);
  if (!(now instanceof Date)) return refusedScript([now]);
  const tick = options.tick === undefined ? undefined : parseDuration(options.tick);
  if (tick === null) return refusedScript([diagnostic('invalid-duration', `the clock's tick '${options.tick}' is not an ISO-8601 duration (e.g. PT1H)`)]);
  const limits = resolveLimits(options.limits);
  const apart = options.statementwise === true;
  const refused = new Map<number, Diagnostic[]>();
  // Under `statementwise`, located errors that each name a statement refuse those statements
  // alone; any other refuses the script.
  const refuseEach = (ds: readonly Diagnostic[]): boolean => {
    const errors = ds.filter((d) => d.severity === 'error');
    if (!apart || errors.some((d) => d.statement === undefined)) return false;
    for (const d of errors) {
      const list = refused.get(d.statement!);
      if (list) list.push(d);
      else refused.set(d.statement!, [d]);
    }
    return true;
  };
  let script: Pick<CheckedScript, 'irs' | 'sourceMaps' | 'warnings' | 'within'>;
  if (isCheckedScript(input)) {
    script = input;
    // Checked under a laxer policy than the run's: its warnings are the run's errors.
    if (options.policy === 'strict' && input.policy !== 'strict') {
      const strict = applyPolicy([...input.warnings], 'strict');
      if (hasErrors(strict)) return refusedScript(strict);
    }
  } else {
    const tooMany = tooManyStatements(input, limits);
    if (tooMany) return refusedScript([tooMany]);
    const checked = checkIrs(input, { policy: options.policy, sourceMaps: options.sourceMaps, maxTextLength: limits.maxTextLength });
    if (checked.ok) script = checked.script;
    else {
      const each = apart ? checkApart(input, checked.diagnostics, options, limits.maxTextLength, refused) : undefined;
      if (!each) return refusedScript(checked.diagnostics);
      script = each;
    }
  }
  const maps = script.sourceMaps;
  // Validation's walk measured the strings against its own limit: statements it found within a
  // limit no larger than the caller's are not walked again.
  const over = checkLimits(script.irs, limits, script.within.limit <= limits.maxTextLength ? script.within.flags : undefined);
  const overLocated = over.filter((d) => d.statement === undefined || !refused.has(d.statement)).map((d) => (d.statement === undefined ? d : locate(d, d.statement, maps)));
  if (overLocated.length && !refuseEach(overLocated)) return refusedScript(overLocated);
  // The identity comes from the caller: a script may name its actor only to agree with it.
  if (!options.impersonate) {
    const mismatches: Diagnostic[] = [];
    for (let i = 0; i < script.irs.length; i++) {
      if (refused.has(i)) continue;
      const claimed = script.irs[i].meta?.actor;
      if (claimed === undefined || claimed === options.actor) continue;
      const caller = options.actor === undefined ? 'an anonymous caller' : `the caller's actor '${options.actor}'`;
      mismatches.push(locate(diagnostic('actor-mismatch', `the statement claims actor '${claimed}', but it runs as ${caller}; a script cannot choose its identity (the caller may allow impersonation)`, { path: 'meta.actor', statement: i }), i, maps));
    }
    if (mismatches.length && !refuseEach(mismatches)) return refusedScript([...script.warnings, ...mismatches]);
  }
  const tenant = options.tenant ?? DEFAULT_TENANT;
  const badTenant = tenantProblem(tenant);
  if (badTenant) return refusedScript([...script.warnings, badTenant]);
  return { ok: true, now, ...(tick ? { tick } : {}), limits, irs: script.irs, sourceMaps: maps, warnings: script.warnings, tenant, traceId: options.traceId, refused: refused.size ? refused : NONE_REFUSED };
}

/**
 * `statementwise`: the statements the checker refuses in the context of the others are set
 * apart (into `refused`), and the rest checked again without them, until the rest passes — a
 * statement that referred to a refused one's binding is refused in turn. The rest, at their
 * places; undefined when a refusal names no statement.
 */
function checkApart(irs: readonly unknown[], first: readonly Diagnostic[], options: RunOptions, maxTextLength: number, refused: Map<number, Diagnostic[]>): Pick<CheckedScript, 'irs' | 'sourceMaps' | 'warnings' | 'within'> | undefined {
  const maps = options.sourceMaps;
  let kept = irs.map((_, i) => i);
  let diagnostics = first;
  for (;;) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (!errors.length || errors.some((d) => d.statement === undefined || kept[d.statement] === undefined)) return undefined;
    for (const d of errors) {
      const at = kept[d.statement!];
      const list = refused.get(at);
      if (list) list.push({ ...d, statement: at });
      else refused.set(at, [{ ...d, statement: at }]);
    }
    kept = kept.filter((i) => !refused.has(i));
    const again = kept.length
      ? checkIrs(kept.map((i) => irs[i]), { policy: options.policy, sourceMaps: maps && kept.map((i) => maps[i]), maxTextLength })
      : { ok: true as const, script: { irs: [], warnings: [] } };
    if (!again.ok) {
      diagnostics = again.diagnostics;
      continue;
    }
    // Refused statements keep their places, unchecked: the run reports them and never lowers them.
    const all = [...irs] as IR[];
    kept.forEach((at, k) => (all[at] = again.script.irs[k]));
    const warnings = again.script.warnings.map((d) => (d.statement === undefined ? d : { ...d, statement: kept[d.statement] }));
    return { irs: all, sourceMaps: maps ?? [], warnings, within: { limit: 0, flags: [] } };
  }
}

/** A script refused as it ran (rolled back), with the results of the statements before. */
function refusedRun(results: readonly StatementResult[], diagnostics: readonly Diagnostic[]): { commit: false; value: RunResult } {
  return { commit: false, value: { ok: false, results, diagnostics } };
}

/** The script's statements, in the transaction the caller opened: commit, or roll back at the first refusal. */
export function* scriptIo(store: Store<AnySqlDriver>, script: Prepared, options: RunOptions): Io<{ commit: boolean; value: RunResult }> {
  const { now, limits } = script;
  const maps = script.sourceMaps;
  const warnings = [...script.warnings];
  const results: StatementResult[] = [];
  const hook = options.onStatement;
  const apart = options.statementwise === true;
  // Under `statementwise`, the errors of the statements refused so far (the run goes on).
  const refusals: Diagnostic[] = [];
  /** Statement `i` refused: the hook hears of it; the run stops (the value to return), or goes on under `statementwise`. */
  const refuse = (i: number, errors: readonly Diagnostic[]): { commit: false; value: RunResult } | undefined => {
    hook?.(i, { errors });
    if (!apart) return refusedRun(results, errors);
    refusals.push(...errors);
    return undefined;
  };
  /** Statement `i`'s result, kept and shown to the hook. */
  const ran = (i: number, result: StatementResult): void => {
    results.push(result);
    hook?.(i, { result });
  };
  const hooks = { selector: options.selector, rerank: options.rerank };
  // The clock as text, once per script (every statement's lowering stamps it).
  const nowText = clockText(now);
  // Statement i's clock: the run's, or with a tick, i ticks after it.
  const clocks: Date[] = [now];
  const tick = script.tick;
  const clockOf = (i: number): { now: Date; nowText: string } => {
    if (!tick) return { now, nowText };
    while (clocks.length <= i) clocks.push(addDuration(clocks[clocks.length - 1], tick, 1));
    return { now: clocks[i], nowText: formatUtc(clocks[i]) };
  };
  const bindings = new Map<string, Binding>();
  const offset = options.statementOffset ?? 0;
  // The run's trace id is stored only by writes: a script of reads does without the random one.
  let traceId = script.traceId;
  const irs = script.irs;
  // Runs of consecutive Encodes are executed together (executeEncodeRunIo), except in a plan
  // (`explain` lists each statement's own SQL) and where the caller asks for one at a time.
  // A hook sees each statement's effects on their own, and statements on their own run apart.
  const runs = options.batch !== false && !options.dryRun && !hook && !apart && store.dialect.insertReturning !== undefined;
  // A statement the run's lowering stopped at, lowered: the loop takes it from there.
  let carried: { readonly index: number; readonly ir: IR; readonly lowered: LowerResult } | undefined;
  for (let i = 0; i < irs.length; i++) {
    const refusedBefore = script.refused.get(i);
    if (refusedBefore) {
      const stop = refuse(i, refusedBefore);
      if (stop) return stop;
      continue;
    }
    let ir: IR;
    let lowered: LowerResult;
    if (carried?.index === i) {
      ({ ir, lowered } = carried);
      carried = undefined;
    } else {
      // References (`$n`) become the ids their binding holds, now that the statements before ran.
      const resolved = resolveRefs(irs[i], bindings, offset);
      if (!resolved.ok) {
        const stop = refuse(i, locateAll(resolved.diagnostics, i, maps));
        if (stop) return stop;
        continue;
      }
      ir = resolved.ir;
      if (traceId === undefined && ir.op !== 'Retrieve' && ir.op !== 'Summarize') traceId = newTraceId();
      // Not frozen: the operation goes straight to execution and nowhere else.
      lowered = lowerIr(ir, { ...clockOf(i), actor: options.actor, tenant: script.tenant, traceId, statement: offset + i, freeze: false });
    }
    if (!lowered.ok) {
      const stop = refuse(i, locateAll(lowered.diagnostics, i, maps));
      if (stop) return stop;
      continue;
    }
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
        const next = lowerIr(irs[j], { ...clockOf(j), actor: options.actor, tenant: script.tenant, traceId, statement: offset + j, freeze: false });
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
    // On its own, a statement is its own savepoint: a refusal undoes it alone.
    const outcome = op.dryRun
      ? yield* store.transactionIo(function* () { return { commit: false, value: yield* executeOperationIo(store, op, i, limits, hooks) }; })
      : apart
        ? yield* store.transactionIo(function* () { const o = yield* executeOperationIo(store, op, i, limits, hooks); return { commit: o.ok, value: o }; })
        : yield* executeOperationIo(store, op, i, limits, hooks);
    if (!outcome.ok && op.dryRun) {
      // A dry run asks what the statement would do; "it would be refused" is that answer, so
      // the refusal is reported in its result (and as a warning) and the script goes on.
      const refused = locate(outcome.diagnostics[0], i, maps);
      const warning: Diagnostic = { ...refused, severity: 'warning', message: `dry run: this statement would be refused: ${refused.message}` };
      warnings.push(warning);
      ran(i, { index: i, op: op.kind, ids: [], changes: [], warnings: [warning], sql: [], dryRun: true, refused });
      continue;
    }
    if (!outcome.ok) {
      const stop = refuse(i, locateAll(outcome.diagnostics, i, maps));
      if (stop) return stop;
      continue;
    }
    if (ir._let !== undefined) bindings.set(ir._let, { ids: boundIds(ir.op, outcome.result), statement: i, op: ir.op });
    if (outcome.result.warnings.length) warnings.push(...locateAll(outcome.result.warnings, i, maps));
    ran(i, options.dryRun && !outcome.result.dryRun ? { ...outcome.result, dryRun: true } : outcome.result);
  }
  return { commit: !options.dryRun, value: { ok: refusals.length === 0, results, diagnostics: refusals.length ? [...warnings, ...refusals] : warnings } as RunResult };
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
function resolveRefs(ir: IR, bindings: ReadonlyMap<string, Binding>, offset: number): { ok: true; ir: IR } | { ok: false; diagnostics: Diagnostic[] } {
  const refs = refsOf(ir);
  if (refs.length === 0) return { ok: true, ir };
  const diagnostics: Diagnostic[] = [];
  const idsOf = (name: string, path: string): string[] => {
    const b = bindings.get(name);
    const ids = b?.ids.map(String) ?? [];
    if (ids.length === 0) {
      const by = b ? `statement ${offset + b.statement + 1} (${b.op}) bound no ids to it` : 'no earlier statement bound it';
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

