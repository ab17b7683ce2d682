export * from './ast.ts';
export { parse, tokenize, tokenRange, decodeString, type ParseResult, type Token, type TokenKind } from './parse.ts';
export { KEYWORDS, VERBS } from '../../grammar/tokens.ts';
export { CHILD_KEYS, children, visit, nodesAt } from './visit.ts';
