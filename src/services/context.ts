/**
 * Where a cursor is in a script, from the grammar's own lexer: the token under it and the tokens
 * of the statement before it. Works on any text, including text that does not parse, which is
 * what an editor has most of the time.
 */
import type { IToken } from 'chevrotain';
import { lexer } from '../syntax/tokens.js';

export interface CursorContext {
  /** The token the cursor is in or at the end of (identifier, keyword, string…), if any. */
  readonly token?: IToken;
  /** Tokens of the current statement before `token` (or before the cursor). */
  readonly before: readonly IToken[];
  /** True when the cursor is inside a `#` comment. */
  readonly inComment: boolean;
}

export function tokenName(token: IToken | undefined): string {
  return token?.tokenType.name ?? '';
}

export function isKeywordToken(token: IToken | undefined): boolean {
  return !!token && (token.tokenType.CATEGORIES ?? []).some((c) => c.name === 'Keyword');
}

/** Start offset of a token; end offset exclusive (chevrotain's `endOffset` is inclusive). */
export const startOf = (t: IToken): number => t.startOffset;
export const endOf = (t: IToken): number => (t.endOffset ?? t.startOffset) + 1;

export function cursorContext(text: string, offset: number): CursorContext {
  const lexed = lexer.tokenize(text);
  const comments = lexed.groups.comments ?? [];
  const inComment = comments.some((c) => startOf(c) < offset && offset <= endOf(c));
  let token: IToken | undefined;
  const before: IToken[] = [];
  for (const t of lexed.tokens) {
    if (startOf(t) >= offset) break;
    if (offset <= endOf(t)) {
      token = t;
      break;
    }
    if (t.tokenType.name === 'Semicolon') before.length = 0;
    else before.push(t);
  }
  return { token, before, inComment };
}

/** The token at an offset (the one containing it, or ending right before it). */
export function tokenAt(text: string, offset: number): IToken | undefined {
  const lexed = lexer.tokenize(text);
  let hit: IToken | undefined;
  for (const t of lexed.tokens) {
    if (startOf(t) > offset) break;
    if (offset < endOf(t)) return t;
    if (offset === endOf(t)) hit = t;
  }
  return hit;
}
