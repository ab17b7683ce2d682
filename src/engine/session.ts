/**
 * A session: one store and the caller's identity (actor, tenant, impersonation) and settings
 * (clock, limits, checker policy, experience selector). Every operation on a store goes through
 * it — the CLI, the MCP server, the planner's dry runs, the playground and the benchmark — and it
 * owns what each of them would otherwise assemble: the transaction (one per operation, the sweep
 * and the script in the same one), and the rerun of a transaction PostgreSQL aborted for a
 * serialization failure.
 *
 * Each operation is one generator of queries (src/store/io.ts) driven by the store: at once on a
 * synchronous driver (SQLite: sql.js, better-sqlite3), so the result comes back as a value; after
 * an await on an asynchronous one (PostgreSQL), or when the store's embedding model is remote, so
 * the result comes back as a promise (`Outcome`). `await` works on both.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { CheckedScript } from '../pipeline.js';
import { isAsyncDriver, type AnySqlDriver, type AsyncSqlDriver } from '../store/driver.js';
import { pure, type Io } from '../store/io.js';
import type { Store } from '../store/store.js';
import { isRemoteEmbedder } from '../text/text.js';
import { isRemoteReranker } from '../retrieve/rerank.js';
import { auditLogIo, undoIo, type AuditRecord, type UndoOptions, type UndoResult } from './audit.js';
import { DEFAULT_TENANT } from './caller.js';
import { prepareScript, scriptIo, type RunOptions, type RunResult } from './script.js';
import { sweepIo, type SweepResult } from './sweep.js';
import { whyIo, type WhyResult } from './why.js';

/** An operation's result: a value on a synchronous store, a promise on an asynchronous one. */
export type Outcome<D extends AnySqlDriver, T> = D extends AsyncSqlDriver ? Promise<T> : T;

/** Who calls and how: fixed for the session (a `run` may still give its own `now`, trace id, source maps). */
export type SessionOptions = Omit<RunOptions, 'dryRun' | 'sourceMaps' | 'traceId' | 'batch' | 'onStatement' | 'statementOffset'> & {
  /** Transactions PostgreSQL aborts for a serialization failure or a deadlock are run again, this many times in all (default 10). */
  readonly attempts?: number;
  /** Called before each rerun (tests count them). */
  readonly onRetry?: (attempt: number, e: Error) => void;
};

/** What one `run` may add to the session's options. */
export type ScriptOptions = Partial<Pick<RunOptions, 'now' | 'dryRun' | 'sourceMaps' | 'traceId' | 'batch' | 'selector' | 'onStatement' | 'statementwise' | 'statementOffset'>> & {
  /** First apply due expiry actions, in the same transaction as the script (`t2m run --sweep`). */
  readonly sweep?: boolean;
};

export interface SessionRunResult extends RunResult {
  /** What the sweep did, when `sweep` was asked for. */
  readonly swept?: SweepResult;
}

export type SweepOutcome = SweepResult | { readonly diagnostics: Diagnostic[] };
export type WhyOutcome = WhyResult | { readonly ok: false; readonly diagnostics: Diagnostic[] };

export class Session<D extends AnySqlDriver = AnySqlDriver> {
  constructor(readonly store: Store<D>, readonly options: SessionOptions = {}) {}

  /**
   * Runs a script — a `CheckedScript` from the front end, or IR values, which go through the same
   * validation and checker first — as one transaction: validate → check → lower against the clock
   * → compile → execute, in order. A refusal before anything runs, or the first statement that
   * lowering or execution refuses, rolls everything back: `ok: false` with error diagnostics
   * naming the statement (and its span when source maps are given); warnings ride along. A
   * statement with `meta.dry_run` reports its plan and would-be ids, and its effects are undone.
   */
  run(input: CheckedScript | readonly unknown[], script: ScriptOptions = {}): Outcome<D, SessionRunResult> {
    const body = this.scriptBody(input, script);
    return typeof body === 'function' ? this.transact(body) : this.drive(pure(body));
  }

  /**
   * `run` as queries (src/store/io.ts), for a caller that drives several scripts inside a
   * transaction of its own (the benchmark runs a sample's prerequisites, then its gold
   * statements, each `statementwise`, inside the sample's).
   */
  *runIo(input: CheckedScript | readonly unknown[], script: ScriptOptions = {}): Io<SessionRunResult> {
    const body = this.scriptBody(input, script);
    return typeof body === 'function' ? yield* body() : body;
  }

  /** The script's transaction (made anew for each attempt), or its refusal before anything runs. */
  private scriptBody(input: CheckedScript | readonly unknown[], script: ScriptOptions): (() => Io<SessionRunResult>) | SessionRunResult {
    const options: RunOptions = { ...this.options, ...script };
    const prepared = prepareScript(input, options);
    if (!prepared.ok) return prepared.refused;
    const store = this.store as Store<AnySqlDriver>;
    // Without a sweep the script is the transaction's body itself: every query passes through
    // one generator fewer (the benchmark runs thousands of short scripts).
    if (script.sweep !== true) return () => store.transactionIo(() => scriptIo(store, prepared, options));
    const actor = options.actor;
    return () => store.transactionIo<SessionRunResult>(function* () {
      const swept = yield* sweepIo(store, prepared.now, actor ?? 'system:sweep', prepared.tenant);
      if ('diagnostics' in swept) return { commit: false, value: { ok: false, results: [], diagnostics: swept.diagnostics } };
      const ran = yield* scriptIo(store, prepared, options);
      return { commit: ran.commit, value: { ...ran.value, swept } };
    });
  }

  /** The plan of a script: runs it and rolls it back, returning each statement's SQL and would-be ids. */
  explain(input: CheckedScript | readonly unknown[], script: Omit<ScriptOptions, 'dryRun' | 'sweep'> = {}): Outcome<D, SessionRunResult> {
    return this.run(input, { ...script, dryRun: true });
  }

  /**
   * Applies the expiry action of every record whose `expire_at` has passed, as one transaction
   * with one audit entry; records under a lock that refuses Expire are skipped until it lapses.
   */
  sweep(now: Date | string = this.options.now ?? new Date()): Outcome<D, SweepOutcome> {
    const store = this.store as Store<AnySqlDriver>;
    return this.transact(() => sweepIo(store, now, this.options.actor ?? 'system:sweep', this.tenant));
  }

  /**
   * Undoes audit entry `auditId`: its soft deletes (a soft Delete, a Merge's or Split's retired
   * records, a sweep's soft_delete) become live again, or a feedback entry's rewards are taken
   * back out; locks and write permissions apply as to any write.
   */
  undo(auditId: number, now: Date | string | undefined = this.options.now): Outcome<D, UndoResult> {
    const options: UndoOptions = { now, actor: this.options.actor, tenant: this.tenant };
    return this.transact(() => undoIo(this.store as Store<AnySqlDriver>, auditId, options));
  }

  /** The tenant's audit log, oldest first (or the one entry `id`). */
  auditLog(id?: number): Outcome<D, AuditRecord[]> {
    return this.drive(auditLogIo(this.store as Store<AnySqlDriver>, id, this.tenant));
  }

  /** Why record `id` is what it is: its provenance, the versions it superseded and their audit entries. */
  why(id: number): Outcome<D, WhyOutcome> {
    return this.drive(whyIo(this.store as Store<AnySqlDriver>, id, { tenant: this.tenant }));
  }

  private get tenant(): string {
    return this.options.tenant ?? DEFAULT_TENANT;
  }

  /** Whether the store answers asynchronously: a PostgreSQL driver, a remote embedding model or a remote reranker. */
  private get waits(): boolean {
    return isAsyncDriver(this.store.driver) || isRemoteEmbedder(this.store.embedder) || isRemoteReranker(this.options.rerank);
  }

  private drive<T>(io: Io<T>): Outcome<D, T> {
    const store = this.store as Store<AnySqlDriver>;
    return (this.waits ? store.driveAsync(io) : (store as Store).drive(io)) as Outcome<D, T>;
  }

  /**
   * Drives a transaction; on an asynchronous store, one PostgreSQL aborted for a serialization
   * failure or a deadlock (the dialect says which errors those are) is rolled back already and
   * run again after a short random back-off: safe, since the clock and the identity come from
   * the caller. The last failure is rethrown.
   */
  private transact<T>(io: () => Io<T>): Outcome<D, T> {
    if (!this.waits) return this.drive(io());
    const store = this.store as Store<AnySqlDriver>;
    const retryable = store.dialect.retryable;
    const attempts = this.options.attempts ?? 10;
    const onRetry = this.options.onRetry;
    return (async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await store.driveAsync(io());
        } catch (e) {
          if (!retryable?.(e) || attempt >= attempts) throw e;
          onRetry?.(attempt, e as Error);
          await new Promise((r) => setTimeout(r, Math.random() * 5 * 2 ** Math.min(attempt, 6)));
        }
      }
    })() as Outcome<D, T>;
  }
}

// One entry per operation for a caller that needs no session of its own (each makes one).

/** `new Session(store, options).run(input, options)`. */
export function run<D extends AnySqlDriver>(store: Store<D>, input: CheckedScript | readonly unknown[], options: RunOptions = {}): Outcome<D, RunResult> {
  return new Session(store, options).run(input, options);
}

/** `run` under dry run: the plan, nothing changed. */
export function explain<D extends AnySqlDriver>(store: Store<D>, input: CheckedScript | readonly unknown[], options: Omit<RunOptions, 'dryRun'> = {}): Outcome<D, RunResult> {
  return new Session(store, options).explain(input, options);
}

export function sweep<D extends AnySqlDriver>(store: Store<D>, now: Date | string = new Date(), actor = 'system:sweep', tenant: string = DEFAULT_TENANT): Outcome<D, SweepOutcome> {
  return new Session(store, { actor, tenant }).sweep(now);
}

/** `actor` is the caller's (trusted) actor: undo is refused when a lock or the record's write permissions refuse it. */
export function undo<D extends AnySqlDriver>(store: Store<D>, auditId: number, options: UndoOptions = {}): Outcome<D, UndoResult> {
  return new Session(store, { actor: options.actor, tenant: options.tenant }).undo(auditId, options.now);
}

export function auditLog<D extends AnySqlDriver>(store: Store<D>, id?: number, tenant: string = DEFAULT_TENANT): Outcome<D, AuditRecord[]> {
  return new Session(store, { tenant }).auditLog(id);
}

export function why<D extends AnySqlDriver>(store: Store<D>, id: number, options: { tenant?: string } = {}): Outcome<D, WhyOutcome> {
  return new Session(store, { tenant: options.tenant }).why(id);
}
