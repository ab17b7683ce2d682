/** Editor services: plain functions over the pipeline; editors (the playground's Monaco) adapt them. */
export { getCompletions, CONDITION_FIELDS, type CompletionItem, type CompletionKind, type StoreVocabulary } from './completion.ts';
export { getDiagnostics } from './diagnostics.ts';
export { format, type FormatResult } from './format.ts';
export { getHover, DEFAULT_DIAGRAMS_URL, type HoverInfo, type HoverOptions } from './hover.ts';
export { monarchLanguage, languageConfiguration } from './highlight.ts';
export { diffRows, isEmptyDiff, type Row, type RowDiff, type ChangedRow } from './timeline.ts';
export { storeVocabulary } from './vocabulary.ts';
export { getSemanticTokens, encodeSemanticTokens, SEMANTIC_TOKEN_TYPES, type SemanticToken, type SemanticTokenType } from './semanticTokens.ts';
