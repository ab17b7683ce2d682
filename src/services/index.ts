/** Editor services: plain functions over the pipeline; editors (the playground's Monaco) adapt them. */
export { getCompletions, CONDITION_FIELDS, type CompletionItem, type CompletionKind, type StoreVocabulary } from './completion.js';
export { getDiagnostics } from './diagnostics.js';
export { format, type FormatResult } from './format.js';
export { getHover, DEFAULT_DIAGRAMS_URL, type HoverInfo, type HoverOptions } from './hover.js';
export { monarchLanguage, languageConfiguration } from './highlight.js';
export { diffRows, isEmptyDiff, type Row, type RowDiff, type ChangedRow } from './timeline.js';
export { termsOfRows } from './rowTerms.js';
export { getSemanticTokens, encodeSemanticTokens, SEMANTIC_TOKEN_TYPES, type LineCharacter, type SemanticToken, type SemanticTokenType } from './semanticTokens.js';
