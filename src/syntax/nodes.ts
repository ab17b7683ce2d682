/**
 * AST nodes from tokens: ranges, string decoding, values, keys and value lists. Shared by the two
 * builders of the AST, the happy-path parser's actions (grammar/parser.ts) and the CST → AST
 * build of the recovering path (cstToAst.ts), so both make the same nodes. Imports only types.
 */
import type { IToken } from 'chevrotain';
import type { Range } from '../diagnostics/diagnostic.js';
import type * as A from './ast.js';

export function tokenRange(t: IToken): Range {
  return {
    start: { line: t.startLine ?? 1, column: t.startColumn ?? 1, offset: t.startOffset },
    end: { line: t.endLine ?? 1, column: (t.endColumn ?? 0) + 1, offset: (t.endOffset ?? t.startOffset) + 1 },
  };
}

/** The range from the start of token `a` to the end of token `b` (`span(tokenRange(a), tokenRange(b))` without the throwaway halves). */
export function tokenSpan(a: IToken, b: IToken): Range {
  return {
    start: { line: a.startLine ?? 1, column: a.startColumn ?? 1, offset: a.startOffset },
    end: { line: b.endLine ?? 1, column: (b.endColumn ?? 0) + 1, offset: (b.endOffset ?? b.startOffset) + 1 },
  };
}

/** The range from the start of token `t` to the end of `r`. */
export function spanFrom(t: IToken, r: Range): Range {
  return { start: { line: t.startLine ?? 1, column: t.startColumn ?? 1, offset: t.startOffset }, end: r.end };
}

export function span(a: Range, b: Range): Range {
  return { start: a.start, end: b.end };
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
 * shared by this builder and the happy-path parser's actions (grammar/parser.ts).
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
