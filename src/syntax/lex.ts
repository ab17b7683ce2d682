/**
 * Lexing: DSL text → tokens, with the lexer's repairs reported as diagnostics: full-width
 * punctuation read as ASCII, numbers with leading zeros, bad escapes and strings that lost their
 * closing quote (which are then read as empty strings so that parsing goes on).
 */
import type { IToken, TokenType } from 'chevrotain';
import { tokenMatcher } from 'chevrotain';
import type { Diagnostic, Range } from '../diagnostics/diagnostic.js';
import * as T from './tokens.js';
import type { LexerLines } from '../diagnostics/sourceRange.js';
import { plainTokenRange, tokenEnd, useText } from './nodes.js';

export type TokenKind = 'keyword' | 'verb' | 'identifier' | 'string' | 'number' | 'datetime' | 'duration' | 'boolean' | 'null' | 'punctuation' | 'comment' | 'invalid';

export interface Token {
  readonly kind: TokenKind;
  /** The Chevrotain token name, e.g. `ENCODE`, `StringLiteral`, `Comma`. */
  readonly type: string;
  readonly image: string;
  readonly range: Range;
}

export const VERB_SET = new Set<TokenType>(T.VERB_TOKENS);

function tokenKind(t: IToken): TokenKind {
  const type = t.tokenType;
  if (VERB_SET.has(type)) return 'verb';
  if (tokenMatcher(t, T.Keyword)) return 'keyword';
  switch (type) {
    case T.Identifier: case T.Reference: return 'identifier';
    case T.StringLiteral: return 'string';
    case T.NumberLiteral: return 'number';
    case T.DateTimeLiteral: return 'datetime';
    case T.DurationLiteral: return 'duration';
    case T.True: case T.False: return 'boolean';
    case T.Null: return 'null';
    case T.Comment: return 'comment';
    case T.BadString: return 'invalid';
    default: return 'punctuation';
  }
}

// Token ranges are built in nodes.ts (shared with the parser's actions); re-exported for the stages that lex.
export { span, spanFrom, tokenRange, tokenSpan } from './nodes.js';

export interface Lexed {
  readonly tokens: IToken[];
  readonly comments: IToken[];
  readonly diagnostics: Diagnostic[];
  /** The tokens as lexed (bad strings not yet replaced), for highlighting. */
  readonly raw: IToken[];
  /** Offset spans whose parse errors are symptoms of a lexical error already reported. */
  readonly muted: ReadonlyArray<{ start: number; end: number }>;
}

/** Punctuation a Chinese or Japanese input method types, and the ASCII the DSL means by it. */
const FULL_WIDTH: Readonly<Record<string, string>> = {
  '；': ';', '，': ',', '：': ':', '＝': '=', '“': '"', '”': '"', '＂': '"', '［': '[', '］': ']', '【': '[', '】': ']', '｛': '{', '｝': '}',
};
const FULL_WIDTH_QUOTES = new Set(['“', '”', '＂']);

/** The range of `length` characters at `offset` of the text being lexed (its lines are `useText`'s). */
function rangeAt(text: string, offset: number, length: number): Range {
  return useText(text).range(offset, offset + length);
}

/**
 * Lexes `text` as if the full-width punctuation the lexer cannot read were ASCII, and reports
 * each with a fix. Each such character is one UTF-16 unit, like its replacement, so offsets stay
 * valid. Quotes go first: a `，` between full-width quotes is then string text and stays.
 */
function lexFullWidth(text: string) {
  let result = T.offsetLexer.tokenize(text);
  const diagnostics: Diagnostic[] = [];
  // The usual case: nothing the lexer could not read, so nothing to replace.
  if (result.errors.length === 0) return { result, diagnostics, text };
  const quotes = new Map<number, string>();
  const replace = (which: (c: string) => boolean, record: (offset: number, c: string) => void) => {
    const chars = text.split('');
    let changed = false;
    for (const e of result.errors) {
      for (let o = e.offset; o < e.offset + e.length; o++) {
        const c = text[o];
        if (FULL_WIDTH[c] !== undefined && which(c)) {
          chars[o] = FULL_WIDTH[c];
          record(o, c);
          changed = true;
        }
      }
    }
    if (changed) {
      text = chars.join('');
      result = T.offsetLexer.tokenize(text);
    }
  };
  const fullWidthFix = (c: string, range: Range): Diagnostic => ({
    code: 'invalid-character',
    severity: 'error',
    message: `Full-width '${c}'; did you mean '${FULL_WIDTH[c]}'?`,
    range,
    fix: { message: `replace '${c}' with '${FULL_WIDTH[c]}'`, edits: [{ range, newText: FULL_WIDTH[c] }] },
  });
  replace((c) => FULL_WIDTH_QUOTES.has(c), (o, c) => quotes.set(o, c));
  // A pair of full-width quotes that now delimits a string is one mistake with one fix.
  for (const t of result.tokens) {
    const end = tokenEnd(t) - 1;
    if (t.tokenType !== T.StringLiteral || !quotes.has(t.startOffset) || !quotes.has(end)) continue;
    const open = rangeAt(text, t.startOffset, 1);
    const close = rangeAt(text, end, 1);
    diagnostics.push({
      code: 'invalid-character',
      severity: 'error',
      message: `Full-width quotes ${quotes.get(t.startOffset)}…${quotes.get(end)}; did you mean "…"?`,
      range: { start: open.start, end: close.end },
      fix: { message: 'replace the full-width quotes with "', edits: [{ range: open, newText: '"' }, { range: close, newText: '"' }] },
    });
    quotes.delete(t.startOffset);
    quotes.delete(end);
  }
  for (const [o, c] of quotes) diagnostics.push(fullWidthFix(c, rangeAt(text, o, 1)));
  replace((c) => !FULL_WIDTH_QUOTES.has(c), (o, c) => diagnostics.push(fullWidthFix(c, rangeAt(text, o, 1))));
  return { result, diagnostics, text };
}

export function lex(source: string): Lexed {
  // The ranges built from these tokens (they carry offsets only) read their lines from `source`
  // (full-width repairs keep every offset and line break).
  const lines = useText(source);
  const { result, diagnostics, text } = lexFullWidth(source);
  for (const e of result.errors) {
    const start = lines.position(e.offset);
    const bad = text.slice(e.offset, e.offset + e.length);
    // `ID 001`: JSON numbers cannot have leading zeros; an id or code like that is a string.
    const padded = /^0+$/.test(bad) ? /^[0-9]+(?:\.[0-9]+)?/.exec(text.slice(e.offset))?.[0] : undefined;
    if (padded && padded.length > bad.length) {
      const range = rangeAt(text, e.offset, padded.length);
      diagnostics.push({
        code: 'invalid-character',
        severity: 'error',
        message: `A number cannot start with 0 ('${padded}'); if this is an id or a code, write it as a string: "${padded}".`,
        range,
        fix: { message: `quote it: "${padded}"`, edits: [{ range, newText: `"${padded}"` }] },
      });
      continue;
    }
    diagnostics.push({
      code: 'invalid-character',
      severity: 'error',
      message: `Unexpected character${bad.length > 1 ? 's' : ''} '${bad}'.`,
      range: { start, end: { line: start.line, column: start.column + e.length, offset: e.offset + e.length } },
    });
  }
  const muted: Array<{ start: number; end: number }> = [];
  // The usual case: no bad string, so the parser reads the lexer's tokens as they are.
  if (!result.tokens.some((t) => t.tokenType === T.BadString)) {
    return { tokens: result.tokens, comments: (result.groups.comments as IToken[] | undefined) ?? [], diagnostics, raw: result.tokens, muted };
  }
  const tokens: IToken[] = [];
  for (const [k, t] of result.tokens.entries()) {
    if (t.tokenType === T.BadString) {
      const unterminated = t.image.length < 2 || !t.image.endsWith('"') || /\\"$/.test(t.image) && !/\\\\"$/.test(t.image);
      const opened = unterminated ? earlierOpenString(result.tokens, k, lines) : undefined;
      if (opened) {
        // `"hello TAGS "x";`: the first string lost its closing quote, so its content ran up to
        // the next quote and the real closing quote opens a string that never ends. Point at the
        // first string; the word glued after it is a symptom, not a second mistake.
        const first = plainTokenRange(opened.string);
        const quote = lines.position(t.startOffset);
        diagnostics.push({
          code: 'unterminated-string',
          severity: 'error',
          message: `A string may be missing its closing quote (started at ${first.start.line}:${first.start.column}): `
            + `it seems to end just before '${opened.word.image}', and the quote at ${quote.line}:${quote.column} is never closed.`,
          range: first,
          related: [{ message: 'the quote that is never closed', range: plainTokenRange(t) }],
        });
        muted.push({ start: opened.word.startOffset, end: tokenEnd(t) });
      } else diagnostics.push({
        code: unterminated ? 'unterminated-string' : 'invalid-escape',
        severity: 'error',
        message: unterminated
          ? 'This string has no closing quote on its line.'
          : 'Invalid escape in string; use \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX.',
        range: plainTokenRange(t),
      });
      // Keep parsing: treat it as a string so the rest of the statement is still checked.
      tokens.push({ ...t, tokenType: T.StringLiteral, tokenTypeIdx: T.StringLiteral.tokenTypeIdx!, image: '""', endOffset: tokenEnd(t) - 1 });
    } else tokens.push(t);
  }
  return { tokens, comments: (result.groups.comments as IToken[] | undefined) ?? [], diagnostics, raw: result.tokens, muted };
}

/**
 * For the unterminated string `raw[k]`: an earlier string on the same line that a bare word
 * follows with no space (`"hello TAGS "x`), the likely string whose closing quote is missing.
 */
function earlierOpenString(raw: readonly IToken[], k: number, lines: LexerLines): { string: IToken; word: IToken } | undefined {
  const lineOf = (t: IToken) => lines.position(t.startOffset).line;
  const line = lineOf(raw[k]);
  // The earliest such string: with several on the line, each later one is a shifted pair of quotes.
  let found: { string: IToken; word: IToken } | undefined;
  for (let i = k - 1; i > 0; i--) {
    const word = raw[i];
    const string = raw[i - 1];
    if (lineOf(word) !== line) break;
    if (string.tokenType !== T.StringLiteral || lineOf(string) !== line) continue;
    const glued = word.startOffset === tokenEnd(string);
    if (glued && /^[A-Za-z_]/.test(word.image)) found = { string, word };
  }
  return found;
}

/** The tokens of `text` (comments included, in source order) for highlighting, plus lexical errors. */
export function tokenize(text: string): { tokens: Token[]; diagnostics: Diagnostic[] } {
  const { raw, comments, diagnostics } = lex(text);
  const all = [...raw, ...comments].sort((a, b) => a.startOffset - b.startOffset);
  return { tokens: all.map((t) => ({ kind: tokenKind(t), type: t.tokenType.name, image: t.image, range: plainTokenRange(t) })), diagnostics };
}
