/**
 * The engine API: a `Session` over a store (or the one-call entries `run`, `explain`, `sweep`,
 * `undo`, `auditLog`, `why`, each making one), on a Store (src/store/) that a dialect opened
 * (`createStore` in src/dialect/sqlite/store.ts). No backend and no Node API here.
 */

export { Session, run, explain, sweep, undo, auditLog, why, type Outcome, type SessionOptions, type ScriptOptions, type SessionRunResult, type SweepOutcome, type WhyOutcome } from './session.js';
export type { RunOptions, RunResult, StatementOutcome } from './script.js';
export { ANONYMIZED_TEXT, type SweepResult } from './sweep.js';
export type { AuditRecord, UndoOptions, UndoResult } from './audit.js';
export type { Provenance, WhyResult } from './why.js';
export { DEFAULT_TENANT } from './caller.js';
export { DEFAULT_LIMITS, type Limits } from './limits.js';
export { Store, type StoreParts, type OpenResult } from '../store/store.js';
export type { AnySqlDriver, AsyncSqlDriver, SqlDriver } from '../store/driver.js';
export { isAsyncDriver } from '../store/driver.js';
export type { Io, Query } from '../store/io.js';
export type { StatementResult, Change } from '../execute/rows.js';
export {
  utilitySelector, similaritySelector, utilityScore, feedbackValues, confidence, UTILITY_PRIOR, UTILITY_WEIGHT, UTILITY_CONFIDENCE_HALF,
  learnedSelector, statusReward, FEATURES, EXPLORATION, DEFAULT_THRESHOLD, RIDGE,
  type Selector, type SelectorInput, type SelectorChoice, type Candidate, type ExperienceReport, type CandidateReport, type TurnScorer, type ExecStatus, type FeatureName,
} from '../experience/experience.js';
export { HashEmbedder, NgramEmbedder, ExtractiveSummarizer, type Embedder, type Summarizer } from '../text/text.js';
export type { ScoreExplanation } from '../retrieve/search.js';
export type { SqlStatement } from '../compile/index.js';
