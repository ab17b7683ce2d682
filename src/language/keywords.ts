/**
 * Every keyword of the DSL, in one table with its documentation: the lexer makes one token per
 * entry (`src/syntax/tokens.ts`), and hover, completion and the highlighter read the same table.
 * Keys are upper-case; keywords match in any letter case. The order is the tokens' order.
 */

export interface KeywordDoc {
  /** One or two sentences, Markdown. */
  readonly summary: string;
  /** The IR field the keyword writes, when it writes one (dotted path, `args.` for verb args). */
  readonly ir?: string;
}

/** The twelve verbs (the paper's Table 1), in op order. */
const VERB_KEYWORDS = {
  ENCODE: { summary: '**Encode** (stage ENC): store a memory (text, url or structured payload), or a typed fact (`ATTRIBUTE`).', ir: 'op = "Encode"' },
  UPDATE: { summary: '**Update** (STO): set fields of memories (`SET field value, …`).', ir: 'op = "Update", args.set' },
  LABEL: { summary: '**Label** (STO): add, replace or remove tags and merge facets on memories.', ir: 'op = "Label"' },
  PROMOTE: { summary: '**Promote** (STO): raise salience: set or shift the weight, attach a reminder (RRULE), record a REWARD.', ir: 'op = "Promote"' },
  DEMOTE: { summary: '**Demote** (STO): lower salience: set or shift the weight down, or archive (still retrievable).', ir: 'op = "Demote"' },
  MERGE: { summary: '**Merge** (STO): fold memories into a primary one; the others keep lineage links and are (soft-)deleted.', ir: 'op = "Merge"' },
  SPLIT: { summary: '**Split** (STO): break a memory into linked children by sentences, by chunks, or by a custom instruction.', ir: 'op = "Split"' },
  LOCK: { summary: '**Lock** (STO): make memories read-only or append-only, with a policy, reviewers and an expiry.', ir: 'op = "Lock"' },
  EXPIRE: { summary: '**Expire** (STO): give memories a time to live (`TTL P7D`) or an end time (`UNTIL …`) and what happens then.', ir: 'op = "Expire"' },
  DELETE: { summary: '**Delete** (STO): remove memories, soft (recoverable) or hard, optionally only those older than a duration.', ir: 'op = "Delete"' },
  RETRIEVE: { summary: '**Retrieve** (RET): read memories by ids, filter or search, now or `AS OF` a time, returning the `INCLUDE`d fields.', ir: 'op = "Retrieve"' },
  SUMMARIZE: { summary: '**Summarize** (RET): an extractive digest of memories, with a focus and a token budget.', ir: 'op = "Summarize"' },
} as const satisfies Record<string, KeywordDoc>;

const KEYWORD_TABLE = {
  ...VERB_KEYWORDS,
  // Target
  IDS: { summary: 'Target memories by id: `IDS "1", "2"` (a list) — the only target mode that names records directly.', ir: 'target.ids' },
  ID: { summary: 'Target one memory by id: `ID "42"` (a single id, not a list).', ir: 'target.ids' },
  ALL: { summary: 'Target every memory. A write over `ALL` needs `CONFIRM` or `DRY RUN`; a read needs `CONFIRM`.', ir: 'target.all' },
  WHERE: { summary: 'Select memories by conditions joined with `AND`: `tags HAS …`, `time IN LAST 7 DAYS`, `type = …`, `weight >= …`, `search "…"`.', ir: 'target.filter / target.search' },
  AND: { summary: 'Joins conditions of a `WHERE` clause; all must hold.' },
  LIMIT: { summary: 'At most this many memories (≥ 1). A write over a filter or search should always have one.', ir: 'target.filter.limit / target.search.limit' },
  SEARCH: { summary: 'Semantic search: `search "query"` ranks memories by relevance to the text (optionally `CONTEXT`, `K`, `ALPHA`, `ORDER BY`).', ir: 'target.search.intent.query' },
  HAS: { summary: '`tags HAS "a", "b"`: memories carrying all these tags.', ir: 'target.filter.has_tags' },
  NOT: { summary: '`tags NOT HAS "x"`: memories carrying none of these tags.', ir: 'target.filter.not_tags' },
  IN: { summary: '`time IN LAST 7 DAYS` or `time IN <start> TO <end>`: a time range.', ir: 'target.filter.time_range' },
  FROM: { summary: 'Start of an absolute time range (`FROM <datetime> TO <datetime>`).', ir: 'time_range.start' },
  TO: { summary: 'End of an absolute time range.', ir: 'time_range.end' },
  LAST: { summary: 'A relative range ending now: `LAST 7 DAYS` (units: minutes, hours, days, weeks, months, years).', ir: 'time_range.relative = "last"' },
  NEXT: { summary: 'A relative range starting now: `NEXT 2 WEEKS`.', ir: 'time_range.relative = "next"' },
  BEFORE: { summary: '`expires BEFORE <datetime>`: memories that expire before this time.', ir: 'target.filter.expire_before' },
  AFTER: { summary: '`expires AFTER <datetime>`: memories that expire after this time.', ir: 'target.filter.expire_after' },
  K: { summary: 'Search override: how many candidates the search considers.', ir: 'target.search.overrides.k' },
  ALPHA: { summary: 'Search override: the mix of semantic and keyword score, in [0, 1].', ir: 'target.search.overrides.alpha' },
  ORDER: { summary: '`ORDER BY relevance | time_desc | time_asc | weight_desc`: result order.', ir: 'target.search.overrides.order_by' },
  BY: { summary: 'Part of `ORDER BY`; in PROMOTE and DEMOTE, `BY d` moves the weight by d (`args.weight_delta`).' },
  CONTEXT: { summary: 'Extra context for a search intent (e.g. who is asking and why).', ir: 'target.search.intent.context' },
  VECTOR: { summary: 'Search with a query embedding instead of text: `search VECTOR [0.1, 0.2, …]`.', ir: 'target.search.intent.vector' },
  // Argument clauses
  TYPE: { summary: 'The memory type (free text, e.g. `note`, `task`, `incident_timeline`).', ir: 'args.type / target.filter.type' },
  TAGS: { summary: 'Tags, a list of strings: `TAGS "OKR", "review"`.', ir: 'args.tags' },
  TIME: { summary: 'When the memory happened: an ISO-8601 datetime with offset, kept as written.', ir: 'args.time' },
  SOURCE: { summary: 'Where the memory came from (e.g. `"meeting_minutes"`).', ir: 'args.source' },
  SUBJECT: { summary: 'What the memory is about (a facet; also a filter field).', ir: 'args.subject / facets.subject' },
  LOCATION: { summary: 'Where the memory happened (a facet; also a filter field).', ir: 'args.location / facets.location' },
  TOPIC: { summary: 'The topic of the memory (a facet; also a filter field).', ir: 'args.topic / facets.topic' },
  URL: { summary: 'Encode a link as the payload instead of (or with) text.', ir: 'args.payload.url' },
  STRUCTURED: { summary: 'Encode a JSON object as the payload: `STRUCTURED { … }`.', ir: 'args.payload.structured' },
  PAYLOAD: { summary: 'Extra payload fields as a JSON object, kept verbatim (e.g. `knowledge_type`).', ir: 'args.payload' },
  FACETS: { summary: 'Facets as an object: `FACETS { subject: "…", topic: "…" }`; unknown keys are kept.', ir: 'args.facets' },
  MODE: { summary: 'Label: `add | replace | remove`; Lock: `read_only | append_only`.', ir: 'args.mode' },
  REASON: { summary: 'Why the operation is done; recorded in the audit log.', ir: 'args.reason' },
  POLICY: { summary: 'Lock policy: `{ allow: [Retrieve], deny: [Delete], reviewers: ["…"], expires: "…" }`.', ir: 'args.policy' },
  INTO: { summary: 'Merge: the primary memory the others are folded into (`INTO "1"`, or `auto` for the first).', ir: 'args.primary_id' },
  STRATEGY: { summary: 'Merge or split strategy.', ir: 'args.strategy' },
  INSTRUCTION: { summary: 'SPLIT … STRATEGY custom: how to cut, in words (`"by topic"`); the engine cuts at headings, else paragraphs, else lines.', ir: 'args.params.custom.instruction' },
  TTL: { summary: 'Time to live, an ISO-8601 duration (`P7D`, `PT1H30M`). Exclusive with `UNTIL`.', ir: 'args.ttl' },
  UNTIL: { summary: 'Expire at this datetime (or: a reminder until this time). Exclusive with `TTL`.', ir: 'args.until' },
  THEN: { summary: 'What happens on expiry: `soft_delete | hard_delete | demote | anonymize`.', ir: 'args.on_expire' },
  FOCUS: { summary: 'Summarize: what the summary should concentrate on.', ir: 'args.focus' },
  MAX: { summary: '`MAX n TOKENS` (SUMMARIZE): the summary budget in tokens.', ir: 'args.max_tokens' },
  TOKENS: { summary: 'Part of `MAX n TOKENS` (SUMMARIZE): the summary budget in tokens.', ir: 'args.max_tokens' },
  REMIND: { summary: 'Promote with a reminder: an RFC 5545 rule (`"FREQ=WEEKLY;BYDAY=MO"`), optionally `UNTIL` a time; or a date-time for one reminder (`REMIND 2025-05-01T09:00:00+08:00`).', ir: 'args.remind' },
  ARCHIVE: { summary: 'Demote by archiving: weight drops to ≤ 0.3; the memory stays retrievable.', ir: 'args.archive' },
  SOFT: { summary: 'Delete recoverably (the row is flagged, not removed).', ir: 'args.soft = true' },
  HARD: { summary: 'Delete for good (the row is removed).', ir: 'args.soft = false' },
  OLDER: { summary: '`OLDER THAN P30D`: only memories older than this duration.', ir: 'args.older_than' },
  THAN: { summary: 'Part of `OLDER THAN <duration>`.', ir: 'args.older_than' },
  WITHIN: { summary: 'Delete only within a time range.', ir: 'args.time_range' },
  LEVEL: { summary: '`episode` (a past task) or `turn` (state → action → observation). SPLIT `LEVEL turn`: pieces become turns of the source; RETRIEVE `LEVEL …`: K candidates, a selector keeps `PICK n`.', ir: 'args.level' },
  OF: { summary: '`LEVEL turn OF $e`: the turn\'s episode; `AS OF <datetime>`: read what held then.', ir: 'args.episode_id / args.as_of' },
  PICK: { summary: '`RETRIEVE … LEVEL … PICK n`: how many candidates the selector keeps (default 1).', ir: 'args.pick' },
  EXPAND: { summary: '`RETRIEVE … LEVEL turn EXPAND episode`: also return the episode of each selected turn.', ir: 'args.expand' },
  VALUE: { summary: '`ENCODE "<key>" LEVEL episode VALUE "…"`: the stored value of an experience record (trajectory, final query, fix), returned by a retrieval, never searched; the text is the key.', ir: 'args.value' },
  STATUS: { summary: '`ENCODE … LEVEL turn STATUS error`: execution status of an experience record: `ok`, `error`, `empty` or `wrong`.', ir: 'args.status' },
  REWARD: { summary: '`PROMOTE IDS … REWARD r` (0–1): an outcome; moves learned utility (running mean), not weight.', ir: 'args.reward' },
  INCLUDE: { summary: 'Retrieve: which fields to return (`INCLUDE id, text, tags`).', ir: 'args.include' },
  SET: { summary: 'Fields to set: `SET weight 0.9`, `SET text "…", type "…"`.', ir: 'args.set / args.weight' },
  WITH: { summary: 'Extra arguments as an object, kept verbatim: `WITH { … }`.', ir: 'args' },
  // Typed facts and reads in time (extensions, spec/syntax.md §12)
  ATTRIBUTE: { summary: 'ENCODE a typed fact: `SUBJECT mira ATTRIBUTE passport_deadline`; the text is its value, and a new value supersedes the current one.', ir: 'args.attribute' },
  KNOWN: { summary: '`KNOWN AT <datetime>`: read what the store believed then (transaction time), with `AS OF` or now as the valid time.', ir: 'args.known_at' },
  VALID: { summary: '`VALID FROM <datetime>`: when a fact starts to hold (default: now); the version it supersedes ends there.', ir: 'args.valid_from' },
  EPISODE: { summary: 'The source episode a fact was learnt from (provenance): `EPISODE "e2"`.', ir: 'args.episode' },
  CONFIDENCE: { summary: 'How sure the writer is of a fact, from 0 to 1.', ir: 'args.confidence' },
  RETENTION: { summary: 'Retention class: `ephemeral | session | durable | legal_hold` (expiry, and what deletion erases).', ir: 'args.retention' },
  SCHEMA: { summary: 'Declare an attribute\'s schema: `ENCODE ATTRIBUTE passport_deadline SCHEMA { type: "date", cardinality: "one", normalize: ["trim", "casefold"], conflict: "latest" }`; later facts of that attribute are checked against it.', ir: 'args.schema' },
  HISTORY: { summary: 'RETRIEVE every version of the selected facts, superseded ones included, oldest first.', ir: 'args.history' },
  // Statement-wide
  STAGE: { summary: 'The stage, normally implied by the verb: `ENC`, `STO` or `RET`.', ir: 'stage' },
  AS: { summary: 'Who acts: `AS "sre-ling"`; permissions and the audit log use it.', ir: 'meta.actor' },
  LANG: { summary: 'The language of the instruction (`LANG "zh"`).', ir: 'meta.lang' },
  TRACE: { summary: '`TRACE "id"`: a trace id to correlate the operation with a request.', ir: 'meta.trace_id' },
  AT: { summary: '`AT <datetime>`: when the instruction was issued.', ir: 'meta.timestamp' },
  DRY: { summary: '`DRY RUN`: show the SQL plan and the ids that would change, change nothing.', ir: 'meta.dry_run' },
  RUN: { summary: 'Part of `DRY RUN`.', ir: 'meta.dry_run' },
  CONFIRM: { summary: 'Confirms a broad operation (required for `ALL`).', ir: 'meta.confirmation' },
  LET: { summary: '`LET $name = <statement>`: binds the ids the statement created or affected (ENCODE: the new id; SPLIT: the pieces; MERGE: the primary; a write: the affected ids; RETRIEVE: the returned ids), for later statements to use as `ID $name`, `IDS $name` or `INTO $name`.', ir: '_let' },
  COMMENT: { summary: 'A note kept in the IR (`COMMENT "…"`), unlike a `#` comment which only lives in the text.', ir: '_comment' },
} as const satisfies Record<string, KeywordDoc>;

export type Keyword = keyof typeof KEYWORD_TABLE;

/** Every keyword, upper-case, verbs first (in op order). */
export const KEYWORDS = Object.keys(KEYWORD_TABLE) as readonly Keyword[];

/** The documentation of each keyword, by the keyword in upper case. */
export const KEYWORD_DOCS: Readonly<Record<string, KeywordDoc>> = KEYWORD_TABLE;
/** The documentation of each verb. */
export const VERB_DOCS: Readonly<Record<string, KeywordDoc>> = VERB_KEYWORDS;

export function isKeyword(word: string): word is Keyword {
  return Object.prototype.hasOwnProperty.call(KEYWORD_TABLE, word);
}
