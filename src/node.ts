/**
 * The Node entry, `text2mem/node`: everything `text2mem` exports, plus stores outside the
 * browser: store files on disk through the native SQLite driver (better-sqlite3), PGlite and
 * PostgreSQL servers, and one way to name any of them (`openStoreUrl('pglite:./dir')`). The main
 * entry imports no `node:` module, no native addon and no PostgreSQL client, so browsers and
 * bundlers can take it as is; test/package/entries.test.ts and test/store/browser-safe.test.ts
 * keep it that way.
 */
export * from './index.js';
export {
  openStoreFile, loadStoreFile, saveStoreFile, NativeDriver, classify as classifyStoreError, DEFAULT_BUSY_TIMEOUT_MS, type StoreFileOptions,
} from './dialect/sqlite/native.js';
export { STORE_FORMAT, STORE_VERSION } from './store/format.js';
export type { SqlDriver, AsyncSqlDriver, AnySqlDriver } from './store/driver.js';
export { parseStoreUrl, describeStoreUrl, type StoreUrl } from './store/url.js';
export { openStoreUrl, storeError, type AnyStore, type OpenStoreUrlOptions, type StoreUrlOpenResult } from './dialect/open-url.js';
export { openPostgresStore, type PostgresStore, type PostgresTarget } from './dialect/postgres/store.js';
export { PgliteDriver } from './dialect/postgres/pglite-driver.js';
export { openAIEmbedder, type OpenAIEmbedderOptions } from './retrieve/embeddings.js';
export { reindexStore, type ReindexOptions, type ReindexResult } from './execute/reindex.js';
export type { AnyEmbedder, EmbedResult, RemoteEmbedder } from './text/text.js';
export { PgDriver } from './dialect/postgres/pg-driver.js';
export { postgres as postgresDialect } from './dialect/postgres/dialect.js';
