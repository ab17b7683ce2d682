export { Store, openStore, loadSqlJs, STORE_FORMAT, type StoreOptions, type OpenResult } from './store.js';
export { executeOperation, type StatementResult, type Change, type ExecuteResult, type Row } from './execute.js';
export { HashEmbedder, ExtractiveSummarizer, type Embedder, type Summarizer } from './text.js';
