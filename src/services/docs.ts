/**
 * Hover and completion documentation: the keywords' and enum values' docs come from the
 * vocabulary (`src/language/`), where each keyword is declared with its doc; the IR's field
 * names are documented here.
 */
import { ENUMS as LANGUAGE_ENUMS, READ_PERMS, WRITE_PERMS, type EnumName } from '../language/index.js';

// Keywords and their docs are the vocabulary's (src/language/keywords.ts).
export { KEYWORD_DOCS, VERB_DOCS, type KeywordDoc } from '../language/index.js';

/**
 * Enum values the IR accepts, by the field that holds them (the vocabulary's enums, but for
 * `relative`, whose values are the keywords LAST and NEXT).
 */
export const ENUMS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  (Object.keys(LANGUAGE_ENUMS) as EnumName[]).filter((name) => name !== 'relative').map((name) => [name, LANGUAGE_ENUMS[name].values]),
);

/** The one-line doc of an enum value, and the enum's default, from the vocabulary. */
export function enumValueDoc(enumName: string, value: string): string | undefined {
  const spec = (LANGUAGE_ENUMS as Readonly<Record<string, { docs: Readonly<Record<string, string>>; default?: string }>>)[enumName];
  const doc = spec?.docs[value];
  if (!doc) return undefined;
  return spec.default ? `\`${value}\`: ${doc} Default: ${spec.default}.` : `\`${value}\`: ${doc}`;
}

/** Documentation of the field names that appear in conditions and object literals. */
export const FIELD_DOCS: Readonly<Record<string, string>> = {
  tags: 'The memory\'s tags (a list of strings).',
  time: 'When the memory happened (ISO-8601 datetime).',
  type: 'The memory type.',
  subject: 'What the memory is about.',
  location: 'Where it happened.',
  topic: 'Its topic.',
  weight: 'Salience in [0, 1]; Promote/Demote change it.',
  expire: 'When the memory expires (set by Expire).',
  text: 'The memory\'s text.',
  source: 'Where the memory came from.',
  facets: 'Free-form facets; subject, time, location and topic are known keys.',
  allow: 'Lock policy: ops still allowed on the locked memories.',
  deny: 'Lock policy: ops refused on the locked memories.',
  reviewers: 'Lock policy: who may review or lift the lock.',
  expires: 'Lock policy: when the lock ends.',
  read_perm_level: `Who may read: ${READ_PERMS.join(', ')}.`,
  write_perm_level: `Who may write: ${WRITE_PERMS.join(', ')}.`,
  read_whitelist: 'Actors always allowed to read.',
  read_blacklist: 'Actors never allowed to read.',
  write_whitelist: 'Actors always allowed to write.',
  write_blacklist: 'Actors never allowed to write.',
  auto_frequency: 'How often the memory is refreshed automatically.',
  expire_at: 'An absolute expiry time.',
  next_auto_update_at: 'When the next automatic refresh is due.',
  skip_embedding: 'Do not compute an embedding for this memory.',
  embedding: 'A precomputed embedding vector.',
  attribute: 'A typed fact\'s attribute: with the subject, the key a new value supersedes (spec/syntax.md §12.1).',
  valid_from: 'When the fact starts to hold (default: now); the version it supersedes ends there.',
  episode: 'The source episode the fact was learnt from (provenance).',
  confidence: 'How sure the writer is of the fact, from 0 to 1.',
  retention: 'Retention class: ephemeral, session, durable or legal_hold (expiry, and what deletion erases).',
  as_of: 'Read what was valid, live and unexpired at this time (RETRIEVE, SUMMARIZE).',
  known_at: 'Read what the store believed at this time: transaction time, with AS OF or now as the valid time (RETRIEVE, SUMMARIZE).',
  history: 'RETRIEVE every version of the selected facts, superseded ones included.',
  ttl: 'Time to live (ISO-8601 duration).',
  weight_delta: 'Promote/Demote: shift the weight by this amount (clamped to [0, 1]).',
  primary_id: 'Merge: the memory the others fold into.',
  soft_delete_children: 'Merge: soft-delete (rather than delete) the merged children.',
  skip_reembedding: 'Merge: keep the primary\'s embedding.',
  inherit_all: 'Split: children inherit all metadata of the source.',
  max_sentences: 'Split by sentences: sentences per child.',
  chunk_size: 'Split by chunks: characters per chunk.',
  num_chunks: 'Split by chunks: number of chunks.',
  instruction: 'Split custom: how to split.',
  max_splits: 'Split custom: at most this many children.',
  delimiters: 'Split custom: cut the text at these literal strings (a string or a list); pieces are trimmed, empty ones dropped.',
  lang: 'Language (`zh`, `en`, `auto`).',
  // Every other field of the IR, so hovering any field name (object keys, SET, WITH) documents it.
  stage: 'The stage: ENC (encode), STO (storage) or RET (retrieval); the verb implies it.',
  op: 'The operation, one of the twelve verbs.',
  target: 'Which memories: ids, a filter, a search (optionally with a filter), or all.',
  ids: 'Target memories by id: one id or a list.',
  filter: 'Target memories by conditions (tags, time, type, subject, weight, expiry…).',
  time_range: 'A time range: start and end, or relative (last/next) with amount and unit.',
  start: 'Start of a time range (ISO-8601).',
  end: 'End of a time range (ISO-8601).',
  relative: 'A relative range: `last` or `next`.',
  amount: 'How many units a relative range spans.',
  unit: 'The unit of a relative range: minutes, hours, days, weeks, months, years.',
  has_tags: 'Filter: memories carrying all these tags.',
  not_tags: 'Filter: memories carrying none of these tags.',
  weight_gte: 'Filter: weight at least this.',
  weight_lte: 'Filter: weight at most this.',
  expire_before: 'Filter: memories expiring before this time.',
  expire_after: 'Filter: memories expiring after this time.',
  limit: 'At most this many memories (≥ 1).',
  search: 'Target memories by semantic search (intent, overrides, limit).',
  intent: 'What the search looks for: a query text or a vector, with optional context.',
  query: 'The search text.',
  vector: 'A query embedding, instead of a query text.',
  overrides: 'Search tuning: k, alpha, order_by.',
  k: 'How many candidates the search considers.',
  alpha: 'Mix of semantic and keyword score, in [0, 1].',
  order_by: 'Result order: relevance, time_desc, time_asc, weight_desc.',
  all: 'Target every memory (needs confirmation).',
  args: 'The verb\'s arguments.',
  payload: 'What Encode stores: text, url or structured data (extra keys are kept).',
  url: 'A link stored as the payload.',
  structured: 'A JSON object stored as the payload.',
  meta: 'Who, when and how: actor, lang, trace_id, timestamp, dry_run, confirmation.',
  actor: 'Who acts; permissions and the audit log use it.',
  trace_id: 'A trace id to correlate the operation with a request.',
  timestamp: 'When the instruction was issued.',
  dry_run: 'Show the plan and would-be ids, change nothing.',
  confirmation: 'Confirms a broad operation (required for `all`).',
  _comment: 'A note kept in the IR.',
  _let: 'Extension: the name this statement\'s ids are bound to (`LET $name = …`); later statements use `$name` where ids go.',
  $ref: 'Extension: a reference `{"$ref": "name"}` to the ids an earlier statement bound with `LET $name`; only in `target.ids`, Merge\'s `args.primary_id` and Encode\'s `args.episode_id`.',
  set: 'Update: the fields to set.',
  mode: 'Label: add, replace or remove; Lock: read_only or append_only.',
  remind: 'Promote: a reminder — an RFC 5545 `rrule`, optionally `until` a time.',
  rrule: 'An RFC 5545 recurrence rule, e.g. `FREQ=WEEKLY;BYDAY=MO`.',
  until: 'Expire at this time / remind until this time.',
  reason: 'Why; recorded in the audit log.',
  archive: 'Demote by archiving (weight ≤ 0.3, still retrievable).',
  strategy: 'Merge: merge_into_primary; Split: by_sentences, by_chunks or custom.',
  params: 'Split: the parameters of the chosen strategy.',
  by_sentences: 'Split by sentences: `lang`, `max_sentences`.',
  by_chunks: 'Split by chunks: `chunk_size` or `num_chunks`.',
  custom: 'Split by a custom instruction: `instruction`, `max_splits`, `delimiters`.',
  policy: 'Lock policy: allow, deny, reviewers, expires.',
  on_expire: 'What happens on expiry: soft_delete, hard_delete, demote, anonymize.',
  older_than: 'Delete: only memories older than this duration.',
  soft: 'Delete recoverably (true) or for good (false).',
  include: 'Retrieve: the fields to return.',
  level: 'Extension (experience memory): `episode` (a whole past task) or `turn` (one step of one). Encode: the record\'s level; Split: `turn` makes the pieces turns of the source; Retrieve: a two-stage retrieval at that level.',
  episode_id: 'Extension (experience memory): a turn\'s episode (an id or a `$ref`), written `OF $e`.',
  pick: 'Extension (experience memory): how many candidates the selector keeps (default 1).',
  selector: 'Extension (experience memory): `utility` (similarity plus learned utility, the default) or `similarity`.',
  expand: 'Extension (experience memory): `episode` adds each selected turn\'s episode.',
  reward: 'Extension (experience memory): Promote records an outcome in [0, 1]; each memory\'s utility moves toward it (a running mean).',
  focus: 'Summarize: what to concentrate on.',
  max_tokens: 'Summarize: the budget in tokens.',
  knowledge_type: 'A payload extra kept verbatim (upstream data uses it).',
  context: 'A payload extra or search context, kept verbatim.',
};
