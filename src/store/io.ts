/**
 * The engine's async seam ("sans-IO"). The engine (src/execute/, src/engine/index.ts)
 * never calls a driver: its functions that touch the database are generators that *yield* the
 * queries they need and receive the answers, e.g.
 *
 *     const rows = yield* all(sql, params);   // rows: SqlRow[]
 *
 * (`all` only wraps the yield; the engine's hot paths yield the `Query` object themselves, since
 * every generator level a query passes through is resumed once per query.) Whoever holds the
 * driver answers them: `driveSync` at once, for the synchronous SQLite drivers
 * (sql.js, better-sqlite3: `run`, `sweep`… stay synchronous), `driveAsync` after an await, for
 * the asynchronous PostgreSQL drivers (the same `run`, `sweep`…, answered with promises). One engine code path serves
 * both. Transactions go through the same seam (`begin`, `commit`, `rollback`, and savepoints as
 * `exec`); a failed query is thrown back into the generator at its `yield`, so its `finally`
 * blocks roll back exactly as synchronous code would. See spec/storage.md ("The async seam").
 *
 * Embeddings go through the same seam (`embed`): the store's embedder answers, at once when it is
 * local; a remote one (an embeddings server) is awaited by `driveAsync`, and `driveSync`, which
 * cannot wait, answers with a `store-is-async` diagnostic. An embedder's failure is an answer
 * (`ok: false` with diagnostics), never an exception: the engine refuses the statement.
 */
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { AnySqlDriver, AsyncSqlDriver, SqlDriver, SqlParams, SqlRow } from './driver.js';
import { isAsyncDriver } from './driver.js';
import { isRemoteEmbedder, type AnyEmbedder, type EmbedResult } from '../text/text.js';

/** One request the engine makes of its driver. */
export type Query =
  | { readonly kind: 'all'; readonly sql: string; readonly params?: SqlParams }
  | { readonly kind: 'run'; readonly sql: string; readonly params?: SqlParams }
  /**
   * Writes run one after another, in order, whose answers the engine does not read (an Update's
   * per-row UPDATEs): one request instead of one per statement, so that a row's write does not
   * pass through every generator level of the chain. The same statements reach the driver, in the
   * same order; a failure is thrown back at this request (the ones before it have run).
   */
  | { readonly kind: 'runs'; readonly statements: readonly { readonly sql: string; readonly params?: SqlParams }[] }
  | { readonly kind: 'exec'; readonly sql: string }
  | { readonly kind: 'begin' | 'commit' | 'rollback' }
  | { readonly kind: 'embed'; readonly texts: readonly string[] }
  /**
   * A caller's hook (a reranker, src/retrieve/rerank.ts): `call` is answered with what it returns,
   * awaited by `driveAsync`; told whether a promise may be returned (not on `driveSync`).
   */
  | { readonly kind: 'call'; readonly call: (canWait: boolean) => unknown };

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

/** The store embedder's vectors for `texts` (unit length, in order), or the diagnostics of its failure. */
export function* embed(texts: readonly string[]): Io<EmbedResult> {
  return (yield { kind: 'embed', texts }) as EmbedResult;
}

/** A value as an Io (for code paths that need no query). */
// eslint-disable-next-line require-yield
export function* pure<T>(value: T): Io<T> {
  return value;
}

/** The driver's (or the embedder's) answer to one query: a value when ready at once, a promise otherwise. */
function answer(driver: AnySqlDriver, q: Query, embedder: AnyEmbedder | undefined, canWait: boolean): unknown {
  switch (q.kind) {
    case 'all': return driver.all(q.sql, q.params);
    case 'run': return driver.run(q.sql, q.params);
    case 'runs': return isAsyncDriver(driver) ? runsAsync(driver, q.statements) : runsSync(driver, q.statements);
    case 'exec': return driver.exec(q.sql);
    case 'begin': return driver.begin();
    case 'commit': return driver.commit();
    case 'rollback': return driver.rollback();
    case 'embed': return embedWith(embedder, q.texts, canWait);
    case 'call': return q.call(canWait);
  }
}

function runsSync(driver: SqlDriver, statements: readonly { readonly sql: string; readonly params?: SqlParams }[]): undefined {
  for (let i = 0; i < statements.length; i++) driver.run(statements[i].sql, statements[i].params);
  return undefined;
}

async function runsAsync(driver: AsyncSqlDriver, statements: readonly { readonly sql: string; readonly params?: SqlParams }[]): Promise<undefined> {
  // One after another, as separate requests would be (never in parallel on one connection).
  for (let i = 0; i < statements.length; i++) await driver.run(statements[i].sql, statements[i].params);
  return undefined;
}

function embedWith(embedder: AnyEmbedder | undefined, texts: readonly string[], canWait: boolean): EmbedResult | Promise<EmbedResult> {
  if (!embedder) throw new Error('internal: an embed request driven without an embedder');
  if (!isRemoteEmbedder(embedder)) {
    return { ok: true, vectors: texts.map((t) => { const v = embedder.embed(t); return v instanceof Float32Array ? v : Float32Array.from(v); }) };
  }
  if (!canWait) {
    return { ok: false, diagnostics: [diagnostic('store-is-async', `the store's embedding model ${embedder.model} is remote (answered asynchronously): drive the store asynchronously (run or a Session does)`)] };
  }
  return embedder.embedMany(texts).catch((e: unknown): EmbedResult => ({
    ok: false,
    diagnostics: [diagnostic('embeddings-unreachable', `the embedding model ${embedder.model} failed: ${(e as Error)?.message ?? String(e)}`)],
  }));
}

/** Runs `io` on a synchronous driver, answering each query at once (embeddings by `embedder`, which must be local). */
export function driveSync<T>(driver: SqlDriver, io: Io<T>, embedder?: AnyEmbedder): T {
  let step = io.next();
  while (!step.done) {
    let value: unknown;
    try {
      value = answer(driver, step.value, embedder, false);
    } catch (e) {
      step = io.throw(e);
      continue;
    }
    step = io.next(value);
  }
  return step.value;
}

/** Runs `io` on either kind of driver, awaiting each answer (a synchronous driver's is ready at once; so is a local embedder's). */
export async function driveAsync<T>(driver: AnySqlDriver, io: Io<T>, embedder?: AnyEmbedder): Promise<T> {
  const sync = !isAsyncDriver(driver);
  let step = io.next();
  while (!step.done) {
    let value: unknown;
    try {
      const q = step.value;
      value = q.kind === 'embed' || q.kind === 'call' ? await answer(driver, q, embedder, true) : sync ? answer(driver, q, embedder, true) : await answer(driver, q, embedder, true);
    } catch (e) {
      step = io.throw(e);
      continue;
    }
    step = io.next(value);
  }
  return step.value;
}
