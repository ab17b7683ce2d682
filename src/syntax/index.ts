export * from './ast.js';
export { parse, tokenize, tokenRange, decodeString, type ParseResult, type Token, type TokenKind } from './parse.js';
export { KEYWORDS, VERB_NAMES as VERBS } from '../language/index.js';
export { CHILD_KEYS, children, visit, nodesAt } from './visit.js';
