/**
 * The engine's async seam ("sans-IO"). The engine (src/execute/execute.ts, src/engine/index.ts)
 * never calls a driver: its functions that touch the database are generators that *yield* the
 * queries they need and receive the answers, e.g.
 *
 *     const rows = yield* all(sql, params);   // rows: SqlRow[]
 *
 * Whoever holds the driver answers them: `driveSync` at once, for the synchronous SQLite drivers
 * (sql.js, better-sqlite3: `run`, `sweep`… stay synchronous), `driveAsync` after an await, for
 * the asynchronous PostgreSQL drivers (`runAsync`, `sweepAsync`…). One engine code path serves
 * both. Transactions go through the same seam (`begin`, `commit`, `rollback`, and savepoints as
 * `exec`); a failed query is thrown back into the generator at its `yield`, so its `finally`
 * blocks roll back exactly as synchronous code would. See spec/storage.md ("The async seam").
 */
import type { AnySqlDriver, SqlDriver, SqlParams, SqlRow } from './driver.js';
import { isAsyncDriver } from './driver.js';

/** One request the engine makes of its driver. */
export type Query =
  | { readonly kind: 'all'; readonly sql: string; readonly params?: SqlParams }
  | { readonly kind: 'run'; readonly sql: string; readonly params?: SqlParams }
  | { readonly kind: 'exec'; readonly sql: string }
  | { readonly kind: 'begin' | 'commit' | 'rollback' };

/** A computation that yields queries and returns a T once they are answered. */
export type Io<T> = Generator<Query, T, unknown>;

/** Rows of a query. */
export function* all(sql: string, params?: SqlParams): Io<SqlRow[]> {
  return (yield { kind: 'all', sql, params }) as SqlRow[];
}

/** A write: the number of rows it changed. */
export function* run(sql: string, params?: SqlParams): Io<number> {
  return (yield { kind: 'run', sql, params }) as number;
}

/** SQL text without parameters (may hold several statements). */
export function* exec(sql: string): Io<void> {
  yield { kind: 'exec', sql };
}

export function* begin(): Io<void> {
  yield { kind: 'begin' };
}

export function* commit(): Io<void> {
  yield { kind: 'commit' };
}

export function* rollback(): Io<void> {
  yield { kind: 'rollback' };
}

/** A value as an Io (for code paths that need no query). */
// eslint-disable-next-line require-yield
export function* pure<T>(value: T): Io<T> {
  return value;
}

/** The driver's answer to one query: a value from a synchronous driver, a promise from an asynchronous one. */
function answer(driver: AnySqlDriver, q: Query): unknown {
  switch (q.kind) {
    case 'all': return driver.all(q.sql, q.params);
    case 'run': return driver.run(q.sql, q.params);
    case 'exec': return driver.exec(q.sql);
    case 'begin': return driver.begin();
    case 'commit': return driver.commit();
    case 'rollback': return driver.rollback();
  }
}

/** Runs `io` on a synchronous driver, answering each query at once. */
export function driveSync<T>(driver: SqlDriver, io: Io<T>): T {
  let step = io.next();
  while (!step.done) {
    let value: unknown;
    try {
      value = answer(driver, step.value);
    } catch (e) {
      step = io.throw(e);
      continue;
    }
    step = io.next(value);
  }
  return step.value;
}

/** Runs `io` on either kind of driver, awaiting each answer (a synchronous driver's is ready at once). */
export async function driveAsync<T>(driver: AnySqlDriver, io: Io<T>): Promise<T> {
  const sync = !isAsyncDriver(driver);
  let step = io.next();
  while (!step.done) {
    let value: unknown;
    try {
      value = sync ? answer(driver, step.value) : await answer(driver, step.value);
    } catch (e) {
      step = io.throw(e);
      continue;
    }
    step = io.next(value);
  }
  return step.value;
}
