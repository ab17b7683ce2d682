/**
 * The one table of which clause fills which IR field, per verb. Both directions (astToIr and
 * irToAst) and the spec's field table are driven by it.
 */
import type { Filter, Op } from '../ir/schema.js';
import type { Condition, FieldCondition, FlagKeyword, SearchOptionName, VerbName } from '../syntax/ast.js';

export const OP_OF_VERB: Readonly<Record<VerbName, Op>> = {
  ENCODE: 'Encode', UPDATE: 'Update', LABEL: 'Label', PROMOTE: 'Promote', DEMOTE: 'Demote', MERGE: 'Merge',
  SPLIT: 'Split', LOCK: 'Lock', EXPIRE: 'Expire', DELETE: 'Delete', RETRIEVE: 'Retrieve', SUMMARIZE: 'Summarize',
};
export const VERB_OF_OP = Object.fromEntries(Object.entries(OP_OF_VERB).map(([v, o]) => [o, v])) as Readonly<Record<Op, VerbName>>;

type Path = readonly string[];

/** Clauses every verb takes: stage, meta and the comment. */
export const COMMON_CLAUSES: Readonly<Record<string, Path>> = {
  AS: ['meta', 'actor'],
  LANG: ['meta', 'lang'],
  TRACE: ['meta', 'trace_id'],
  AT: ['meta', 'timestamp'],
  COMMENT: ['_comment'],
};

/** Verb-specific clauses (value, list, MAX … TOKENS, OLDER THAN, WITHIN): keyword → op → IR path. */
export const CLAUSE_TARGETS: Readonly<Record<string, Partial<Record<Op, Path>>>> = {
  TYPE: { Encode: ['args', 'type'] },
  TAGS: { Encode: ['args', 'tags'], Label: ['args', 'tags'] },
  TIME: { Encode: ['args', 'time'] },
  SOURCE: { Encode: ['args', 'source'] },
  SUBJECT: { Encode: ['args', 'subject'] },
  LOCATION: { Encode: ['args', 'location'] },
  TOPIC: { Encode: ['args', 'topic'] },
  URL: { Encode: ['args', 'payload', 'url'] },
  STRUCTURED: { Encode: ['args', 'payload', 'structured'] },
  PAYLOAD: { Encode: ['args', 'payload'] },
  FACETS: { Encode: ['args', 'facets'], Label: ['args', 'facets'] },
  MODE: { Label: ['args', 'mode'], Lock: ['args', 'mode'] },
  REASON: { Promote: ['args', 'reason'], Demote: ['args', 'reason'], Lock: ['args', 'reason'], Delete: ['args', 'reason'], Expire: ['args', 'reason'] },
  POLICY: { Lock: ['args', 'policy'] },
  INTO: { Merge: ['args', 'primary_id'] },
  STRATEGY: { Merge: ['args', 'strategy'], Split: ['args', 'strategy'] },
  TTL: { Expire: ['args', 'ttl'] },
  UNTIL: { Expire: ['args', 'until'], Promote: ['args', 'remind', 'until'] },
  THEN: { Expire: ['args', 'on_expire'] },
  FOCUS: { Summarize: ['args', 'focus'] },
  REMIND: { Promote: ['args', 'remind', 'rrule'] },
  BY: { Promote: ['args', 'weight_delta'], Demote: ['args', 'weight_delta'] },
  INCLUDE: { Retrieve: ['args', 'include'] },
  MAX: { Summarize: ['args', 'max_tokens'] },
  OLDER: { Delete: ['args', 'older_than'] },
  WITHIN: { Delete: ['args', 'time_range'] },
};

export const FLAG_TARGETS: Readonly<Record<FlagKeyword, { path: Path; value: boolean; ops: readonly Op[] | 'all' }>> = {
  ARCHIVE: { path: ['args', 'archive'], value: true, ops: ['Demote'] },
  SOFT: { path: ['args', 'soft'], value: true, ops: ['Delete'] },
  HARD: { path: ['args', 'soft'], value: false, ops: ['Delete'] },
  CONFIRM: { path: ['meta', 'confirmation'], value: true, ops: 'all' },
  'DRY RUN': { path: ['meta', 'dry_run'], value: true, ops: 'all' },
};

/** Search options → path under `target.search`. */
export const SEARCH_OPTION_PATHS: Readonly<Record<SearchOptionName, Path>> = {
  K: ['overrides', 'k'],
  ALPHA: ['overrides', 'alpha'],
  'ORDER BY': ['overrides', 'order_by'],
  LIMIT: ['limit'],
  CONTEXT: ['intent', 'context'],
  VECTOR: ['intent', 'vector'],
};

/** The verbs that take a clause keyword (for "X belongs to ..." messages). */
export function clauseVerbs(keyword: string): string[] {
  const ops = CLAUSE_TARGETS[keyword] ?? {};
  const flag = FLAG_TARGETS[keyword as FlagKeyword];
  const list = flag ? (flag.ops === 'all' ? [] : flag.ops) : (Object.keys(ops) as Op[]);
  return list.map((o) => VERB_OF_OP[o]);
}

/** The filter field a WHERE condition sets (`tags HAS` → `has_tags`, `type = x` → `type`). */
export function filterKeyOf(c: FieldCondition): string {
  switch (c.operator) {
    case '=': return c.field.name;
    case 'HAS': return 'has_tags';
    case 'NOT HAS': return 'not_tags';
    case 'RANGE': return 'time_range';
    case '>=': return 'weight_gte';
    case '<=': return 'weight_lte';
    case 'BEFORE': return 'expire_before';
    case 'AFTER': return 'expire_after';
  }
}

/**
 * The canonical order of WHERE conditions, by the filter field they set: the order of the
 * reference's condition table (tags, time, the exact-match facets, weight, expiry). Every field
 * of the IR's `Filter` but `limit` (always written last, as `LIMIT n`) is listed.
 */
export const CONDITION_ORDER: readonly (keyof Filter)[] = [
  'has_tags', 'not_tags', 'time_range', 'type', 'subject', 'location', 'topic', 'weight_gte', 'weight_lte', 'expire_before', 'expire_after',
];
const FILTER_ORDER: readonly string[] = CONDITION_ORDER;

/**
 * WHERE conditions in canonical order: the search first (a LIMIT after it stays the search's),
 * then the filter conditions by field in `CONDITION_ORDER`, then unknown fields by name.
 * A filter is a conjunction of distinct fields, so this order depends only on the IR.
 */
export function sortConditions(conditions: readonly Condition[]): Condition[] {
  const rank = (c: Condition): [number, string] => {
    if (c.kind === 'SearchCondition') return [-1, ''];
    const key = filterKeyOf(c);
    const known = FILTER_ORDER.indexOf(key);
    return [known >= 0 ? known : FILTER_ORDER.length, known >= 0 ? '' : key];
  };
  return conditions
    .map((c, i) => ({ c, i, r: rank(c) }))
    .sort((a, b) => a.r[0] - b.r[0] || (a.r[1] < b.r[1] ? -1 : a.r[1] > b.r[1] ? 1 : 0) || a.i - b.i)
    .map(({ c }) => c);
}

/** WHERE spellings of the filter fields that are not written `field = v`. */
const CONDITION_SPELLING: Readonly<Record<string, string>> = {
  has_tags: 'tags HAS', not_tags: 'tags NOT HAS', time_range: 'time IN LAST n UNIT / time FROM a TO b',
  weight_gte: 'weight >=', weight_lte: 'weight <=', expire_before: 'expires BEFORE', expire_after: 'expires AFTER', limit: 'LIMIT',
};

/** Clause spellings that are more than their keyword. */
const KEYWORD_SPELLING: Readonly<Record<string, string>> = { OLDER: 'OLDER THAN', MAX: 'MAX n TOKENS', REMIND: 'REMIND "rule"' };

/**
 * How the DSL writes the IR field at `path` of an `op` statement (spec/syntax.md §8), read off
 * the same tables as the conversion, so that messages about DSL input can name the clause the
 * person wrote (`meta.confirmation` → `CONFIRM`). Undefined for a path no clause spells.
 */
export function dslName(op: Op, path: string): string | undefined {
  const is = (p: Path) => p.join('.') === path;
  for (const [keyword, p] of Object.entries(COMMON_CLAUSES)) if (is(p)) return keyword;
  for (const [keyword, byOp] of Object.entries(CLAUSE_TARGETS)) {
    const p = byOp[op];
    if (p && is(p)) return KEYWORD_SPELLING[keyword] ?? keyword;
  }
  for (const [keyword, flag] of Object.entries(FLAG_TARGETS)) {
    if ((flag.ops === 'all' || flag.ops.includes(op)) && is(flag.path)) return keyword === 'SOFT' ? 'SOFT / HARD' : keyword;
  }
  if (path.startsWith('target.search.')) {
    const rest = path.slice('target.search.'.length);
    for (const [name, p] of Object.entries(SEARCH_OPTION_PATHS)) if (p.join('.') === rest) return name;
    if (rest === 'intent.query' || rest === 'intent') return 'search "query"';
    return undefined;
  }
  if (path.startsWith('target.filter.')) {
    const key = path.slice('target.filter.'.length);
    if (key.includes('.')) return key.startsWith('time_range.') ? CONDITION_SPELLING.time_range : undefined;
    return CONDITION_SPELLING[key] ?? `${key} = …`;
  }
  switch (path) {
    case 'target': return 'ID, IDS, WHERE or ALL';
    case 'target.ids': return 'ID / IDS';
    case 'target.all': return 'ALL';
    case 'target.filter': return 'WHERE';
    case 'target.search': return 'WHERE search "query"';
    case 'args.payload.text': return 'ENCODE "text"';
    case 'args.remind': return 'REMIND "rule"';
    case 'args.set': return 'SET';
  }
  if (op === 'Update' && path.startsWith('args.set.') && !path.slice(9).includes('.')) return `SET ${path.slice(9)}`;
  if (op !== 'Update' && op !== 'Encode' && path.startsWith('args.') && !path.slice(5).includes('.')) return `SET ${path.slice(5)}`;
  return undefined;
}
