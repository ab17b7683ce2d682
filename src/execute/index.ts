export { Store, openStore, loadSqlJs, STORE_FORMAT, STORE_VERSION, type StoreOptions, type OpenResult, type SqlDriver, type SqlParams, type SqlRow } from './store.js';
export { executeOperation, type StatementResult, type Change, type ExecuteResult, type Row } from './execute.js';
export { HashEmbedder, ExtractiveSummarizer, type Embedder, type Summarizer } from './text.js';
