/**
 * The clause table: every clause of a statement, how it is written, which verbs take it and which
 * IR field it fills. The lexer's keyword groups, the parser's clause alternatives, `astToIr` and
 * `irToAst`, the per-verb GBNF, the parser's messages and the spec's clause tables all read it.
 */
import { VERB_OF_OP, type Op, type VerbName } from './ops.js';

export type Path = readonly string[];

/**
 * How a clause is written: `target` (ID v, IDS v, …, ALL, WHERE …), `value` (KEYWORD v), `list`
 * (KEYWORD v, …), `flag` (the keyword alone), `max-tokens` (MAX n TOKENS), `older-than`
 * (OLDER THAN d), `within` (WITHIN range), `set` (SET k = v, …), `with` (WITH a.b = v).
 */
export type ClauseShape = 'target' | 'value' | 'list' | 'flag' | 'max-tokens' | 'older-than' | 'within' | 'set' | 'with';

export interface ClauseSpec {
  readonly shape: ClauseShape;
  /** A verb's own clause: the IR path it fills, per op that takes it. */
  readonly ops?: Partial<Record<Op, Path>>;
  /** A clause every verb takes: the IR path it fills (target and SET/WITH clauses have none). */
  readonly path?: Path;
  /** A flag: the value it writes. */
  readonly value?: boolean;
  /** Its value is an object whose entries are set one by one under the path (PAYLOAD), beside other clauses' fields. */
  readonly merge?: boolean;
  /** How a list of clauses writes it, when that is more than its name (`MAX … TOKENS`). */
  readonly written?: string;
  /** How a message names its IR field, when that is more than its name (`MAX n TOKENS`). */
  readonly named?: string;
}

/**
 * Every clause, by its name: its keyword, or its keywords for `DRY RUN`, or its first keyword
 * for `MAX … TOKENS` and `OLDER THAN`. Order: the target and SET / WITH (every verb), the verbs'
 * own clauses, the flags, then STAGE, the meta clauses and COMMENT; it is the order of the
 * grammar's alternatives.
 */
export const CLAUSES = {
  ID: { shape: 'target', path: ['target', 'ids'] },
  IDS: { shape: 'target', path: ['target', 'ids'] },
  ALL: { shape: 'target', path: ['target', 'all'] },
  WHERE: { shape: 'target', path: ['target'] },
  SET: { shape: 'set' },
  WITH: { shape: 'with' },

  TYPE: { shape: 'value', ops: { Encode: ['args', 'type'] } },
  TAGS: { shape: 'list', ops: { Encode: ['args', 'tags'], Label: ['args', 'tags'] } },
  TIME: { shape: 'value', ops: { Encode: ['args', 'time'] } },
  SOURCE: { shape: 'value', ops: { Encode: ['args', 'source'] } },
  SUBJECT: { shape: 'value', ops: { Encode: ['args', 'subject'] } },
  LOCATION: { shape: 'value', ops: { Encode: ['args', 'location'] } },
  TOPIC: { shape: 'value', ops: { Encode: ['args', 'topic'] } },
  URL: { shape: 'value', ops: { Encode: ['args', 'payload', 'url'] } },
  STRUCTURED: { shape: 'value', ops: { Encode: ['args', 'payload', 'structured'] } },
  PAYLOAD: { shape: 'value', ops: { Encode: ['args', 'payload'] }, merge: true },
  FACETS: { shape: 'value', ops: { Encode: ['args', 'facets'], Label: ['args', 'facets'] } },
  MODE: { shape: 'value', ops: { Label: ['args', 'mode'], Lock: ['args', 'mode'] } },
  REASON: { shape: 'value', ops: { Promote: ['args', 'reason'], Demote: ['args', 'reason'], Lock: ['args', 'reason'], Delete: ['args', 'reason'], Expire: ['args', 'reason'] } },
  POLICY: { shape: 'value', ops: { Lock: ['args', 'policy'] } },
  INTO: { shape: 'value', ops: { Merge: ['args', 'primary_id'] } },
  STRATEGY: { shape: 'value', ops: { Merge: ['args', 'strategy'], Split: ['args', 'strategy'] } },
  // The upstream IR's custom split instruction (`params.custom.instruction`), a clause of its own.
  INSTRUCTION: { shape: 'value', ops: { Split: ['args', 'params', 'custom', 'instruction'] } },
  TTL: { shape: 'value', ops: { Expire: ['args', 'ttl'] } },
  UNTIL: { shape: 'value', ops: { Expire: ['args', 'until'], Promote: ['args', 'remind', 'until'] } },
  THEN: { shape: 'value', ops: { Expire: ['args', 'on_expire'] } },
  FOCUS: { shape: 'value', ops: { Summarize: ['args', 'focus'] } },
  REMIND: { shape: 'value', ops: { Promote: ['args', 'remind', 'rrule'] }, named: 'REMIND "rule"' },
  BY: { shape: 'value', ops: { Promote: ['args', 'weight_delta'], Demote: ['args', 'weight_delta'] } },
  INCLUDE: { shape: 'list', ops: { Retrieve: ['args', 'include'] } },
  MAX: { shape: 'max-tokens', ops: { Summarize: ['args', 'max_tokens'] }, written: 'MAX … TOKENS', named: 'MAX n TOKENS' },
  OLDER: { shape: 'older-than', ops: { Delete: ['args', 'older_than'] }, written: 'OLDER THAN', named: 'OLDER THAN' },
  WITHIN: { shape: 'within', ops: { Delete: ['args', 'time_range'] } },
  ATTRIBUTE: { shape: 'value', ops: { Encode: ['args', 'attribute'] } },
  'VALID FROM': { shape: 'value', ops: { Encode: ['args', 'valid_from'] } },
  EPISODE: { shape: 'value', ops: { Encode: ['args', 'episode'] } },
  CONFIDENCE: { shape: 'value', ops: { Encode: ['args', 'confidence'] } },
  RETENTION: { shape: 'value', ops: { Encode: ['args', 'retention'] } },
  'AS OF': { shape: 'value', ops: { Retrieve: ['args', 'as_of'], Summarize: ['args', 'as_of'] } },
  'KNOWN AT': { shape: 'value', ops: { Retrieve: ['args', 'known_at'], Summarize: ['args', 'known_at'] } },
  // Attribute schemas (an extension, spec/syntax.md §12.3): `ENCODE ATTRIBUTE a SCHEMA { … }` declares one.
  SCHEMA: { shape: 'value', ops: { Encode: ['args', 'schema'] } },
  // Experience memory (an extension, spec/syntax.md §12): levels, two-stage retrieval, feedback.
  LEVEL: { shape: 'value', ops: { Encode: ['args', 'level'], Split: ['args', 'level'], Retrieve: ['args', 'level'] } },
  OF: { shape: 'value', ops: { Encode: ['args', 'episode_id'] } },
  PICK: { shape: 'value', ops: { Retrieve: ['args', 'pick'] } },
  EXPAND: { shape: 'value', ops: { Retrieve: ['args', 'expand'] } },
  REWARD: { shape: 'value', ops: { Promote: ['args', 'reward'] } },
  // Experience memory: a record's stored value (returned, never searched) and execution status.
  VALUE: { shape: 'value', ops: { Encode: ['args', 'value'] } },
  STATUS: { shape: 'value', ops: { Encode: ['args', 'status'] } },

  ARCHIVE: { shape: 'flag', value: true, ops: { Demote: ['args', 'archive'] } },
  SOFT: { shape: 'flag', value: true, ops: { Delete: ['args', 'soft'] }, named: 'SOFT / HARD' },
  HARD: { shape: 'flag', value: false, ops: { Delete: ['args', 'soft'] }, named: 'SOFT / HARD' },
  CONFIRM: { shape: 'flag', value: true, path: ['meta', 'confirmation'] },
  HISTORY: { shape: 'flag', value: true, ops: { Retrieve: ['args', 'history'] } },
  'DRY RUN': { shape: 'flag', value: true, path: ['meta', 'dry_run'] },

  STAGE: { shape: 'value', path: ['stage'] },
  AS: { shape: 'value', path: ['meta', 'actor'] },
  LANG: { shape: 'value', path: ['meta', 'lang'] },
  TRACE: { shape: 'value', path: ['meta', 'trace_id'] },
  AT: { shape: 'value', path: ['meta', 'timestamp'] },
  COMMENT: { shape: 'value', path: ['_comment'] },
} as const satisfies Readonly<Record<string, ClauseSpec>>;

export type ClauseName = keyof typeof CLAUSES;
type NamesOf<S extends ClauseShape> = { [K in ClauseName]: (typeof CLAUSES)[K]['shape'] extends S ? K : never }[ClauseName];
export type ValueKeyword = NamesOf<'value'>;
export type ListKeyword = NamesOf<'list'>;
export type FlagKeyword = NamesOf<'flag'>;

const TABLE: Readonly<Record<ClauseName, ClauseSpec>> = CLAUSES;
const NAMES = Object.keys(CLAUSES) as ClauseName[];

export function clauseSpec(name: string): ClauseSpec | undefined {
  return Object.prototype.hasOwnProperty.call(TABLE, name) ? TABLE[name as ClauseName] : undefined;
}

function namesOf<S extends ClauseShape>(shape: S): NamesOf<S>[] {
  return NAMES.filter((n) => TABLE[n].shape === shape) as NamesOf<S>[];
}
/** Clause keywords followed by exactly one value. */
export const VALUE_KEYWORDS: readonly ValueKeyword[] = namesOf('value');
/** Clause keywords followed by one value or a comma-separated list. */
export const LIST_KEYWORDS: readonly ListKeyword[] = namesOf('list');
/** Clause keywords that stand alone (`DRY RUN` is two words). */
export const FLAG_KEYWORDS: readonly FlagKeyword[] = namesOf('flag');
/** What a list clause's items are: values, or elements (a keyword is a bare word: `INCLUDE id, type`). */
export const LIST_ITEMS: Readonly<Record<ListKeyword, 'values' | 'elements'>> = { TAGS: 'values', INCLUDE: 'elements' };

/** The keyword a clause starts with (`DRY` for `DRY RUN`). */
export function firstKeyword(name: string): string {
  return name.split(' ')[0];
}

/** The IR path a clause fills in an `op` statement, or undefined when that verb does not take it. */
export function clausePath(name: string, op: Op): Path | undefined {
  const spec = clauseSpec(name);
  return spec?.path ?? spec?.ops?.[op];
}

/** The clause takes a value in every verb (or is a target, SET or WITH clause). */
export function isStatementClause(name: string): boolean {
  return clauseSpec(name)?.ops === undefined;
}

/** The verbs that have a clause of their own (for "X belongs to …" messages; none for clauses every verb takes). */
export function clauseVerbs(name: string): VerbName[] {
  return (Object.keys(clauseSpec(name)?.ops ?? {}) as Op[]).map((op) => VERB_OF_OP[op]);
}

/**
 * The canonical order of a statement's clauses, as the printer writes them: the target; the
 * verb's own clauses (what is stored, then how it changes, then what is read); REASON, POLICY,
 * SET and WITH; the meta clauses; DRY RUN and CONFIRM; STAGE and COMMENT last. Every clause of
 * CLAUSES has one place (a clause added without one does not compile; test/language checks
 * there is no clause twice).
 */
export const CLAUSE_ORDER = [
  'ID', 'IDS', 'ALL', 'WHERE',
  'LEVEL', 'OF', 'PICK', 'EXPAND', 'REWARD',
  'TYPE', 'TAGS', 'TIME', 'SOURCE', 'SUBJECT', 'ATTRIBUTE', 'VALID FROM', 'EPISODE', 'CONFIDENCE', 'RETENTION', 'SCHEMA', 'LOCATION', 'TOPIC', 'URL', 'STRUCTURED', 'PAYLOAD', 'FACETS', 'VALUE', 'STATUS',
  'MODE', 'INTO', 'STRATEGY', 'INSTRUCTION', 'BY', 'ARCHIVE', 'REMIND', 'TTL', 'UNTIL', 'THEN', 'SOFT', 'HARD', 'OLDER',
  'WITHIN', 'AS OF', 'KNOWN AT', 'HISTORY', 'INCLUDE', 'FOCUS', 'MAX', 'REASON', 'POLICY', 'SET', 'WITH',
  'AS', 'LANG', 'TRACE', 'AT', 'DRY RUN', 'CONFIRM', 'STAGE', 'COMMENT',
] as const satisfies readonly ClauseName[];
type Unplaced = Exclude<ClauseName, (typeof CLAUSE_ORDER)[number]>;
/** Compiles only when every clause has a place in CLAUSE_ORDER (else its type names the ones missing). */
const EVERY_CLAUSE_PLACED: [Unplaced] extends [never] ? true : { unplaced: Unplaced } = true;
void EVERY_CLAUSE_PLACED;

/** Only ENCODE starts with a text (`ENCODE "…"`); other verbs select memories. */
export const VERB_TEXT: Partial<Record<Op, Path>> = { Encode: ['args', 'payload', 'text'] };

// ---------------------------------------------------------------- WHERE

/** Search options (`WHERE search "q" K 5 …`) → path under `target.search`, with an example. */
export const SEARCH_OPTIONS = {
  K: { path: ['overrides', 'k'], example: 'K 5' },
  ALPHA: { path: ['overrides', 'alpha'], example: 'ALPHA 0.5' },
  LIMIT: { path: ['limit'], example: 'LIMIT 5' },
  CONTEXT: { path: ['intent', 'context'], example: 'CONTEXT "…"' },
  VECTOR: { path: ['intent', 'vector'], example: 'VECTOR [0.1, 0.2]' },
  'ORDER BY': { path: ['overrides', 'order_by'], example: 'ORDER BY time_desc' },
} as const satisfies Readonly<Record<string, { path: Path; example: string }>>;
export type SearchOptionName = keyof typeof SEARCH_OPTIONS;
export const SEARCH_OPTION_NAMES = Object.keys(SEARCH_OPTIONS) as readonly SearchOptionName[];
/** The search's own text: `search "query"`. */
export const SEARCH_QUERY_PATH: Path = ['intent', 'query'];

/**
 * The operators of a WHERE field condition: the field each applies to (any field for `=`) and
 * the filter key it sets (the field itself for `=`). `RANGE` is a time range (`time IN LAST 7
 * DAYS`, `time FROM a TO b`).
 */
export const CONDITION_OPERATORS = {
  '=': { field: undefined, key: undefined },
  HAS: { field: 'tags', key: 'has_tags' },
  'NOT HAS': { field: 'tags', key: 'not_tags' },
  '>=': { field: 'weight', key: 'weight_gte' },
  '<=': { field: 'weight', key: 'weight_lte' },
  BEFORE: { field: 'expires', key: 'expire_before' },
  AFTER: { field: 'expires', key: 'expire_after' },
  RANGE: { field: 'time', key: 'time_range' },
} as const satisfies Readonly<Record<string, { field: string | undefined; key: string | undefined }>>;
export type FieldOperator = keyof typeof CONDITION_OPERATORS;

/** The operator that writes a filter key other than by `key = v` (`has_tags` → HAS). */
export function operatorOfFilterKey(key: string): Exclude<FieldOperator, '='> | undefined {
  return (Object.keys(CONDITION_OPERATORS) as FieldOperator[]).find((o) => CONDITION_OPERATORS[o].key === key) as Exclude<FieldOperator, '='> | undefined;
}

/**
 * The canonical order of WHERE conditions, by the filter key they set: tags, time, the
 * exact-match facets, weight, expiry. Every field of the IR's filter but `limit` (always written
 * last, as `LIMIT n`).
 */
export const CONDITION_ORDER = [
  'has_tags', 'not_tags', 'time_range', 'type', 'subject', 'location', 'topic', 'weight_gte', 'weight_lte', 'expire_before', 'expire_after',
] as const;

// ---------------------------------------------------------------- exclusive groups

/**
 * The target modes (ID/IDS, WHERE, WHERE search, ALL): a target selects by exactly one, except
 * that a search may be narrowed by a filter.
 */
export const TARGET_MODES = ['ids', 'filter', 'search', 'all'] as const;

/** Alternative arguments: at most one of each group is given (the object's path and its keys). */
export const EXCLUSIVE_GROUPS: ReadonlyArray<{ readonly op?: Op; readonly at: string; readonly keys: readonly string[] }> = [
  { op: 'Promote', at: 'args', keys: ['weight', 'weight_delta', 'remind'] },
  { op: 'Demote', at: 'args', keys: ['archive', 'weight', 'weight_delta'] },
  { op: 'Expire', at: 'args', keys: ['ttl', 'until'] },
  { op: 'Encode', at: 'args.payload', keys: ['text', 'url', 'structured'] },
  { at: 'target.search.intent', keys: ['query', 'vector'] },
];
