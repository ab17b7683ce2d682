/**
 * The engine API: a `Session` over a store (or the one-call entries `run`, `explain`, `sweep`,
 * `undo`, `auditLog`, `why`, each making one), and `createStore` for a fresh in-memory store.
 * No Node APIs here; store files and PostgreSQL are opened through the Node entry (src/node.ts).
 */
import { openStore, type Store, type StoreOptions } from '../execute/store.js';

export { Session, run, explain, sweep, undo, auditLog, why, type Outcome, type SessionOptions, type ScriptOptions, type SessionRunResult, type SweepOutcome, type WhyOutcome } from './session.js';
export type { RunOptions, RunResult } from './script.js';
export { ANONYMIZED_TEXT, type SweepResult } from './sweep.js';
export type { AuditRecord, UndoOptions, UndoResult } from './audit.js';
export type { Provenance, WhyResult } from './why.js';
export { DEFAULT_TENANT } from './caller.js';
export { DEFAULT_LIMITS, type Limits } from './limits.js';
export { Store, openStore, loadSqlJs, type StoreOptions, type StoreParts, type OpenResult } from '../execute/store.js';
export type { AnySqlDriver, AsyncSqlDriver, SqlDriver } from '../execute/driver.js';
export { isAsyncDriver } from '../execute/driver.js';
export type { Io, Query } from '../execute/io.js';
export type { StatementResult, Change } from '../execute/rows.js';
export {
  utilitySelector, similaritySelector, utilityScore, feedbackValues, confidence, UTILITY_PRIOR, UTILITY_WEIGHT, UTILITY_CONFIDENCE_HALF,
  type Selector, type SelectorInput, type SelectorChoice, type Candidate, type ExperienceReport, type CandidateReport,
} from '../experience/experience.js';
export { HashEmbedder, NgramEmbedder, ExtractiveSummarizer, type Embedder, type Summarizer } from '../retrieve/text.js';
export type { ScoreExplanation } from '../retrieve/search.js';
export type { SqlStatement } from '../compile/index.js';

/** A fresh empty store (or one over trusted bytes; use `openStore` for bytes that may be foreign or corrupt). */
export async function createStore(options: StoreOptions = {}): Promise<Store> {
  const opened = await openStore(options);
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return opened.store;
}
