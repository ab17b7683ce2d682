/**
 * `t2m bench --db <store>`: where each benchmark sample runs. On PGlite or a server, one
 * connection and a fresh schema per sample (`t2m_bench_<pid>_<n>`, prepared as a store, dropped
 * after the sample); for `:memory:` and SQLite files, the default: a fresh in-memory SQLite store
 * per sample (the benchmark never needs a file).
 */
import type { BenchBackend } from '../conformance/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { AsyncSqlDriver } from '../execute/driver.js';
import { Store } from '../execute/store.js';
import { postgresDialectOf, preparePostgresStore } from '../postgres/open.js';
import { connectPostgres } from '../postgres/store.js';
import type { StoreUrl } from './store-url.js';

export interface OpenBackend {
  readonly backend?: BenchBackend;
  close(): Promise<void>;
}

/** The backend for `url`, or a diagnostic (an unreachable server). */
export async function benchBackend(url: StoreUrl): Promise<OpenBackend | Diagnostic> {
  if (url.kind === 'memory' || url.kind === 'file') return { close: async () => {} };
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
