/**
 * The Node entry of text2mem: everything in the browser-safe entry, plus store files on the
 * native SQLite driver (better-sqlite3), which the browser build must never import.
 */
export * from './index.js';
export { openStoreFile, NativeDriver, classify as classifyStoreError, DEFAULT_BUSY_TIMEOUT_MS, type StoreFileOptions } from './node/sqlite-file.js';
export { STORE_FORMAT, STORE_VERSION, type SqlDriver } from './execute/index.js';
