/**
 * `t2m bench --db <store>`: where each benchmark sample runs. By default, and for an SQLite file
 * (the benchmark never needs one), one in-memory SQLite store on the native driver
 * (better-sqlite3), each sample in a transaction rolled back after it; `:memory:`, the same on
 * sql.js (wasm, as the browser runs it). On PGlite or a server, one connection and a fresh schema
 * per sample (`t2m_bench_<pid>_<n>`, prepared as a store, dropped after the sample). Node only
 * (the native driver): imported by `t2m bench`, never by ./index.ts, which the browser may run.
 */
import { openMemoryStore } from '../dialect/sqlite/native.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { AsyncSqlDriver } from '../store/driver.js';
import { Store } from '../store/store.js';
import type { StoreUrl } from '../store/url.js';
import type { BenchBackend } from './index.js';

export interface OpenBackend {
  /** A store per sample (PostgreSQL). */
  readonly backend?: BenchBackend;
  /** The empty store every sample shares, each rolled back (the runner closes it); neither: sql.js's. */
  readonly store?: Store;
  /** Why the default could not be had (native SQLite did not load), for stderr. */
  readonly note?: string;
  close(): Promise<void>;
}

/** The backend for `url` (none given: the default), or a diagnostic (an unreachable server). */
export async function benchBackend(url?: StoreUrl): Promise<OpenBackend | Diagnostic> {
  if (url === undefined || url.kind === 'file') {
    try {
      return { store: openMemoryStore(), close: async () => {} };
    } catch (e) {
      // better-sqlite3 is a native addon: where it was not built, the same run on sql.js.
      return { note: `native SQLite is not available (${(e as Error).message.split('\n')[0]}); the samples run on sql.js`, close: async () => {} };
    }
  }
  if (url.kind === 'memory') return { close: async () => {} };
  // Loaded only for PostgreSQL: pg and PGlite are large.
  const { connectPostgres } = await import('../dialect/postgres/store.js');
  const driver = await connectPostgres(url);
  if ('code' in driver) return driver;
  return { backend: schemaPerSample(driver, (url.kind === 'postgres' ? url.schema : undefined) ?? 'public'), close: () => driver.close() };
}

/** A fresh schema per sample on one PostgreSQL connection. */
export function schemaPerSample(driver: AsyncSqlDriver, home = 'public'): BenchBackend {
  const name = (i: number) => `"t2m_bench_${process.pid}_${i}"`;
  // The driver outlives each sample's store: a Store's close would close it.
  const shared: AsyncSqlDriver = Object.create(driver, { close: { value: async () => {} } });
  return {
    async open(i) {
      // Loaded only for PostgreSQL, like the driver (the default backend never needs them).
      const { postgresDialectOf, preparePostgresStore } = await import('../dialect/postgres/open.js');
      await driver.exec(`DROP SCHEMA IF EXISTS ${name(i)} CASCADE; CREATE SCHEMA ${name(i)}; SET search_path TO ${name(i)}, public`);
      const dialect = await postgresDialectOf(driver);
      const problems = await preparePostgresStore(driver, { dialect });
      if (problems.length) throw new Error(`internal: cannot prepare a benchmark schema: ${problems.map((p) => p.message).join('; ')}`);
      return new Store(shared, { dialect }) as Store<AsyncSqlDriver>;
    },
    async release(_store, i) {
      await driver.exec(`SET search_path TO "${home.replace(/"/g, '""')}", public; DROP SCHEMA IF EXISTS ${name(i)} CASCADE`);
    },
  };
}
