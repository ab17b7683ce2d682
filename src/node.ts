/**
 * The Node entry, `text2mem/node`: everything `text2mem` exports, plus stores outside the
 * browser: store files on disk through the native SQLite driver (better-sqlite3), PGlite and
 * PostgreSQL servers, and one way to name any of them (`openStoreUrl('pglite:./dir')`). The main
 * entry imports no `node:` module, no native addon and no PostgreSQL client, so browsers and
 * bundlers can take it as is; test/package/entries.test.ts and test/store/browser-safe.test.ts
 * keep it that way.
 */
export * from './index.js';
export { loadStoreFile, saveStoreFile } from './engine/file-store.js';
export { openStoreFile, NativeDriver, classify as classifyStoreError, DEFAULT_BUSY_TIMEOUT_MS, type StoreFileOptions } from './node/sqlite-file.js';
export { STORE_FORMAT, STORE_VERSION } from './execute/store.js';
export type { SqlDriver, AsyncSqlDriver, AnySqlDriver } from './execute/driver.js';
export { parseStoreUrl, describeStoreUrl, type StoreUrl } from './node/store-url.js';
export { openStoreUrl, storeError, type AnyStore, type OpenStoreUrlOptions, type StoreUrlOpenResult } from './node/open-store.js';
export { openPostgresStore, withSerializableRetry, type PostgresStore, type PostgresTarget } from './postgres/store.js';
export { PgliteDriver } from './postgres/pglite-driver.js';
export { openAIEmbedder, type OpenAIEmbedderOptions } from './retrieve/embeddings.js';
export { reindexStore, type ReindexOptions, type ReindexResult } from './execute/reindex.js';
export type { AnyEmbedder, EmbedResult, RemoteEmbedder } from './retrieve/text.js';
export { PgDriver } from './postgres/pg-driver.js';
export { postgres as postgresDialect } from './compile/dialects/postgres.js';
