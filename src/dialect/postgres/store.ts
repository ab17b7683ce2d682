/**
 * PostgreSQL stores (Node only): opening one on PGlite or a server. Scripts run on it through a
 * Session, which reruns a transaction PostgreSQL aborted for a serialization failure
 * (spec/storage.md, "Concurrency on PostgreSQL"; the dialect's `retryable`). The engine is the
 * same as on SQLite; its operations answer a PostgreSQL store with promises.
 */
import type { Code, Diagnostic } from '../../diagnostics/diagnostic.js';
import type { AsyncSqlDriver } from '../../store/driver.js';
import { Store, type StoreParts } from '../../store/store.js';
import { postgresDialectOf, preparePostgresStore } from './open.js';
import { postgres, VECTOR_SEARCH_SETTINGS } from './dialect.js';
import { PgDriver, redactUrl } from './pg-driver.js';
import { PgliteDriver } from './pglite-driver.js';
import { serverKeywords } from './keywords.js';
import type { Dialect } from '../../store/dialect.js';
import type { KeywordRanking } from '../../retrieve/seam.js';

export type PostgresStore = Store<AsyncSqlDriver>;

export type PostgresOpenResult =
  | { readonly ok: true; readonly store: PostgresStore }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export type PostgresTarget =
  | { readonly kind: 'pglite'; readonly dataDir?: string; readonly schema?: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string; readonly connectTimeoutMs?: number };

export interface PostgresStoreOptions extends Omit<StoreParts, 'dialect'> {
  /** Only read (no tables created, no migration): `t2m audit`. */
  readonly readOnly?: boolean;
  /**
   * Who scores keyword searches: `engine` (the default), the engine's in-memory BM25 index loaded
   * from the store; `server`, BM25 in SQL on the database (./keywords.ts, spec/retrieval.md).
   */
  readonly keywords?: KeywordRanker;
}

/** The keyword rankers a PostgreSQL store may be opened with (`?keywords=` of its name). */
export type KeywordRanker = 'engine' | 'server';

const fail = (code: Code, message: string): Diagnostic => ({ code, severity: 'error', message });

export const isRetryable = (e: unknown): boolean => postgres.retryable!(e);

/** True for an error PostgreSQL (either driver) reported: it carries a five-character SQLSTATE. */
export function isPostgresError(e: unknown): e is Error & { code: string } {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((e as unknown as { code: string }).code);
}

/** A diagnostic for a connection error: the driver's one-line reason, never a stack or a password. */
export function unreachable(location: string, e: unknown): Diagnostic {
  const err = e as { code?: string; message?: string; errors?: { message?: string }[] };
  const reason = err.message || err.errors?.map((x) => x.message).filter(Boolean).join('; ') || err.code || String(e);
  const auth = err.code === '28P01' || err.code === '28000';
  const nodb = err.code === '3D000';
  const hint = auth ? ' (the server refused the login: check the user and password)'
    : nodb ? ' (create the database first, e.g. createdb)'
    : /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|timeout|ETIMEDOUT|EHOSTUNREACH/i.test(`${err.code} ${reason}`) ? ' (is the server running, and is the host and port right?)'
    : '';
  return fail('store-unreachable', `cannot reach the PostgreSQL store ${location}: ${reason.split('\n')[0]}${hint}`);
}

/** A diagnostic for a PostgreSQL error while a script ran (not a bug of ours: the server said no). */
export function classifyPostgresError(location: string, e: Error & { code?: string }): Diagnostic {
  if (isRetryable(e)) return fail('store-busy', `${location} is busy: the script kept conflicting with concurrent ones (${e.message}); nothing was changed`);
  if (e.code?.startsWith('08') || e.code === '57P01' || /Connection terminated|ECONNRESET/i.test(e.message)) return unreachable(location, e);
  if (e.code === '25006' || e.code === '42501') return fail('store-read-only', `${location} may not be written by this login (${e.message}); nothing was changed`);
  return fail('store-unwritable', `${location}: PostgreSQL refused a statement (${e.code ?? 'error'}: ${e.message}); nothing was changed`);
}

/** Connects the driver for `target`; a diagnostic when it cannot. */
export async function connectPostgres(target: PostgresTarget): Promise<AsyncSqlDriver | Diagnostic> {
  if (target.kind === 'pglite') {
    try {
      return await PgliteDriver.open({ dataDir: target.dataDir, schema: target.schema });
    } catch (e) {
      return fail('store-unreadable', `cannot open PGlite${target.dataDir !== undefined ? ` in ${target.dataDir}` : ''}: ${(e as Error).message}`);
    }
  }
  try {
    return await PgDriver.connect(target.url, { schema: target.schema, connectTimeoutMs: target.connectTimeoutMs });
  } catch (e) {
    return unreachable(redactUrl(target.url), e);
  }
}

/** Opens (or creates, in an empty schema) a store on PostgreSQL: PGlite or a server. */
export async function openPostgresStore(target: PostgresTarget, options: PostgresStoreOptions = {}): Promise<PostgresOpenResult> {
  const driver = await connectPostgres(target);
  if ('code' in driver) return { ok: false, diagnostics: [driver] };
  return openOnDriver(driver, options);
}

/** Prepares `driver`'s current schema as a store (closing the driver when it is refused). */
export async function openOnDriver(driver: AsyncSqlDriver, options: PostgresStoreOptions = {}): Promise<PostgresOpenResult> {
  let problems: Diagnostic[];
  let dialect;
  try {
    dialect = await postgresDialectOf(driver);
    problems = await preparePostgresStore(driver, { readOnly: options.readOnly, dialect, keywordIndexes: options.keywords === 'server' });
    if (dialect.vectors && !problems.length) await driver.all(VECTOR_SEARCH_SETTINGS);
  } catch (e) {
    await driver.close();
    if (!isPostgresError(e) && !/terminated|ECONN/i.test((e as Error).message)) throw e;
    return { ok: false, diagnostics: [classifyPostgresError(driver.location, e as Error)] };
  }
  if (problems.length) {
    await driver.close();
    return { ok: false, diagnostics: problems.map((d) => ({ ...d, message: `${driver.location} is ${d.message}` })) };
  }
  const { keywords, ...parts } = options;
  const chosen: Dialect & { keywords?: KeywordRanking } = keywords === 'server' ? { ...dialect, keywords: serverKeywords } : dialect;
  return { ok: true, store: new Store(driver, { ...parts, dialect: chosen }) };
}
