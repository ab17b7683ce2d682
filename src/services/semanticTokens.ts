/**
 * Semantic tokens: the classes that depend on where a word stands, which a regular-expression
 * highlighter cannot know — field names (`tags` in `WHERE tags HAS …`, object keys, `SET weight`),
 * enum values (`MODE read_only`, `ORDER BY time_desc`, `LAST 7 days`), and ops named inside
 * lists (`allow: [Retrieve]`, which the lexer reads as the verb keyword). Encoded the LSP way.
 */
import type { IToken } from 'chevrotain';
import { lexer } from '../syntax/tokens.js';
import { ENUMS } from '../language/index.js';
import { LineIndex } from '../diagnostics/position.js';
import { endOf, isKeywordToken, startOf, tokenName } from './context.js';

export const SEMANTIC_TOKEN_TYPES = ['property', 'enumMember'] as const;
export type SemanticTokenType = (typeof SEMANTIC_TOKEN_TYPES)[number];

export interface SemanticToken {
  readonly from: number;
  readonly to: number;
  readonly type: SemanticTokenType;
}

/**
 * Keywords whose value is an enum member when written as a bare word: the last word of each
 * enum's clause in the vocabulary (`ORDER BY` → BY; LAST / NEXT take a number before the unit).
 */
const ENUM_VALUE_AFTER = new Set(
  Object.values(ENUMS).flatMap((e: { clause?: string }) => (e.clause && !e.clause.includes(' / ') ? [e.clause.split(' ').at(-1)!] : [])),
);
const CONDITION_START = new Set(['WHERE', 'AND']);

const upper = (t: IToken | undefined): string => (t && isKeywordToken(t) ? t.image.toUpperCase() : '');

export function getSemanticTokens(text: string): SemanticToken[] {
  const tokens = lexer.tokenize(text).tokens;
  const out: SemanticToken[] = [];
  const push = (t: IToken, type: SemanticTokenType) => out.push({ from: startOf(t), to: endOf(t), type });
  let bracketDepth = 0;
  let listKeyword = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const name = tokenName(t);
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if (name === 'LBracket') bracketDepth++;
    if (name === 'RBracket') bracketDepth = Math.max(0, bracketDepth - 1);
    if (name === 'Semicolon') bracketDepth = 0;
    if (isKeywordToken(t) && ['INCLUDE'].includes(upper(t))) listKeyword = upper(t);
    else if (name !== 'Identifier' && name !== 'Comma' && !isKeywordToken(t)) listKeyword = '';
    const isWord = name === 'Identifier' || isKeywordToken(t);
    if (!isWord) continue;
    // `key:` in an object, `field =` in SET or a condition, a field right after WHERE/AND.
    if (tokenName(next) === 'Colon' || (tokenName(next) === 'Equals' && (name === 'Identifier' || !CONDITION_START.has(upper(t))))) {
      push(t, 'property');
    } else if (CONDITION_START.has(upper(prev)) && (name === 'Identifier' || upper(t) !== 'SEARCH')) {
      push(t, 'property');
    } else if (upper(prev) === 'SET' || upper(prev) === 'WITH') {
      push(t, 'property');
    } else if (bracketDepth > 0 && isKeywordToken(t)) {
      push(t, 'enumMember');
    } else if (name === 'Identifier' && (ENUM_VALUE_AFTER.has(upper(prev)) || (listKeyword && tokenName(prev) === 'Comma'))) {
      push(t, 'enumMember');
    } else if (name === 'Identifier' && tokenName(prev) === 'NumberLiteral' && ['LAST', 'NEXT'].includes(upper(tokens[i - 2]))) {
      push(t, 'enumMember');
    }
  }
  return out;
}

/** A 0-based line and UTF-16 character, as LSP counts them. */
export interface LineCharacter {
  readonly line: number;
  readonly character: number;
}

/**
 * LSP/Monaco encoding: per token, Δline, Δstart column (0-based), length, type index, modifiers.
 * `positionAt` maps an offset to its line and character; by default lines end at `\n` (what
 * Monaco's model reports); an LSP server passes its document's, which also breaks lines at a
 * lone `\r`.
 */
export function encodeSemanticTokens(text: string, tokens: readonly SemanticToken[], positionAt?: (offset: number) => LineCharacter): Uint32Array {
  const lines = positionAt ? undefined : new LineIndex(text);
  const at = positionAt ?? ((offset: number): LineCharacter => {
    const p = lines!.position(offset);
    return { line: p.line - 1, character: p.column - 1 };
  });
  const data: number[] = [];
  let lastLine = 0;
  let lastCol = 0;
  for (const t of tokens) {
    const { line, character: col } = at(t.from);
    data.push(line - lastLine, line === lastLine ? col - lastCol : col, t.to - t.from, SEMANTIC_TOKEN_TYPES.indexOf(t.type), 0);
    lastLine = line;
    lastCol = col;
  }
  return Uint32Array.from(data);
}
