export { Store, openStore, loadSqlJs, STORE_FORMAT, type StoreOptions, type OpenResult } from './store.ts';
export { executeOperation, type StatementResult, type Change, type ExecuteResult, type Row } from './execute.ts';
export { HashEmbedder, ExtractiveSummarizer, type Embedder, type Summarizer } from './text.ts';
