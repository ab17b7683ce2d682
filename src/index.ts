/**
 * The text2mem library: the stages and the chain that the CLI and the playground use.
 * See ARCHITECTURE.md for what each stage takes and produces.
 */
export * from './diagnostics/diagnostic.js';
export { CODES, isCode, type CodeInfo, type CodeStage } from './diagnostics/codes.js';
export { formatDiagnostic, formatDiagnostics, codeFrame } from './diagnostics/codeFrame.js';
export type { SourceMap } from './diagnostics/sourceMap.js';
export * from './ir/schema.js';
export { validateIr } from './ir/validate.js';
export { parse, tokenize, KEYWORDS, VERBS, visit, type Script, type Statement } from './syntax/index.js';
export { astToIr, irToAst, irsToScript } from './convert/index.js';
export { print } from './convert/index.js';
export { check, type Policy } from './check/index.js';
export { textToIr, irsToText, formatText, readInput, detectInput, checkIrs, type CheckedScript, type FrontEndResult, type InputKind } from './pipeline.js';
export {
  Session, run, explain, sweep, auditLog, undo, why, Store, DEFAULT_TENANT, isAsyncDriver,
  type Outcome, type SessionOptions, type ScriptOptions, type SessionRunResult,
  type AnySqlDriver, type AsyncSqlDriver, type SqlDriver, type StoreParts,
  type RunOptions, type RunResult, type StatementResult, type StatementOutcome, type Embedder, type Summarizer, type WhyResult, type Provenance,
  utilitySelector, similaritySelector, utilityScore, feedbackValues, learnedSelector, statusReward,
  type Selector, type SelectorInput, type SelectorChoice, type Candidate, type ExperienceReport, type TurnScorer, type ExecStatus,
} from './engine/index.js';
// Stores in memory on sql.js: the one backend the browser has (the others are text2mem/node's).
export { createStore, openStore } from './dialect/sqlite/store.js';
export { functionReranker, httpReranker, DEFAULT_RERANK_TOP, type Reranker, type RerankFunction, type RerankResult, type HttpRerankerOptions } from './retrieve/rerank.js';
export { llmSelector, llmTurnScorer, runWithSelector, gatherSelections, type AsyncSelector, type AsyncChoice, type AsyncTurnScorer } from './agents/selector.js';
export type { ChatMessage, ChatProvider, CompleteOptions, Completion, ResponseFormat } from './agents/provider.js';
export { openAIProvider, type OpenAIOptions } from './agents/openai.js';
export { plan, planJsonSchema, planResponseFormat, systemPrompt, type PlanOptions, type PlanResult, type PlanMode } from './agents/planner.js';
export { storeVocabulary, relatedMemories, type Vocabulary } from './agents/context.js';
export { runPlanBenchmark, formatPlanReport, sampleRequest, type PlanBenchReport, type PlanMetrics } from './agents/plan-bench.js';
export { gbnf } from './syntax/gbnf.js';
