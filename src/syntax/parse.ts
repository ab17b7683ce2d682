/**
 * `parse`: DSL text → `Script` AST plus diagnostics. Never throws. The token stream is cut at
 * each `;` and every piece is parsed on its own, so one broken statement cannot hide the errors
 * of the next; a missing `;` before a verb is reported and parsing goes on.
 */
import type { CstNode, IToken, TokenType } from 'chevrotain';
import { tokenMatcher } from 'chevrotain';
import type { Diagnostic, Range } from '../diagnostics/diagnostic.js';
import { closest } from '../diagnostics/suggest.js';
import * as T from '../../grammar/tokens.js';
import { parser, expectedAtToken } from '../../grammar/parser.js';
import type * as A from './ast.js';
import { describeVerbClauses, verbClauseKeywords } from './verbClauses.js';

// ---------------------------------------------------------------- tokens

export type TokenKind = 'keyword' | 'verb' | 'identifier' | 'string' | 'number' | 'datetime' | 'duration' | 'boolean' | 'null' | 'punctuation' | 'comment' | 'invalid';

export interface Token {
  readonly kind: TokenKind;
  /** The Chevrotain token name, e.g. `ENCODE`, `StringLiteral`, `Comma`. */
  readonly type: string;
  readonly image: string;
  readonly range: Range;
}

const VERB_SET = new Set<TokenType>(T.VERB_TOKENS);

function tokenKind(t: IToken): TokenKind {
  const type = t.tokenType;
  if (VERB_SET.has(type)) return 'verb';
  if (tokenMatcher(t, T.Keyword)) return 'keyword';
  switch (type) {
    case T.Identifier: return 'identifier';
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

export function tokenRange(t: IToken): Range {
  return {
    start: { line: t.startLine ?? 1, column: t.startColumn ?? 1, offset: t.startOffset },
    end: { line: t.endLine ?? 1, column: (t.endColumn ?? 0) + 1, offset: (t.endOffset ?? t.startOffset) + 1 },
  };
}

function span(a: Range, b: Range): Range {
  return { start: a.start, end: b.end };
}

interface Lexed {
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

function rangeAt(text: string, offset: number, length: number): Range {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { start: { line, column, offset }, end: { line, column: column + length, offset: offset + length } };
}

/**
 * Lexes `text` as if the full-width punctuation the lexer cannot read were ASCII, and reports
 * each with a fix. Each such character is one UTF-16 unit, like its replacement, so offsets stay
 * valid. Quotes go first: a `，` between full-width quotes is then string text and stays.
 */
function lexFullWidth(text: string) {
  let result = T.lexer.tokenize(text);
  const diagnostics: Diagnostic[] = [];
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
      result = T.lexer.tokenize(text);
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
    const end = t.endOffset ?? t.startOffset;
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

function lex(source: string): Lexed {
  const { result, diagnostics, text } = lexFullWidth(source);
  for (const e of result.errors) {
    const start = { line: e.line ?? 1, column: e.column ?? 1, offset: e.offset };
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
  const tokens: IToken[] = [];
  const muted: Array<{ start: number; end: number }> = [];
  for (const [k, t] of result.tokens.entries()) {
    if (t.tokenType === T.BadString) {
      const unterminated = t.image.length < 2 || !t.image.endsWith('"') || /\\"$/.test(t.image) && !/\\\\"$/.test(t.image);
      const opened = unterminated ? earlierOpenString(result.tokens, k) : undefined;
      if (opened) {
        // `"hello TAGS "x";`: the first string lost its closing quote, so its content ran up to
        // the next quote and the real closing quote opens a string that never ends. Point at the
        // first string; the word glued after it is a symptom, not a second mistake.
        const first = tokenRange(opened.string);
        diagnostics.push({
          code: 'unterminated-string',
          severity: 'error',
          message: `A string may be missing its closing quote (started at ${first.start.line}:${first.start.column}): `
            + `it seems to end just before '${opened.word.image}', and the quote at ${t.startLine}:${t.startColumn} is never closed.`,
          range: first,
          related: [{ message: 'the quote that is never closed', range: tokenRange(t) }],
        });
        muted.push({ start: opened.word.startOffset, end: (t.endOffset ?? t.startOffset) + 1 });
      } else diagnostics.push({
        code: unterminated ? 'unterminated-string' : 'invalid-escape',
        severity: 'error',
        message: unterminated
          ? 'This string has no closing quote on its line.'
          : 'Invalid escape in string; use \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX.',
        range: tokenRange(t),
      });
      // Keep parsing: treat it as a string so the rest of the statement is still checked.
      tokens.push({ ...t, tokenType: T.StringLiteral, tokenTypeIdx: T.StringLiteral.tokenTypeIdx!, image: '""' });
    } else tokens.push(t);
  }
  return { tokens, comments: (result.groups.comments as IToken[] | undefined) ?? [], diagnostics, raw: result.tokens, muted };
}

/**
 * For the unterminated string `raw[k]`: an earlier string on the same line that a bare word
 * follows with no space (`"hello TAGS "x`), the likely string whose closing quote is missing.
 */
function earlierOpenString(raw: readonly IToken[], k: number): { string: IToken; word: IToken } | undefined {
  const line = raw[k].startLine;
  // The earliest such string: with several on the line, each later one is a shifted pair of quotes.
  let found: { string: IToken; word: IToken } | undefined;
  for (let i = k - 1; i > 0; i--) {
    const word = raw[i];
    const string = raw[i - 1];
    if (word.startLine !== line) break;
    if (string.tokenType !== T.StringLiteral || string.startLine !== line) continue;
    const glued = word.startOffset === (string.endOffset ?? string.startOffset) + 1;
    if (glued && /^[A-Za-z_]/.test(word.image)) found = { string, word };
  }
  return found;
}

/** The tokens of `text` (comments included, in source order) for highlighting, plus lexical errors. */
export function tokenize(text: string): { tokens: Token[]; diagnostics: Diagnostic[] } {
  const { raw, comments, diagnostics } = lex(text);
  const all = [...raw, ...comments].sort((a, b) => a.startOffset - b.startOffset);
  return { tokens: all.map((t) => ({ kind: tokenKind(t), type: t.tokenType.name, image: t.image, range: tokenRange(t) })), diagnostics };
}

// ---------------------------------------------------------------- CST → AST

type Children = CstNode['children'];

function toks(c: Children, name: string): IToken[] {
  return (c[name] as IToken[] | undefined) ?? [];
}
function nodes(c: Children, name: string): CstNode[] {
  return (c[name] as CstNode[] | undefined) ?? [];
}
/** Real tokens only: tokens invented by error recovery have no position. */
function tok(c: Children, name: string): IToken | undefined {
  const t = toks(c, name)[0];
  return t && !t.isInsertedInRecovery && Number.isFinite(t.startOffset) ? t : undefined;
}
function node(c: Children, name: string): CstNode | undefined {
  return nodes(c, name)[0];
}

export function decodeString(image: string): string {
  const body = image.slice(1, -1);
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

function buildValue(n: CstNode | undefined): A.Value | undefined {
  if (!n || n.recoveredNode) return undefined;
  const c = n.children;
  let t: IToken | undefined;
  if ((t = tok(c, 'StringLiteral'))) return { kind: 'String', value: decodeString(t.image), loc: tokenRange(t) };
  if ((t = tok(c, 'NumberLiteral'))) return { kind: 'Number', value: Number(t.image), loc: tokenRange(t) };
  if ((t = tok(c, 'DateTimeLiteral'))) return { kind: 'DateTime', value: t.image, loc: tokenRange(t) };
  if ((t = tok(c, 'DurationLiteral'))) return { kind: 'Duration', value: t.image, loc: tokenRange(t) };
  if ((t = tok(c, 'True'))) return { kind: 'Boolean', value: true, loc: tokenRange(t) };
  if ((t = tok(c, 'False'))) return { kind: 'Boolean', value: false, loc: tokenRange(t) };
  if ((t = tok(c, 'Null'))) return { kind: 'Null', loc: tokenRange(t) };
  if ((t = tok(c, 'Identifier'))) return { kind: 'Identifier', value: t.image, loc: tokenRange(t) };
  const list = node(c, 'list');
  if (list) return buildList(list);
  const obj = node(c, 'object');
  if (obj) return buildObject(obj);
  return undefined;
}

function buildElement(n: CstNode): A.Value | undefined {
  const kw = tok(n.children, 'Keyword');
  if (kw) return { kind: 'Identifier', value: kw.image, loc: tokenRange(kw) };
  return buildValue(node(n.children, 'value'));
}

function nodeRange(n: CstNode, first?: IToken, last?: IToken): Range | undefined {
  const l = n.location;
  if (l && Number.isFinite(l.startOffset) && Number.isFinite(l.endOffset)) {
    return {
      start: { line: l.startLine ?? 1, column: l.startColumn ?? 1, offset: l.startOffset },
      end: { line: l.endLine ?? 1, column: (l.endColumn ?? 0) + 1, offset: (l.endOffset ?? l.startOffset) + 1 },
    };
  }
  if (first && last) return span(tokenRange(first), tokenRange(last));
  return undefined;
}

function buildList(n: CstNode): A.ListValue | undefined {
  const open = tok(n.children, 'LBracket');
  const close = tok(n.children, 'RBracket');
  const loc = nodeRange(n, open, close);
  if (!loc || !close) return undefined;
  const items: A.Value[] = [];
  for (const e of nodes(n.children, 'element')) {
    const v = buildElement(e);
    if (v) items.push(v);
  }
  return { kind: 'List', items, loc };
}

function buildKey(n: CstNode | undefined): A.Key | undefined {
  if (!n) return undefined;
  const c = n.children;
  const s = tok(c, 'StringLiteral');
  if (s) return { kind: 'Key', name: decodeString(s.image), loc: tokenRange(s) };
  // Any other single token (identifier, keyword, true/false/null) is the key as written.
  const t = (Object.values(c)[0] as IToken[] | undefined)?.[0];
  return t && Number.isFinite(t.startOffset) && !t.isInsertedInRecovery ? { kind: 'Key', name: t.image, loc: tokenRange(t) } : undefined;
}

function buildObject(n: CstNode): A.ObjectValue | undefined {
  const open = tok(n.children, 'LBrace');
  const close = tok(n.children, 'RBrace');
  const loc = nodeRange(n, open, close);
  if (!loc || !close) return undefined;
  const entries: A.ObjectEntry[] = [];
  for (const e of nodes(n.children, 'entry')) {
    const key = buildKey(node(e.children, 'key'));
    const el = node(e.children, 'element');
    const value = el && buildElement(el);
    if (key && value) entries.push({ kind: 'Entry', key, value, loc: span(key.loc, value.loc) });
  }
  return { kind: 'Object', entries, loc };
}

function buildValueList(n: CstNode | undefined): A.ValueList | undefined {
  if (!n) return undefined;
  const items: A.Value[] = [];
  for (const v of nodes(n.children, 'value')) {
    const value = buildValue(v);
    if (value) items.push(value);
  }
  for (const e of nodes(n.children, 'element')) {
    const value = buildElement(e);
    if (value) items.push(value);
  }
  if (items.length === 0) return undefined;
  const loc = span(items[0].loc, items[items.length - 1].loc);
  if (items.length === 1 && items[0].kind === 'List') return { kind: 'ValueList', items: items[0].items, bracketed: true, loc };
  return { kind: 'ValueList', items, bracketed: false, loc };
}

function buildTimeRange(n: CstNode | undefined): A.TimeRange | undefined {
  if (!n) return undefined;
  const c = n.children;
  let relative: A.RelativeRange | undefined;
  const rel = node(c, 'relativeRange');
  if (rel) {
    const rc = rel.children;
    const dir = tok(rc, 'LAST') ?? tok(rc, 'NEXT');
    const amountTok = tok(rc, 'amount');
    const amount: A.NumberValue | undefined = amountTok && { kind: 'Number', value: Number(amountTok.image), loc: tokenRange(amountTok) };
    const unit = tok(rc, 'unit');
    if (!dir || !amount || !unit) return undefined;
    const first = tok(rc, 'IN') ?? dir;
    relative = {
      kind: 'RelativeRange',
      direction: dir.tokenType === T.KW.LAST ? 'last' : 'next',
      amount,
      unit: unit.image.toLowerCase(),
      unitLoc: tokenRange(unit),
      loc: span(tokenRange(first), tokenRange(unit)),
    };
  }
  // Values in source order: FROM's value precedes TO's.
  const values = nodes(c, 'value').map(buildValue);
  const hasFrom = toks(c, 'FROM').length > 0;
  const hasTo = toks(c, 'TO').length > 0;
  const from = hasFrom ? values[0] : undefined;
  const to = hasTo ? values[hasFrom ? 1 : 0] : undefined;
  if ((hasFrom && !from) || (hasTo && !to)) return undefined;
  // After error recovery a range may hold no real token at all (`WITHIN RUN`).
  const firstTok = tok(c, 'FROM') ?? tok(c, 'TO');
  if (!relative && !firstTok) return undefined;
  const first = relative?.loc ?? tokenRange(firstTok!);
  const last = to?.loc ?? from?.loc ?? relative!.loc;
  return { kind: 'TimeRange', relative, from, to, loc: span(first, last) };
}

function buildCondition(n: CstNode): A.Condition | undefined {
  const search = node(n.children, 'searchCondition');
  if (search) {
    const c = search.children;
    const kw = tok(c, 'SEARCH')!;
    const q = tok(c, 'query');
    const options: A.SearchOption[] = [];
    for (const o of nodes(c, 'searchOption')) {
      const oc = o.children;
      const value = buildValue(node(oc, 'value'));
      const k = tok(oc, 'K') ?? tok(oc, 'ALPHA') ?? tok(oc, 'LIMIT') ?? tok(oc, 'CONTEXT') ?? tok(oc, 'VECTOR') ?? tok(oc, 'ORDER');
      if (!k || !value) continue;
      const name = (k.tokenType === T.KW.ORDER ? 'ORDER BY' : k.tokenType.name) as A.SearchOptionName;
      options.push({ kind: 'SearchOption', name, value, loc: span(tokenRange(k), value.loc) });
    }
    const query: A.StringValue | undefined = q ? { kind: 'String', value: decodeString(q.image), loc: tokenRange(q) } : undefined;
    const last = options.length ? options[options.length - 1].loc : query?.loc ?? tokenRange(kw);
    return { kind: 'SearchCondition', query, options, loc: span(tokenRange(kw), last) };
  }
  const field = node(n.children, 'fieldCondition');
  if (!field) return undefined;
  const c = field.children;
  const written = buildKey(node(c, 'fieldName'));
  if (!written) return undefined;
  // A field written as a keyword (`TYPE = note`, `TAGS HAS`) names the lower-case IR field.
  const fieldTok = (Object.values(node(c, 'fieldName')!.children)[0] as IToken[])[0];
  const key = tokenMatcher(fieldTok, T.Keyword) ? { ...written, name: written.name.toLowerCase() } : written;
  const opTok = (name: string) => tok(c, name);
  let operator: A.FieldOperator;
  let opLoc: Range;
  let t: IToken | undefined;
  if ((t = opTok('Equals'))) operator = '=';
  else if ((t = opTok('NOT'))) operator = 'NOT HAS';
  else if ((t = opTok('HAS'))) operator = 'HAS';
  else if ((t = opTok('GreaterEq'))) operator = '>=';
  else if ((t = opTok('LessEq'))) operator = '<=';
  else if ((t = opTok('BEFORE'))) operator = 'BEFORE';
  else if ((t = opTok('AFTER'))) operator = 'AFTER';
  else operator = 'RANGE';
  if (operator === 'RANGE') {
    const range = buildTimeRange(node(c, 'timeRange'));
    if (!range) return undefined;
    return { kind: 'FieldCondition', field: key, operator, operatorLoc: range.loc, range, loc: span(key.loc, range.loc) };
  }
  opLoc = operator === 'NOT HAS' ? span(tokenRange(t!), tokenRange(toks(c, 'HAS')[0] ?? t!)) : tokenRange(t!);
  if (operator === 'HAS' || operator === 'NOT HAS') {
    const values = buildValueList(node(c, 'valueList'));
    if (!values) return undefined;
    return { kind: 'FieldCondition', field: key, operator, operatorLoc: opLoc, values, loc: span(key.loc, values.loc) };
  }
  const value = buildValue(node(c, 'value'));
  if (!value) return undefined;
  return { kind: 'FieldCondition', field: key, operator, operatorLoc: opLoc, value, loc: span(key.loc, value.loc) };
}

function buildClause(n: CstNode): A.Clause | undefined {
  const c = n.children;
  const all = tok(c, 'ALL');
  if (all) return { kind: 'AllClause', loc: tokenRange(all) };
  const [name, sub] = Object.entries(c)[0] ?? [];
  const child = (sub as CstNode[] | undefined)?.[0];
  if (!name || !child || !('children' in child)) return undefined;
  const cc = child.children;
  switch (name) {
    case 'idClause': {
      const kw = tok(cc, 'ID');
      const value = buildValue(node(cc, 'value'));
      return kw && value ? { kind: 'IdClause', value, loc: span(tokenRange(kw), value.loc) } : undefined;
    }
    case 'idsClause': {
      const kw = tok(cc, 'IDS');
      const values = buildValueList(node(cc, 'valueList'));
      return kw && values ? { kind: 'IdsClause', values, loc: span(tokenRange(kw), values.loc) } : undefined;
    }
    case 'whereClause': {
      const kw = tok(cc, 'WHERE');
      if (!kw) return undefined;
      const conditions: A.Condition[] = [];
      for (const cond of nodes(cc, 'condition')) {
        const built = buildCondition(cond);
        if (built) conditions.push(built);
      }
      const limit = tok(cc, 'LIMIT') ? buildValue(node(cc, 'value')) : undefined;
      if (conditions.length === 0) return undefined;
      const last = limit?.loc ?? conditions[conditions.length - 1].loc;
      return { kind: 'WhereClause', conditions, limit, loc: span(tokenRange(kw), last) };
    }
    case 'valueClause':
    case 'listClause': {
      const kw = tok(cc, 'keyword');
      if (!kw) return undefined;
      const keywordLoc = tokenRange(kw);
      if (name === 'valueClause') {
        const value = buildValue(node(cc, 'value'));
        return value ? { kind: 'ValueClause', keyword: kw.tokenType.name as A.ValueKeyword, keywordLoc, value, loc: span(keywordLoc, value.loc) } : undefined;
      }
      const values = buildValueList(node(cc, 'valueList') ?? node(cc, 'elementList'));
      return values ? { kind: 'ListClause', keyword: kw.tokenType.name as A.ListKeyword, keywordLoc, values, loc: span(keywordLoc, values.loc) } : undefined;
    }
    case 'maxClause': {
      const kw = tok(cc, 'MAX');
      const end = tok(cc, 'TOKENS');
      const value = buildValue(node(cc, 'value'));
      return kw && end && value ? { kind: 'MaxTokensClause', value, loc: span(tokenRange(kw), tokenRange(end)) } : undefined;
    }
    case 'olderClause': {
      const kw = tok(cc, 'OLDER');
      const value = buildValue(node(cc, 'value'));
      return kw && value ? { kind: 'OlderThanClause', value, loc: span(tokenRange(kw), value.loc) } : undefined;
    }
    case 'withinClause': {
      const kw = tok(cc, 'WITHIN');
      const range = buildTimeRange(node(cc, 'timeRange'));
      return kw && range ? { kind: 'WithinClause', range, loc: span(tokenRange(kw), range.loc) } : undefined;
    }
    case 'flagClause': {
      const kw = tok(cc, 'keyword');
      if (!kw) return undefined;
      if (kw.tokenType === T.KW.DRY) {
        const run = tok(cc, 'RUN');
        return run ? { kind: 'FlagClause', keyword: 'DRY RUN', loc: span(tokenRange(kw), tokenRange(run)) } : undefined;
      }
      return { kind: 'FlagClause', keyword: kw.tokenType.name as A.FlagKeyword, loc: tokenRange(kw) };
    }
    case 'setClause': {
      const kw = tok(cc, 'SET');
      if (!kw) return undefined;
      const assignments: A.Assignment[] = [];
      for (const a of nodes(cc, 'assignment')) {
        const key = buildKey(node(a.children, 'key'));
        const value = buildValue(node(a.children, 'value'));
        if (key && value) assignments.push({ kind: 'Assignment', key, value, loc: span(key.loc, value.loc) });
      }
      if (assignments.length === 0) return undefined;
      return { kind: 'SetClause', assignments, loc: span(tokenRange(kw), assignments[assignments.length - 1].loc) };
    }
    case 'withClause': {
      const kw = tok(cc, 'WITH');
      const path = nodes(cc, 'key').map(buildKey);
      const value = buildValue(node(cc, 'value'));
      if (!kw || !value || path.length === 0 || path.some((k) => !k)) return undefined;
      return { kind: 'WithClause', path: path as A.Key[], value, loc: span(tokenRange(kw), value.loc) };
    }
  }
  return undefined;
}

// ---------------------------------------------------------------- driver

function diagnosticAt(t: IToken, code: string, message: string, fix?: Diagnostic['fix']): Diagnostic {
  return { code, severity: 'error', message, range: tokenRange(t), ...(fix ? { fix } : {}) };
}

function isVerb(t: IToken | undefined): boolean {
  return !!t && VERB_SET.has(t.tokenType);
}

/** Words a clause may start with, for "did you mean". */
const CLAUSE_WORDS = ['ID', 'IDS', 'ALL', 'WHERE', 'SET', 'WITH', 'TAGS', 'INCLUDE', 'MAX', 'OLDER', 'WITHIN', 'ARCHIVE', 'SOFT', 'HARD', 'CONFIRM', 'DRY', 'LIMIT', 'AND',
  'TYPE', 'TIME', 'SOURCE', 'SUBJECT', 'LOCATION', 'TOPIC', 'URL', 'STRUCTURED', 'PAYLOAD', 'FACETS', 'MODE', 'REASON', 'POLICY', 'INTO', 'STRATEGY', 'TTL', 'UNTIL', 'THEN', 'FOCUS', 'REMIND', 'BY', 'STAGE', 'AS', 'LANG', 'TRACE', 'AT', 'COMMENT'];

function suggestionFix(t: IToken, word: string): Diagnostic['fix'] {
  return { message: `replace '${t.image}' with '${word}'`, edits: [{ range: tokenRange(t), newText: word }] };
}

/** A diagnostic for a parser error, with "did you mean" when a bare word is close to an expected keyword. */
function parserErrorDiagnostic(e: { message: string; token: IToken }, lastToken: IToken): Diagnostic {
  const t = e.token;
  const atEof = t.tokenType.name === 'EOF' || !Number.isFinite(t.startOffset);
  if (t.tokenType === T.Identifier) {
    // Only suggest keywords the parser could take here (a unit where a number is due is no typo).
    const expected = (expectedAtToken.get(t) ?? []).filter((x) => T.KEYWORDS.includes(x.name)).map((x) => x.name);
    const word = expected.length ? closest(t.image, expected) : undefined;
    if (word) return diagnosticAt(t, 'unknown-keyword', `Unknown word '${t.image}'; did you mean ${word}? ${e.message}`, suggestionFix(t, word));
  }
  if (atEof) {
    // Point just after the last token, where the missing part should go.
    const end = tokenRange(lastToken).end;
    return { code: 'unexpected-end', severity: 'error', message: e.message, range: { start: end, end } };
  }
  return diagnosticAt(t, 'unexpected-token', e.message);
}

/** Search options, with an example value, for "only goes with a search". */
const SEARCH_OPTION_EXAMPLES = new Map<TokenType, string>([
  [T.KW.ORDER, 'ORDER BY time_desc'], [T.KW.K, 'K 5'], [T.KW.ALPHA, 'ALPHA 0.5'], [T.KW.CONTEXT, 'CONTEXT "…"'], [T.KW.VECTOR, 'VECTOR [0.1, 0.2]'],
]);

/**
 * The typical misplacements, said plainly: a search option after a filter (SQL habit puts ORDER BY
 * after WHERE) or after the search's other conditions, and LIMIT away from the WHERE conditions.
 */
function misplacedMessage(t: IToken, statement: RawStatement | undefined): string | undefined {
  const example = SEARCH_OPTION_EXAMPLES.get(t.tokenType);
  const name = t.tokenType === T.KW.ORDER ? 'ORDER BY' : t.tokenType.name;
  if (example) {
    const hasSearch = statement?.clauses.some((c) => c.kind === 'WhereClause' && c.conditions.some((x) => x.kind === 'SearchCondition'));
    return hasSearch
      ? `${name} is an option of the search and goes right after it: WHERE search "…" ${example} AND tags HAS "x".`
      : `${name} only goes with a search condition: WHERE search "…" ${example}. A filter (tags HAS …, time IN …, type = …) has no ${t.tokenType === T.KW.ORDER ? 'order' : name}.`;
  }
  if (t.tokenType === T.KW.LIMIT) return 'LIMIT goes right after the WHERE conditions: WHERE tags HAS "x" LIMIT 5 (ID, IDS and ALL take no LIMIT).';
  if (t.tokenType === T.KW.AND) return 'AND joins the conditions of a WHERE and goes right after them: WHERE tags HAS "x" AND type = note.';
  return undefined;
}

/** Last real token index (exclusive end) covered by a CST node, searched in `tokens` from `from`. */
function consumedUntil(cst: CstNode, tokens: IToken[], from: number): number {
  const end = cst.location?.endOffset;
  if (end === undefined || !Number.isFinite(end)) return from;
  let i = from;
  while (i < tokens.length && tokens[i].startOffset <= end) i++;
  return i;
}

export interface ParseResult {
  readonly script: A.Script;
  readonly diagnostics: Diagnostic[];
}

const ZERO: Range = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };

/** Parses a DSL script. Never throws: problems come back as diagnostics next to a partial tree. */
export function parse(text: string): ParseResult {
  try {
    return parseUnsafe(text);
  } catch (err) {
    // Only a bug can get here; report it as a diagnostic rather than crash an editor.
    return {
      script: { kind: 'Script', statements: [], trailingComments: [], loc: ZERO },
      diagnostics: [{ code: 'internal-error', severity: 'error', message: `Internal parser error: ${(err as Error).message}` }],
    };
  }
}

/** The token is the first on its line (comments aside: they are not in the token stream). */
function startsLine(t: IToken, previous: IToken): boolean {
  return (t.startLine ?? 0) > (previous.endLine ?? previous.startLine ?? 0);
}

/**
 * Where the next statement starts after an unreadable part: the first verb at or after `from`
 * (starting a line, when `lineStart`) with no `[` or `{` left open since the statement began at
 * `start`; `chunk.length` when there is none.
 */
function resumeAt(chunk: readonly IToken[], start: number, from: number, lineStart: boolean): number {
  let depth = 0;
  for (let j = start; j < chunk.length; j++) {
    const t = chunk[j];
    if (j >= from && depth === 0 && isVerb(t) && (!lineStart || startsLine(t, chunk[j - 1]))) return j;
    if (t.tokenType === T.LBracket || t.tokenType === T.LBrace) depth++;
    else if ((t.tokenType === T.RBracket || t.tokenType === T.RBrace) && depth > 0) depth--;
  }
  return chunk.length;
}

interface RawStatement {
  readonly verb: A.Verb;
  readonly text?: A.StringValue;
  readonly clauses: A.Clause[];
  readonly loc: Range;
}

function parseUnsafe(text: string): ParseResult {
  const { tokens, comments, diagnostics, muted } = lex(text);
  const lexical = diagnostics.length;
  const raw: RawStatement[] = [];

  // Cut at every `;` (it never appears inside a value), keeping the `;` with its statement.
  const chunks: IToken[][] = [];
  let current: IToken[] = [];
  for (const t of tokens) {
    current.push(t);
    if (t.tokenType === T.Semicolon) {
      chunks.push(current);
      current = [];
    }
  }
  if (current.length) chunks.push(current);

  for (const chunk of chunks) {
    let i = 0;
    while (i < chunk.length) {
      const t = chunk[i];
      if (t.tokenType === T.Semicolon) { i++; continue; }
      if (!isVerb(t)) {
        const word = t.tokenType === T.Identifier || tokenMatcher(t, T.Keyword) ? closest(t.image, T.VERBS) : undefined;
        diagnostics.push(word
          ? diagnosticAt(t, 'unknown-verb', `Unknown verb '${t.image}'; did you mean ${word}?`, suggestionFix(t, word))
          : diagnosticAt(t, 'expected-statement', `Expected a statement starting with a verb (${T.VERBS.join(', ')}) but found '${t.image}'.`));
        // Skip the unreadable statement, up to a verb that starts a later line outside brackets:
        // the next statement with its `;` missing before it (a verb inside a line, or inside a
        // list or object that goes on over lines, is a value: `[Retrieve,\n Delete]`).
        const j = resumeAt(chunk, i, i + 1, true);
        if (j >= chunk.length) break;
        const prev = chunk[j - 1];
        diagnostics.push({
          ...diagnosticAt(chunk[j], 'missing-semicolon', `Expected ';' before '${chunk[j].image}': statements end with ';'.`),
          fix: { message: "insert ';'", edits: [{ range: { start: tokenRange(prev).end, end: tokenRange(prev).end }, newText: ';' }] },
        });
        i = j;
        continue;
      }
      parser.input = chunk.slice(i);
      const cst = parser.statement();
      // Input left after the statement is handled below, not reported as "redundant input".
      const errors = parser.errors.filter((e) => e.name !== 'NotAllInputParsedException');
      for (const e of errors) diagnostics.push(parserErrorDiagnostic(e, chunk[chunk.length - 1]));
      const next = consumedUntil(cst, chunk, i);
      const built = buildStatement(cst);
      if (built) raw.push(built);
      if (next <= i) break;
      const rest = chunk[next];
      if (rest && rest.tokenType !== T.Semicolon) {
        const alreadyReported = errors.some((e) => e.token === rest);
        if (isVerb(rest)) {
          const prev = chunk[next - 1];
          if (!alreadyReported) {
            diagnostics.push({
              ...diagnosticAt(rest, 'missing-semicolon', `Expected ';' before '${rest.image}': statements end with ';'.`),
              fix: { message: "insert ';'", edits: [{ range: { start: tokenRange(prev).end, end: tokenRange(prev).end }, newText: ';' }] },
            });
          }
          i = next;
          continue;
        }
        if (!alreadyReported && errors.length === 0) {
          const verb = built?.verb.name ?? (chunk[i].tokenType.name as A.VerbName);
          const word = rest.tokenType === T.Identifier
            ? closest(rest.image, verbClauseKeywords(verb)) ?? closest(rest.image, [...CLAUSE_WORDS, ...T.VERBS])
            : undefined;
          const message = misplacedMessage(rest, built) ?? `Unexpected '${rest.image}': ${verb} takes ${describeVerbClauses(verb)}; or end the statement with ';'.`;
          diagnostics.push(word
            ? diagnosticAt(rest, 'unknown-keyword', `Unknown word '${rest.image}'; did you mean ${word}? ${message}`, suggestionFix(rest, word))
            : diagnosticAt(rest, 'unexpected-token', message));
        }
        // Resume at the next verb outside brackets in this piece, if any (a missing `;` after a
        // broken clause).
        i = resumeAt(chunk, i, next + 1, false);
        continue;
      }
      i = next;
    }
  }

  // Parse errors inside a span the lexer already explained are not second mistakes.
  const isMuted = (d: Diagnostic) => muted.some((m) => d.range !== undefined && d.range.start.offset >= m.start && d.range.start.offset < m.end);
  for (let k = diagnostics.length - 1; k >= lexical; k--) if (isMuted(diagnostics[k])) diagnostics.splice(k, 1);
  const script = attachComments(text, raw, comments);
  // Source order, whatever stage found them (lexer first, then parser).
  const at = (d: Diagnostic) => d.range?.start.offset ?? Infinity;
  diagnostics.sort((a, b) => at(a) - at(b));
  return { script, diagnostics };
}

function buildStatement(cst: CstNode): RawStatement | undefined {
  const c = cst.children;
  const verbNode = node(c, 'verb');
  const verbTok = verbNode && (Object.values(verbNode.children)[0] as IToken[] | undefined)?.[0];
  if (!verbTok || !Number.isFinite(verbTok.startOffset)) return undefined;
  const verb: A.Verb = { kind: 'Verb', name: verbTok.tokenType.name as A.VerbName, loc: tokenRange(verbTok) };
  const t = tok(c, 'text');
  const text: A.StringValue | undefined = t ? { kind: 'String', value: decodeString(t.image), loc: tokenRange(t) } : undefined;
  const clauses: A.Clause[] = [];
  for (const cl of nodes(c, 'clause')) {
    const built = buildClause(cl);
    if (built) clauses.push(built);
  }
  const semi = tok(c, 'Semicolon');
  const end = semi ? tokenRange(semi) : clauses.length ? clauses[clauses.length - 1].loc : text?.loc ?? verb.loc;
  return { verb, text, clauses, loc: span(verb.loc, end) };
}

function commentNode(t: IToken): A.Comment {
  return { kind: 'Comment', text: t.image.slice(1), loc: tokenRange(t) };
}

function attachComments(text: string, raw: RawStatement[], commentTokens: IToken[]): A.Script {
  const comments = commentTokens.map(commentNode);
  let ci = 0;
  let prevEnd = 0;
  const statements: A.Statement[] = [];
  raw.forEach((s, index) => {
    const leading: A.Comment[] = [];
    const inside: A.Comment[] = [];
    let trailing: A.Comment | undefined;
    // Comments before this statement, then those inside it (they go to its clauses).
    while (ci < comments.length && comments[ci].loc.start.offset < s.loc.start.offset) leading.push(comments[ci++]);
    while (ci < comments.length && comments[ci].loc.start.offset < s.loc.end.offset) inside.push(comments[ci++]);
    const clauses = attachClauseComments(text, s.clauses, inside, leading);
    // A comment on the statement's last line, after it, trails it.
    const c = comments[ci];
    const nextStart = raw[index + 1]?.loc.start.offset ?? Infinity;
    if (c && c.loc.start.line === s.loc.end.line && c.loc.start.offset < nextStart) {
      trailing = c;
      ci++;
    }
    const firstOffset = leading[0]?.loc.start.offset ?? s.loc.start.offset;
    const blankLineBefore = index > 0 && blankBetween(text, prevEnd, firstOffset);
    const lastComment = leading[leading.length - 1];
    const blankLineAfterComments = !!lastComment && lastComment.loc.end.offset < s.loc.start.offset && blankBetween(text, lastComment.loc.end.offset, s.loc.start.offset);
    prevEnd = (trailing ?? s).loc.end.offset;
    statements.push({
      kind: 'Statement', verb: s.verb, text: s.text, clauses, leadingComments: markBlankLines(text, leading),
      ...(trailing ? { trailingComment: trailing } : {}), ...(blankLineBefore ? { blankLineBefore } : {}),
      ...(blankLineAfterComments ? { blankLineAfterComments } : {}), loc: s.loc,
    });
  });
  const trailingComments = markBlankLines(text, comments.slice(ci));
  const end = { line: 1, column: 1, offset: 0 };
  return {
    kind: 'Script', statements, trailingComments,
    loc: { start: end, end: endPosition(text) },
  };
}

/**
 * Gives each comment inside a statement to a clause: a comment after a clause on its last line
 * trails it; any other goes before the next clause (or, with no clause after it, trails the
 * last one; with no clauses at all, it leads the statement).
 */
function attachClauseComments(text: string, clauses: readonly A.Clause[], inside: A.Comment[], statementLeading: A.Comment[]): A.Clause[] {
  if (inside.length === 0) return [...clauses];
  if (clauses.length === 0) {
    statementLeading.push(...inside);
    return [];
  }
  const leading = clauses.map((): A.Comment[] => []);
  const trailing: Array<A.Comment | undefined> = clauses.map(() => undefined);
  for (const c of inside) {
    const at = c.loc.start.offset;
    const before = clauses.findLastIndex((cl) => cl.loc.end.offset <= at);
    const next = clauses.findIndex((cl) => cl.loc.start.offset > at);
    if (before >= 0 && clauses[before].loc.end.line === c.loc.start.line && !trailing[before] && (next < 0 || next === before + 1)) trailing[before] = c;
    else if (next >= 0) leading[next].push(c);
    else if (!trailing[clauses.length - 1]) trailing[clauses.length - 1] = c;
    else leading[clauses.length - 1].push(c);
  }
  return clauses.map((cl, i) => ({
    ...cl,
    ...(leading[i].length ? { leadingComments: markBlankLines(text, leading[i]) } : {}),
    ...(trailing[i] ? { trailingComment: trailing[i] } : {}),
  }));
}

function blankBetween(text: string, from: number, to: number): boolean {
  return /\n[ \t\r]*\n/.test(text.slice(from, to));
}

/** Marks comments (after the first of a run) that have an empty line before them. */
function markBlankLines(text: string, run: A.Comment[]): A.Comment[] {
  return run.map((c, i) => (i > 0 && blankBetween(text, run[i - 1].loc.end.offset, c.loc.start.offset) ? { ...c, blankLineBefore: true } : c));
}

function endPosition(text: string) {
  const lines = text.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1, offset: text.length };
}
