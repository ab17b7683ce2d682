/**
 * The Node entry, `text2mem/node`: everything `text2mem` exports, plus store files on disk through
 * the native SQLite driver (better-sqlite3). The main entry imports no `node:` module and no native
 * addon, so browsers and bundlers can take it as is; test/package/entries.test.ts and
 * test/store/browser-safe.test.ts keep it that way.
 */
export * from './index.js';
export { loadStoreFile, saveStoreFile } from './engine/file-store.js';
export { openStoreFile, NativeDriver, classify as classifyStoreError, DEFAULT_BUSY_TIMEOUT_MS, type StoreFileOptions } from './node/sqlite-file.js';
export { STORE_FORMAT, STORE_VERSION } from './execute/store.js';
export type { SqlDriver } from './execute/driver.js';
