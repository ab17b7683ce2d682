/**
 * AST nodes from tokens: ranges, string decoding, values, keys and value lists. Shared by the two
 * builders of the AST, the happy-path parser's actions (grammar.ts) and the CST → AST
 * build of the recovering path (cstToAst.ts), so both make the same nodes. Imports only types.
 */
import type { IToken } from 'chevrotain';
import type { Range } from '../diagnostics/diagnostic.js';
import { LexerLines, SourceRange } from '../diagnostics/sourceRange.js';
import type * as A from './ast.js';

/**
 * The lines of the text last lexed (`useText`, called by `lex`): the ranges below are built from
 * token offsets (the lexer tracks no lines) and compute line and column from it when read.
 */
let lines = new LexerLines('');

/** Makes the ranges built from now on those of `text` (the text whose tokens they are built from). */
export function useText(text: string): LexerLines {
  if (lines.text !== text) lines = new LexerLines(text);
  return lines;
}

/** The lines of the text last lexed. */
export function textLines(): LexerLines {
  return lines;
}

/**
 * The offset just past a token. The lexer records no `endOffset` (offsets-only tracking); a token
 * that has one (a repaired bad string, whose image was replaced; a token of the full lexer) is read by it.
 */
export function tokenEnd(t: IToken): number {
  return t.endOffset === undefined ? t.startOffset + t.image.length : t.endOffset + 1;
}

export function tokenRange(t: IToken): Range {
  return new SourceRange(lines, t.startOffset, tokenEnd(t));
}

/** The range from the start of token `a` to the end of token `b` (`span(tokenRange(a), tokenRange(b))` without the throwaway halves). */
export function tokenSpan(a: IToken, b: IToken): Range {
  return new SourceRange(lines, a.startOffset, tokenEnd(b));
}

/** The range from the start of token `t` to the end of `r`. */
export function spanFrom(t: IToken, r: Range): Range {
  return r instanceof SourceRange ? new SourceRange(r.lines, t.startOffset, r.to) : { start: lines.position(t.startOffset), end: r.end };
}

export function span(a: Range, b: Range): Range {
  return a instanceof SourceRange && b instanceof SourceRange && a.lines === b.lines ? new SourceRange(a.lines, a.from, b.to) : { start: a.start, end: b.end };
}

/** The range of a token as plain data, for diagnostics. */
export function plainTokenRange(t: IToken): Range {
  return lines.range(t.startOffset, tokenEnd(t));
}

export function decodeString(image: string): string {
  const body = image.slice(1, -1);
  // Most strings have no escape at all.
  if (!body.includes('\\')) return body;
  return body.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_, e: string) => {
    switch (e[0]) {
      case 'u': return String.fromCharCode(parseInt(e.slice(1), 16));
      case 'b': return '\b';
      case 'f': return '\f';
      case 'n': return '\n';
      case 'r': return '\r';
      case 't': return '\t';
      default: return e;
    }
  });
}

/**
 * The value a token stands for, by the name it is consumed under (its token type, or `SoftKeyword`):
 * shared by this builder and the happy-path parser's actions (grammar.ts).
 */
export function tokenValue(name: string, t: IToken): A.Value | undefined {
  switch (name) {
    case 'StringLiteral': return { kind: 'String', value: decodeString(t.image), loc: tokenRange(t) };
    case 'NumberLiteral': return { kind: 'Number', value: Number(t.image), loc: tokenRange(t) };
    case 'DateTimeLiteral': return { kind: 'DateTime', value: t.image, loc: tokenRange(t) };
    case 'DurationLiteral': return { kind: 'Duration', value: t.image, loc: tokenRange(t) };
    case 'True': return { kind: 'Boolean', value: true, loc: tokenRange(t) };
    case 'False': return { kind: 'Boolean', value: false, loc: tokenRange(t) };
    case 'Null': return { kind: 'Null', loc: tokenRange(t) };
    case 'Identifier': return { kind: 'Identifier', value: t.image, loc: tokenRange(t) };
    // A soft keyword where a value is expected is that bare word (`THEN demote`, `LEVEL episode`).
    case 'SoftKeyword': return { kind: 'Identifier', value: t.image, loc: tokenRange(t) };
    case 'Reference': return { kind: 'Ref', name: t.image.slice(1), loc: tokenRange(t) };
  }
  return undefined;
}

/** A list of values as a clause holds it: a single bracketed list is the list itself. */
export function valueList(items: A.Value[]): A.ValueList | undefined {
  if (items.length === 0) return undefined;
  const loc = span(items[0].loc, items[items.length - 1].loc);
  if (items.length === 1 && items[0].kind === 'List') return { kind: 'ValueList', items: items[0].items, bracketed: true, loc };
  return { kind: 'ValueList', items, bracketed: false, loc };
}

/** An object key or field name as written (strings decoded). */
export function tokenKey(t: IToken): A.Key {
  return { kind: 'Key', name: t.tokenType.name === 'StringLiteral' ? decodeString(t.image) : t.image, loc: tokenRange(t) };
}
