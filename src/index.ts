/**
 * The text2mem library: the stages and the chain that the CLI and the playground use.
 * See ARCHITECTURE.md for what each stage takes and produces.
 */
export * from './diagnostics/diagnostic.ts';
export { formatDiagnostic, formatDiagnostics, codeFrame } from './diagnostics/codeFrame.ts';
export type { SourceMap } from './diagnostics/sourceMap.ts';
export * from './ir/schema.ts';
export { validateIr } from './ir/validate.ts';
export { parse, tokenize, KEYWORDS, VERBS, visit, type Script, type Statement } from './syntax/index.ts';
export { astToIr, irToAst, irsToScript } from './convert/index.ts';
export { print } from './print/index.ts';
export { check, type Policy } from './check/index.ts';
export { textToIr, irsToText, formatText, readInput, detectInput, type FrontEndResult, type InputKind } from './pipeline.ts';
export {
  createStore, openStore, run, explain, sweep, auditLog, undo, Store,
  type RunOptions, type RunResult, type StatementResult, type Embedder, type Summarizer,
} from './engine/index.ts';
