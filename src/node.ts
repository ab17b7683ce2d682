/**
 * The Node entry, `text2mem/node`: everything `text2mem` exports, plus store files on disk
 * (`loadStoreFile`, `saveStoreFile`, which use node:fs). The main entry imports no `node:` module,
 * so browsers and bundlers can take it as is; test/package/entries.test.ts keeps it that way.
 */
export * from './index.js';
export { loadStoreFile, saveStoreFile } from './engine/file-store.js';
