/**
 * CST → AST: Chevrotain's concrete syntax tree of one statement → a `RawStatement` (the verb, its
 * text and clauses; comments are attached later). Parts that error recovery left incomplete are
 * dropped, so the tree holds only what was really written.
 */
import type { CstNode, IToken } from 'chevrotain';
import { tokenMatcher } from 'chevrotain';
import type { Range } from '../diagnostics/diagnostic.js';
import * as T from './tokens.js';
import { SEARCH_OPTION_NAMES, VALUE_KEYWORDS, firstKeyword } from '../language/index.js';
import type * as A from './ast.js';
import type { RawStatement } from './ast.js';
import { SourceRange } from '../diagnostics/sourceRange.js';
import { decodeString, span, spanFrom, textLines, tokenKey, tokenRange, tokenSpan, tokenValue, valueList } from './nodes.js';

export { decodeString };

type Children = CstNode['children'];

const NONE: never[] = [];
function toks(c: Children, name: string): IToken[] {
  return (c[name] as IToken[] | undefined) ?? NONE;
}
function nodes(c: Children, name: string): CstNode[] {
  return (c[name] as CstNode[] | undefined) ?? NONE;
}
/** Real tokens only: tokens invented by error recovery have no position. */
function tok(c: Children, name: string): IToken | undefined {
  const t = (c[name] as IToken[] | undefined)?.[0];
  return t && !t.isInsertedInRecovery && Number.isFinite(t.startOffset) ? t : undefined;
}

/**
 * The value clauses' phrases by their first keyword, the longest first, each with its later
 * words (`AS` → `AS OF` [OF], `AS` []): read off the vocabulary once, not per clause.
 */
const VALUE_PHRASES: ReadonlyMap<string, ReadonlyArray<{ phrase: A.ValueKeyword; rest: readonly string[] }>> = (() => {
  const out = new Map<string, Array<{ phrase: A.ValueKeyword; rest: readonly string[] }>>();
  for (const phrase of [...VALUE_KEYWORDS].sort((a, b) => b.length - a.length)) {
    const [first, ...rest] = phrase.split(' ');
    if (!out.has(first)) out.set(first, []);
    out.get(first)!.push({ phrase, rest });
  }
  return out;
})();
/** The search options with their first keyword, in the vocabulary's order. */
const SEARCH_OPTION_FIRST = SEARCH_OPTION_NAMES.map((name) => ({ name, first: firstKeyword(name) }));
function node(c: Children, name: string): CstNode | undefined {
  return nodes(c, name)[0];
}

/** The name of a CST node's only child (the alternative an OR took), without allocating. */
function onlyChild(c: Children): string | undefined {
  for (const name in c) return name;
  return undefined;
}

function buildValue(n: CstNode | undefined): A.Value | undefined {
  if (!n || n.recoveredNode) return undefined;
  const c = n.children;
  // `value` is one alternative: one token or one sub-rule.
  const name = onlyChild(c);
  if (name === 'list') return buildList(node(c, 'list')!);
  if (name === 'object') return buildObject(node(c, 'object')!);
  const t = name === undefined ? undefined : tok(c, name);
  return t && tokenValue(name!, t);
}

function buildElement(n: CstNode): A.Value | undefined {
  const kw = tok(n.children, 'Keyword');
  if (kw) return { kind: 'Identifier', value: kw.image, loc: tokenRange(kw) };
  return buildValue(node(n.children, 'value'));
}

function nodeRange(n: CstNode, first?: IToken, last?: IToken): Range | undefined {
  const l = n.location;
  if (l && Number.isFinite(l.startOffset) && Number.isFinite(l.endOffset)) {
    return new SourceRange(textLines(), l.startOffset, (l.endOffset ?? l.startOffset) + 1);
  }
  if (first && last) return tokenSpan(first, last);
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
  const name = onlyChild(c);
  const t = name === undefined ? undefined : (c[name] as IToken[])[0];
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
  return valueList(items);
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
      loc: tokenSpan(first, unit),
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
      let name: A.SearchOption['name'] | undefined;
      let k: IToken | undefined;
      for (const o of SEARCH_OPTION_FIRST) if ((k = tok(oc, o.first))) { name = o.name; break; }
      if (!name || !k || !value) continue;
      options.push({ kind: 'SearchOption', name, value, loc: spanFrom(k, value.loc) });
    }
    const query: A.StringValue | undefined = q ? { kind: 'String', value: decodeString(q.image), loc: tokenRange(q) } : undefined;
    const last = options.length ? options[options.length - 1].loc : query?.loc ?? tokenRange(kw);
    return { kind: 'SearchCondition', query, options, loc: spanFrom(kw, last) };
  }
  const field = node(n.children, 'fieldCondition');
  if (!field) return undefined;
  const c = field.children;
  const written = buildKey(node(c, 'fieldName'));
  if (!written) return undefined;
  // A field written as a keyword (`TYPE = note`, `TAGS HAS`) names the lower-case IR field.
  const fieldTok = (Object.values(node(c, 'fieldName')!.children)[0] as IToken[])[0];
  const key = tokenMatcher(fieldTok, T.Keyword) ? { ...written, name: written.name.toLowerCase() } : written;
  const subNode = node(c, 'subField');
  const subField = subNode ? buildKey(subNode) : undefined;
  if (subNode && !subField) return undefined;
  const sub = subField ? { subField } : {};
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
    return { kind: 'FieldCondition', field: key, ...sub, operator, operatorLoc: range.loc, range, loc: span(key.loc, range.loc) };
  }
  opLoc = operator === 'NOT HAS' ? tokenSpan(t!, toks(c, 'HAS')[0] ?? t!) : tokenRange(t!);
  if (operator === 'HAS' || operator === 'NOT HAS') {
    const values = buildValueList(node(c, 'valueList'));
    if (!values) return undefined;
    return { kind: 'FieldCondition', field: key, ...sub, operator, operatorLoc: opLoc, values, loc: span(key.loc, values.loc) };
  }
  const value = buildValue(node(c, 'value'));
  if (!value) return undefined;
  return { kind: 'FieldCondition', field: key, ...sub, operator, operatorLoc: opLoc, value, loc: span(key.loc, value.loc) };
}

function buildClause(n: CstNode): A.Clause | undefined {
  const c = n.children;
  const all = tok(c, 'ALL');
  if (all) return { kind: 'AllClause', loc: tokenRange(all) };
  const name = onlyChild(c);
  const child = name === undefined ? undefined : (c[name] as CstNode[])[0];
  if (!name || !child || !('children' in child)) return undefined;
  const cc = child.children;
  switch (name) {
    case 'idClause': {
      const kw = tok(cc, 'ID');
      const value = buildValue(node(cc, 'value'));
      return kw && value ? { kind: 'IdClause', value, loc: spanFrom(kw, value.loc) } : undefined;
    }
    case 'idsClause': {
      const kw = tok(cc, 'IDS');
      const values = buildValueList(node(cc, 'valueList'));
      return kw && values ? { kind: 'IdsClause', values, loc: spanFrom(kw, values.loc) } : undefined;
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
      return { kind: 'WhereClause', conditions, limit, loc: spanFrom(kw, last) };
    }
    case 'valueClause':
    case 'listClause': {
      const kw = tok(cc, 'keyword');
      if (!kw) return undefined;
      const keywordLoc = tokenRange(kw);
      if (name === 'valueClause') {
        const value = buildValue(node(cc, 'value'));
        // A two-word keyword (`VALID FROM`, `AS OF`): the phrase whose later words were consumed.
        const written = VALUE_PHRASES.get(kw.tokenType.name)?.find((p) => p.rest.every((w) => tok(cc, w)));
        const phrase = written?.phrase ?? (kw.tokenType.name as A.ValueKeyword);
        const last = written?.rest.length ? tok(cc, written.rest[written.rest.length - 1]) : undefined;
        const loc = last ? span(keywordLoc, tokenRange(last)) : keywordLoc;
        return value ? { kind: 'ValueClause', keyword: phrase, keywordLoc: loc, value, loc: span(keywordLoc, value.loc) } : undefined;
      }
      const values = buildValueList(node(cc, 'valueList') ?? node(cc, 'elementList'));
      return values ? { kind: 'ListClause', keyword: kw.tokenType.name as A.ListKeyword, keywordLoc, values, loc: span(keywordLoc, values.loc) } : undefined;
    }
    case 'maxClause': {
      const kw = tok(cc, 'MAX');
      const end = tok(cc, 'TOKENS');
      const value = buildValue(node(cc, 'value'));
      return kw && end && value ? { kind: 'MaxTokensClause', value, loc: tokenSpan(kw, end) } : undefined;
    }
    case 'olderClause': {
      const kw = tok(cc, 'OLDER');
      const value = buildValue(node(cc, 'value'));
      return kw && value ? { kind: 'OlderThanClause', value, loc: spanFrom(kw, value.loc) } : undefined;
    }
    case 'withinClause': {
      const kw = tok(cc, 'WITHIN');
      const range = buildTimeRange(node(cc, 'timeRange'));
      return kw && range ? { kind: 'WithinClause', range, loc: spanFrom(kw, range.loc) } : undefined;
    }
    case 'flagClause': {
      const kw = tok(cc, 'keyword');
      if (!kw) return undefined;
      if (kw.tokenType === T.KW.DRY) {
        const run = tok(cc, 'RUN');
        return run ? { kind: 'FlagClause', keyword: 'DRY RUN', loc: tokenSpan(kw, run) } : undefined;
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
      return { kind: 'SetClause', assignments, loc: spanFrom(kw, assignments[assignments.length - 1].loc) };
    }
    case 'withClause': {
      const kw = tok(cc, 'WITH');
      const path = nodes(cc, 'key').map(buildKey);
      const value = buildValue(node(cc, 'value'));
      if (!kw || !value || path.length === 0 || path.some((k) => !k)) return undefined;
      return { kind: 'WithClause', path: path as A.Key[], value, loc: spanFrom(kw, value.loc) };
    }
  }
  return undefined;
}

export type { RawStatement } from './ast.js';

export function buildStatement(cst: CstNode): RawStatement | undefined {
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
  const binding = buildBinding(node(c, 'letBinding'));
  return { ...(binding ? { binding } : {}), verb, text, clauses, loc: span(binding?.loc ?? verb.loc, end) };
}

/** `LET $name =`, when all of it was written. */
function buildBinding(n: CstNode | undefined): A.Binding | undefined {
  if (!n) return undefined;
  const kw = tok(n.children, 'LET');
  const ref = tok(n.children, 'Reference');
  const eq = tok(n.children, 'Equals');
  if (!kw || !ref || !eq) return undefined;
  return { kind: 'Binding', name: ref.image.slice(1), nameLoc: tokenRange(ref), loc: tokenSpan(kw, eq) };
}
