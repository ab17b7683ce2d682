/**
 * The printer: Script AST → DSL text. Keywords upper-case, field names lower-case, clauses and
 * WHERE conditions in one fixed order, each value in one spelling, one statement per line group
 * ending with `;`, statements longer than the line width wrapped one clause per line, comments and
 * single blank lines kept. The output depends only on the tree, so printing is idempotent.
 * `print` (src/convert/canonical.ts), the only formatter (CLI `fmt`, JSON → DSL, prettier plugin,
 * playground), first rewrites each statement to the one its IR converts back to.
 */
import type * as A from './ast.js';
import { CLAUSE_ORDER, SOFT_KEYWORDS, type ClauseName, type Keyword } from '../language/index.js';
import { sortConditions } from './conditions.js';
import { DATETIME_PATTERN, DURATION_PATTERN, IDENTIFIER_PATTERN, keywordToken } from './tokens.js';

export interface PrintOptions {
  /** Statements longer than this are wrapped, one clause per line. Default 100. */
  readonly width?: number;
  /**
   * The text the script was parsed from. With it, every number literal is printed exactly as
   * written there (`1E3`, `1.50`, an integer above 2^53); without it (a tree built from IR),
   * numbers are printed in JavaScript's shortest form.
   */
  readonly source?: string;
  /** Rewrites each statement before it is printed (its numbers still spelt as in `source`); none: printed as given. */
  readonly rewrite?: (statement: A.Statement) => A.Statement;
}

const DATETIME_FULL = new RegExp(`^(?:${DATETIME_PATTERN.source})$`);
const DURATION_FULL = new RegExp(`^(?:${DURATION_PATTERN.source})$`);
const LITERAL_WORDS = new Set(['true', 'false', 'null']);

/**
 * A string that reads back as the same string when written bare in a value position: not a
 * literal, and not a keyword unless a soft one (`THEN demote`, `LEVEL episode`).
 */
function isBareWord(s: string, value = true): boolean {
  const kw = keywordToken(s);
  return IDENTIFIER_PATTERN.test(s) && (!kw || (value && SOFT_KEYWORDS.includes(kw.name as Keyword))) && !LITERAL_WORDS.has(s.toLowerCase()) && !DURATION_FULL.test(s);
}

/** How a clause shows a string: `enum` bare words (`note`, `read_only`), `time` bare datetimes/durations. */
type Style = 'plain' | 'enum' | 'time' | 'element' | 'remind';

function shortestNumber(n: number): string {
  return Object.is(n, -0) ? '-0' : String(n);
}

/**
 * How the statement being printed spells its numbers: the literals as written in the source,
 * queued by the number's shortest form, with the next one to use. The canonical statement is
 * rebuilt from the IR, which holds only the numbers' values, so the written text is looked up by
 * value (two spellings of one value in a statement, `1.5` and `1.50`, are used in source order).
 * Set by printStatement for the length of one synchronous call; each rendering pass of the
 * statement starts the queues again (`restartNumbers`).
 */
let writtenNumbers: Map<string, { readonly texts: readonly string[]; next: number }> | undefined;

function printNumber(n: number): string {
  const shortest = shortestNumber(n);
  const queue = writtenNumbers?.get(shortest);
  if (!queue || queue.texts.length === 0) return shortest;
  // More uses than literals cannot happen for one pass; reuse the last spelling rather than guess.
  return queue.texts[Math.min(queue.next++, queue.texts.length - 1)];
}

/** Where each queue stands, to render a part of the statement again from there. */
function numbersMark(): Map<string, number> {
  return new Map([...(writtenNumbers ?? [])].map(([k, q]) => [k, q.next]));
}

function restartNumbers(mark?: Map<string, number>): void {
  for (const [k, q] of writtenNumbers ?? []) q.next = mark?.get(k) ?? 0;
}

/** The number literals of a parsed statement as written in `source`, by shortest form, in order. */
function numberLiterals(statement: A.Statement, source: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      const n = node as { kind?: unknown; value?: unknown; loc?: A.Node['loc'] };
      if (n.kind === 'Number' && typeof n.value === 'number' && n.loc && n.loc.end.offset > n.loc.start.offset) {
        const key = shortestNumber(n.value);
        out.set(key, [...(out.get(key) ?? []), source.slice(n.loc.start.offset, n.loc.end.offset)]);
        return;
      }
      for (const [k, v] of Object.entries(node)) if (k !== 'loc') visit(v);
    }
  };
  visit(statement);
  return out;
}

export function printKey(name: string): string {
  // Keywords are fine as keys, but a duration-looking word would lex as a duration.
  return IDENTIFIER_PATTERN.test(name) && !DURATION_FULL.test(name) ? name : JSON.stringify(name);
}

function printString(s: string, style: Style): string {
  if (style === 'enum' && isBareWord(s)) return s;
  // In an element list a keyword reads back as the word itself (`INCLUDE id, type`).
  if (style === 'element' && IDENTIFIER_PATTERN.test(s) && !LITERAL_WORDS.has(s.toLowerCase()) && !DURATION_FULL.test(s)) return s;
  if (style === 'time' && (DATETIME_FULL.test(s) || DURATION_FULL.test(s))) return s;
  return JSON.stringify(s);
}

export function printValue(v: A.Value, style: Style = 'plain'): string {
  // `REMIND <date-time>` (one reminder) stays bare; a quoted rule stays quoted, so each reads back as itself.
  if (style === 'remind' && v.kind === 'DateTime' && DATETIME_FULL.test(v.value)) return v.value;
  switch (v.kind) {
    case 'String': case 'Identifier': case 'DateTime': case 'Duration': return printString(v.value, style);
    case 'Number': return printNumber(v.value);
    case 'Boolean': return String(v.value);
    case 'Null': return 'null';
    case 'Ref': return `$${v.name}`;
    case 'List': return `[${v.items.map((i) => printValue(i)).join(', ')}]`;
    case 'Object': return v.entries.length ? `{ ${v.entries.map((e) => `${printKey(e.key.name)}: ${printValue(e.value)}`).join(', ')} }` : '{}';
  }
}

function printValueList(l: A.ValueList, style: Style = 'plain'): string {
  const bracketed = l.items.length === 0 || (l.items.length === 1 && l.items[0].kind === 'List');
  const items = l.items.map((i) => printValue(i, style)).join(', ');
  return bracketed ? `[${items}]` : items;
}

function printFieldName(name: string): string {
  // A keyword field name is read lower-cased, so only a lower-case one may stay bare.
  // `search` always starts a search condition, so a field of that name is quoted.
  return isBareWord(name, false) || (!!keywordToken(name) && name === name.toLowerCase() && name !== 'search') ? name : JSON.stringify(name);
}

function printRange(r: A.TimeRange): string {
  const parts: string[] = [];
  if (r.relative) parts.push(`IN ${r.relative.direction.toUpperCase()} ${printValue(r.relative.amount)} ${r.relative.unit.toUpperCase()}`);
  if (r.from) parts.push(`FROM ${printValue(r.from, 'time')}`);
  if (r.to) parts.push(`TO ${printValue(r.to, 'time')}`);
  return parts.join(' ');
}

const SEARCH_OPTION_ORDER: readonly A.SearchOptionName[] = ['VECTOR', 'CONTEXT', 'K', 'ALPHA', 'ORDER BY', 'LIMIT'];

function printCondition(c: A.Condition): string {
  if (c.kind === 'SearchCondition') {
    const parts = ['search'];
    if (c.query) parts.push(JSON.stringify(c.query.value));
    const options = [...c.options].sort((a, b) => SEARCH_OPTION_ORDER.indexOf(a.name) - SEARCH_OPTION_ORDER.indexOf(b.name));
    for (const o of options) parts.push(`${o.name} ${printValue(o.value, o.name === 'ORDER BY' ? 'enum' : 'plain')}`);
    return parts.join(' ');
  }
  const field = printFieldName(c.field.name);
  switch (c.operator) {
    case 'HAS': case 'NOT HAS': return `${field} ${c.operator} ${printValueList(c.values!)}`;
    case 'RANGE': return `${field} ${printRange(c.range!)}`;
    case '=': return `${field} = ${printValue(c.value!, c.field.name === 'type' ? 'enum' : 'time')}`;
    default: return `${field} ${c.operator} ${printValue(c.value!, 'time')}`;
  }
}

/** Conditions in canonical order: the search first, so a LIMIT after it stays the search's. */
function whereParts(w: A.WhereClause): string[] {
  const sorted = sortConditions(w.conditions);
  const fields = sorted.filter((c) => c.kind !== 'SearchCondition');
  const conditions = sorted.map(printCondition);
  // A filter LIMIT right after a search would be read as the search's: keep it apart.
  const limit = w.limit ? ` LIMIT ${printValue(w.limit)}` : '';
  if (limit && fields.length === 0) conditions.push(`limit = ${printValue(w.limit!)}`);
  else if (limit) conditions[conditions.length - 1] += limit;
  return conditions;
}

const VALUE_STYLE: Partial<Record<A.ValueKeyword, Style>> = {
  TYPE: 'enum', MODE: 'enum', STRATEGY: 'enum', THEN: 'enum', STAGE: 'enum', LANG: 'enum', LEVEL: 'enum', EXPAND: 'enum', STATUS: 'enum',
  TIME: 'time', REMIND: 'remind', UNTIL: 'time', AT: 'time', TTL: 'time', 'VALID FROM': 'time', 'AS OF': 'time', 'KNOWN AT': 'time',
};

/** The clause a clause node is, by its name in the vocabulary's clause table. */
function clauseName(c: A.Clause): ClauseName {
  switch (c.kind) {
    case 'IdClause': return 'ID';
    case 'IdsClause': return 'IDS';
    case 'AllClause': return 'ALL';
    case 'WhereClause': return 'WHERE';
    case 'SetClause': return 'SET';
    case 'WithClause': return 'WITH';
    case 'MaxTokensClause': return 'MAX';
    case 'OlderThanClause': return 'OLDER';
    case 'WithinClause': return 'WITHIN';
    case 'ValueClause': case 'ListClause': case 'FlagClause': return c.keyword;
  }
}
/** Canonical clause order: the vocabulary's (rank = index). */
const CLAUSE_RANK: ReadonlyMap<ClauseName, number> = new Map(CLAUSE_ORDER.map((name, i) => [name, i]));
function withKey(c: A.Clause): string {
  return c.kind === 'WithClause' ? JSON.stringify(c.path.map((k) => k.name)) : '';
}
/** Clauses sorted by rank; WITH clauses by path, so the text does not depend on IR key order. */
function sortClauses(clauses: readonly A.Clause[]): A.Clause[] {
  return clauses
    .map((c, i) => ({ c, i, r: rank(c), w: withKey(c) }))
    .sort((a, b) => a.r - b.r || (a.w < b.w ? -1 : a.w > b.w ? 1 : 0) || a.i - b.i)
    .map(({ c }) => c);
}
function rank(c: A.Clause): number {
  return CLAUSE_RANK.get(clauseName(c))!;
}

function printClause(c: A.Clause): string {
  switch (c.kind) {
    case 'IdClause': return `ID ${printValue(c.value)}`;
    case 'IdsClause': return `IDS ${printValueList(c.values)}`;
    case 'AllClause': return 'ALL';
    case 'WhereClause': return `WHERE ${whereParts(c).join(' AND ')}`;
    case 'ValueClause': return `${c.keyword} ${printValue(c.value, VALUE_STYLE[c.keyword] ?? 'plain')}`;
    case 'ListClause': return `${c.keyword} ${printValueList(c.values, c.keyword === 'INCLUDE' ? 'element' : 'plain')}`;
    case 'MaxTokensClause': return `MAX ${printValue(c.value)} TOKENS`;
    case 'OlderThanClause': return `OLDER THAN ${printValue(c.value, 'time')}`;
    case 'WithinClause': return `WITHIN ${printRange(c.range).replace(/^IN /, '')}`;
    case 'FlagClause': return c.keyword;
    case 'SetClause': return `SET ${c.assignments.map((a) => `${printKey(a.key.name)} = ${printValue(a.value)}`).join(', ')}`;
    case 'WithClause': return `WITH ${c.path.map((k) => printKey(k.name)).join('.')} = ${printValue(c.value)}`;
  }
}

interface Line {
  text: string;
  comment?: A.Comment;
}

function printStatement(statement: A.Statement, width: number, source?: string, rewrite?: (s: A.Statement) => A.Statement): string {
  writtenNumbers = source === undefined
    ? undefined
    : new Map([...numberLiterals(statement, source)].map(([k, texts]) => [k, { texts, next: 0 }]));
  try {
    return printCanonical(rewrite ? rewrite(statement) : statement, width);
  } finally {
    writtenNumbers = undefined;
  }
}

function printCanonical(s: A.Statement, width: number): string {
  const verb = s.binding ? `LET $${s.binding.name} = ${s.verb.name}` : s.verb.name;
  const head = s.text ? `${verb} ${JSON.stringify(s.text.value)}` : verb;
  let clauses = sortClauses(s.clauses);
  let statementComment = s.trailingComment;
  // A comment trailing the last clause is printed after the `;`, where it reads back as the
  // statement's own: treat it as that from the start, so the layout does not depend on which.
  const lastClause = clauses[clauses.length - 1];
  if (lastClause?.trailingComment && !statementComment) {
    statementComment = lastClause.trailingComment;
    clauses = [...clauses.slice(0, -1), { ...lastClause, trailingComment: undefined }];
  }
  const hasComments = clauses.some((c) => c.leadingComments?.length || c.trailingComment);
  const oneLine = [head, ...clauses.map(printClause)].join(' ');
  const lines: Line[] = [];
  if (!hasComments && oneLine.length + 1 <= width) lines.push({ text: oneLine });
  else {
    restartNumbers();
    // Wrapped: the target stays on the verb's line when it fits; every other clause on its own
    // line, after its own comments.
    lines.push({ text: head });
    for (const c of clauses) {
      const mark = numbersMark();
      let text = printClause(c);
      const isTarget = c.kind === 'IdClause' || c.kind === 'IdsClause' || c.kind === 'AllClause' || c.kind === 'WhereClause';
      const first = lines[0];
      if (isTarget && lines.length === 1 && !first.comment && !c.leadingComments?.length && `${first.text} ${text}`.length <= width) {
        first.text += ` ${text}`;
        first.comment = c.trailingComment;
        continue;
      }
      for (const comment of c.leadingComments ?? []) {
        if (comment.blankLineBefore) lines.push({ text: '' });
        lines.push({ text: `  ${printComment(comment)}` });
      }
      if (c.kind === 'WhereClause' && text.length + 2 > width) {
        restartNumbers(mark);
        text = `WHERE ${whereParts(c).join('\n    AND ')}`;
      }
      lines.push({ text: `  ${text}`, comment: c.trailingComment });
    }
  }
  const last = lines[lines.length - 1];
  last.text += ';';
  if (statementComment) {
    // One comment per line: the last clause's own comment moves above it.
    if (last.comment) lines.splice(lines.length - 1, 0, { text: `  ${printComment(last.comment)}` });
    last.comment = statementComment;
  }
  return lines.map((l) => (l.comment ? `${l.text} ${printComment(l.comment)}` : l.text)).join('\n');
}

function printComment(c: A.Comment): string {
  return `#${c.text}`.trimEnd();
}

/** DSL text for a script, each statement rewritten by `options.rewrite` first; ends with a newline unless the script is empty. */
export function printTree(script: A.Script, options: PrintOptions = {}): string {
  const width = options.width ?? 100;
  const out: string[] = [];
  script.statements.forEach((s, i) => {
    if (i > 0 && s.blankLineBefore) out.push('');
    for (const c of s.leadingComments) {
      if (c.blankLineBefore) out.push('');
      out.push(printComment(c));
    }
    if (s.leadingComments.length && s.blankLineAfterComments) out.push('');
    out.push(printStatement(s, width, options.source, options.rewrite));
  });
  if (script.trailingComments.length && out.length) out.push('');
  for (const c of script.trailingComments) {
    if (c.blankLineBefore) out.push('');
    out.push(printComment(c));
  }
  return out.length ? `${out.join('\n')}\n` : '';
}
