/**
 * The registry of diagnostic codes: every code any stage reports, with its default severity, a
 * one-line summary and the `spec/` section that documents it. `Diagnostic.code` is typed by it,
 * so a code that is not registered here is a type error; test/diagnostics/codes.test.ts checks
 * that every anchor exists and that spec/checks.md lists the same codes.
 *
 * One code per invariant: the checker (before a run) and the engine (while running) report the
 * same violation with the same code.
 */
/** How bad a diagnostic is. */
export type Severity = 'error' | 'warning' | 'info';

/** The stage that reports a code first (later stages may report it too, e.g. the engine's own checks). */
export type CodeStage = 'syntax' | 'convert' | 'dataset' | 'validate' | 'check' | 'lower' | 'execute' | 'engine' | 'agent';

export interface CodeInfo {
  readonly severity: Severity;
  readonly stage: CodeStage;
  readonly summary: string;
  /** `spec/<file>.md#<anchor>`: the section that documents the code. */
  readonly spec: string;
}

const SYNTAX = 'spec/syntax.md#9-syntax-diagnostics';
const LIMITS = 'spec/syntax.md#13-limits-and-text-fidelity';
const DATASET = 'spec/syntax.md#10-datasets-one-statement-per-line';
const VALIDATION = 'spec/checks.md#validation-shape';
const TARGET = 'spec/checks.md#target-mode';
const TIME_RANGE = 'spec/checks.md#time-range';
const ENGINE = 'spec/semantics.md#engine-diagnostics';
const GOVERNANCE = 'spec/semantics.md#governance';
const STORAGE = 'spec/semantics.md#storage';
const PROVIDER = 'spec/planning.md#provider-diagnostics';
const RETRIEVAL = 'spec/retrieval.md#embedding-models';
const REPAIR = 'spec/planning.md#the-repair-loop';
const REFERENCES = 'spec/checks.md#references';
const ENGINE_REFERENCES = 'spec/semantics.md#statement-references';
const FACTS = 'spec/checks.md#typed-facts';
const TYPED_STATE = 'spec/semantics.md#typed-state';
const SCHEMAS = 'spec/semantics.md#attribute-schemas';
const EXPERIENCE = 'spec/checks.md#experience-memory';

const error = (stage: CodeStage, spec: string, summary: string): CodeInfo => ({ severity: 'error', stage, summary, spec });
const warning = (stage: CodeStage, spec: string, summary: string): CodeInfo => ({ severity: 'warning', stage, summary, spec });

export const CODES = {
  // Syntax (the parser) and conversion (AST → IR).
  'invalid-character': error('syntax', SYNTAX, 'a character that starts no token'),
  'unterminated-string': error('syntax', SYNTAX, 'a string without its closing quote on the line'),
  'invalid-escape': error('syntax', SYNTAX, 'a backslash escape JSON does not have'),
  'unexpected-token': error('syntax', SYNTAX, 'a token where the grammar expected something else'),
  'unexpected-end': error('syntax', SYNTAX, 'the input ends inside a statement'),
  'unknown-keyword': error('syntax', SYNTAX, 'a bare word where a keyword was expected'),
  'unknown-verb': error('syntax', SYNTAX, 'a statement starting with a word that is not a verb'),
  'expected-statement': error('syntax', SYNTAX, 'a statement that does not start with a verb'),
  'missing-semicolon': error('syntax', SYNTAX, 'two statements without `;` between them'),
  'internal-error': error('syntax', SYNTAX, 'the parser broke (a bug, not a mistake in the input)'),
  'too-deep': error('syntax', LIMITS, 'lists and objects nested deeper than the limit (DSL or JSON)'),
  'invalid-text': error('syntax', LIMITS, 'text that is not valid Unicode (a lone surrogate, bytes that are not UTF-8)'),
  'clause-not-allowed': error('convert', SYNTAX, 'a clause the verb does not take'),
  'duplicate-field': error('convert', SYNTAX, 'the same IR field set by two clauses'),
  'duplicate-key': error('convert', SYNTAX, 'the same key twice in one object literal'),
  'conflicting-fields': error('convert', SYNTAX, 'a path set below a field that already holds a non-object value'),
  'invalid-condition': error('convert', SYNTAX, 'an operator on a field it does not apply to'),
  'expected-object': error('convert', SYNTAX, '`PAYLOAD` with a value that is not an object'),
  // Datasets (`t2m convert --jsonl`).
  'empty-line': error('dataset', DATASET, 'an empty line in a one-record-per-line dataset'),
  'expected-one-statement': error('dataset', DATASET, 'a dataset line holding other than one statement'),
  'invalid-record': error('dataset', DATASET, 'a dataset line that is not an object {"dsl": "<script>"}'),
  // Validation (shape).
  'json-syntax': error('validate', VALIDATION, 'IR JSON text that is not valid JSON'),
  'unknown-op': error('validate', VALIDATION, '`op` is not one of the twelve verbs'),
  'invalid-type': error('validate', VALIDATION, 'a field has the wrong JSON type'),
  'invalid-enum': error('validate', VALIDATION, 'a value outside its enum'),
  'invalid-value': error('validate', VALIDATION, 'a value the schema rejects for another reason'),
  'unknown-field': error('validate', VALIDATION, 'an unknown key where the IR is closed (a warning for a near miss in an open object)'),
  // The checker's cross-field invariants (also reported by the engine when it meets them).
  'stage-inferred': warning('validate', 'spec/checks.md#stage-inferred', "no `stage`, or an unknown one: the statement runs at its op's stage"),
  'misplaced-field': warning('validate', 'spec/checks.md#misplaced-field', 'a field in a common wrong place (`filter.tags`, `target.time_range`, `target.limit`), read where it belongs'),
  'missing-field': error('check', 'spec/checks.md#missing-field', 'a field the op cannot run without is missing'),
  'stage-mismatch': error('check', 'spec/checks.md#stage-mismatch', "the statement's stage is not its op's"),
  'target-required': error('check', TARGET, 'a non-Encode statement without a target'),
  'target-forbidden': error('check', TARGET, 'an Encode with a target'),
  'target-exclusive': error('check', TARGET, 'two target modes other than search + filter'),
  'target-empty-ids': error('check', TARGET, '`ids` is an empty list or an empty string'),
  'duplicate-id': warning('check', TARGET, 'the same id twice in `ids`'),
  'all-requires-confirmation': error('check', 'spec/checks.md#all-requires-confirmation', 'a target of `all` without CONFIRM (or DRY RUN for a write)'),
  'write-without-limit': warning('check', 'spec/checks.md#write-without-limit', 'a write by filter or search without a limit'),
  'unknown-condition': error('check', 'spec/checks.md#unknown-condition', 'a target condition the engine cannot apply (a warning on a read)'),
  'exclusive-args': error('check', 'spec/checks.md#exclusive-args', 'two alternatives of one group of args'),
  'time-range-exclusive': error('check', TIME_RANGE, 'both forms (absolute and relative) in one time range'),
  'time-range-incomplete': error('check', TIME_RANGE, 'a time range form with a part missing'),
  'time-range-order': error('check', TIME_RANGE, 'a time range that starts after it ends'),
  'out-of-range': error('check', 'spec/checks.md#out-of-range', 'a number outside its domain'),
  'empty-weight-range': error('check', 'spec/checks.md#out-of-range', '`weight_gte` above `weight_lte`'),
  'merge-needs-two': error('check', 'spec/checks.md#merge', 'a Merge by ids that names (or finds) fewer than two memories'),
  'merge-primary-not-in-ids': error('check', 'spec/checks.md#merge', "a Merge's explicit `primary_id` is not one of its ids"),
  'empty-condition': error('check', 'spec/checks.md#empty-condition', 'a target condition that selects nothing as written (an empty or blank tag, empty facets, a blank search)'),
  'governed-column': error('check', 'spec/checks.md#governed-column', 'a governed column reached through SET/WITH: a bad value, or a column no clause may write'),
  'policy-conflict': error('check', 'spec/checks.md#policy-conflict', 'a Lock policy that both allows and denies an op'),
  'unsafe-integer': warning('check', 'spec/checks.md#unsafe-integer', 'an integer beyond 2^53 − 1, which JSON numbers cannot hold exactly'),
  'invalid-datetime': error('check', 'spec/checks.md#invalid-datetime', 'a datetime that is not ISO-8601 with an offset, or no real instant'),
  'invalid-duration': error('check', 'spec/checks.md#invalid-duration', 'a duration that is not a positive ISO-8601 duration'),
  'invalid-rrule': error('check', 'spec/checks.md#invalid-rrule', 'a reminder rule that is not an RFC 5545 recurrence rule'),
  'rrule-until-normalised': warning('check', 'spec/checks.md#invalid-rrule', 'an RRULE `UNTIL` in extended ISO-8601, read as RFC 5545'),
  'ref-undefined': error('check', REFERENCES, 'a reference (`$n`) to a name no statement of the script binds'),
  'ref-before-let': error('check', REFERENCES, 'a reference to a name bound only by this statement or a later one'),
  'let-duplicate': error('check', REFERENCES, 'a name bound by two statements of one script'),
  'let-not-ids': error('check', REFERENCES, '`LET` on a statement whose result is not ids (SUMMARIZE, or a DRY RUN statement)'),
  'ref-misplaced': error('check', REFERENCES, 'a reference where ids do not go (only `target.ids`, MERGE\'s `INTO` and a turn\'s `OF`)'),
  'reward-out-of-range': error('check', EXPERIENCE, 'a `REWARD` outside [0, 1]'),
  'level-needs-search': error('check', EXPERIENCE, 'a `RETRIEVE … LEVEL` whose target is not a search (its candidate stage)'),
  'level-mismatch': error('check', EXPERIENCE, 'an experience clause without the level it needs (`OF`, `EXPAND` without `LEVEL turn`; `PICK`, a selector or its options without `LEVEL`; `SPLIT … LEVEL episode`)'),
  'context-without-turn': warning('check', EXPERIENCE, 'a search `CONTEXT` (a turn\'s state) in a `RETRIEVE … LEVEL episode`'),
  'pick-over-k': warning('check', EXPERIENCE, 'a `PICK` above the number of candidates `K`'),
  // Lowering (the engine's reading of a valid IR).
  'bad-arg': error('lower', ENGINE, 'an Encode governance arg (weight, ttl, expiry, lock) with a wrong value'),
  'bad-id': error('lower', ENGINE, 'an id that is not a positive integer'),
  'ignored-arg': warning('lower', ENGINE, 'a key the engine does not act on (kept in the IR, reported)'),
  'empty-value': error('lower', 'spec/semantics.md#text-fidelity', 'a blank entry in a stored list (tags, white- and blacklists)'),
  'weight-clamped': warning('lower', ENGINE, 'a weight outside [0,1], clamped'),
  'demote-positive-delta': warning('lower', ENGINE, 'a Demote with a positive delta, read as the size of the decrease'),
  'promote-negative-delta': warning('lower', ENGINE, 'a Promote with a negative delta, which lowers the weight'),
  // Execution.
  'record-locked': error('execute', GOVERNANCE, 'a write refused by a lock in force (by its verb or by what it would do to the record)'),
  'read-denied': error('execute', GOVERNANCE, 'a write that would copy content (Merge, Split) from a record the actor may not read'),
  'actor-mismatch': error('engine', GOVERNANCE, "a script's `meta.actor` that is not the caller's actor (without impersonation)"),
  'permission-denied': error('execute', GOVERNANCE, 'a write the actor may not make'),
  'merge-primary-missing': error('execute', ENGINE, "a Merge's primary record does not exist (or is deleted or expired)"),
  'ids-not-found': warning('execute', ENGINE, 'named ids with no live record'),
  'not-readable': warning('execute', 'spec/semantics.md#which-records-an-operation-sees', 'named ids the reader may not read'),
  'no-match': warning('execute', ENGINE, 'a write whose target matches no live record'),
  'tag-not-present': warning('execute', ENGINE, 'a Label remove of a tag the record does not have'),
  'split-single-piece': warning('execute', ENGINE, 'a Split that yields one piece; the record is left as is'),
  'expires-immediately': warning('execute', ENGINE, 'an expiry time that is not after now'),
  'lock-hides-record': warning('execute', GOVERNANCE, 'a record left out of a read its lock policy denies'),
  'merge-nothing-to-merge': warning('execute', ENGINE, 'a Merge by filter or search that finds fewer than two records'),
  'ref-empty': error('engine', ENGINE_REFERENCES, 'a reference whose binding holds no ids when the statement runs'),
  'ref-not-single': error('engine', ENGINE_REFERENCES, "a reference in MERGE's `INTO` or a turn's `OF` whose binding holds more than one id"),
  'episode-not-found': error('execute', 'spec/semantics.md#experience-memory', "a turn's `OF` naming no live episode record"),
  'selector-fallback': warning('agent', 'spec/semantics.md#experience-memory', "a model's selection that could not be used (no answer, not JSON, no candidate named); the default selector chose"),
  'selector-invalid': error('execute', 'spec/semantics.md#experience-memory', "a selector's choice that is not among the candidates"),
  // The engine API and stores.
  'limit-exceeded': error('engine', 'spec/semantics.md#limits', 'a script over a resource limit (statements, text length, input size)'),
  'truncated': warning('execute', 'spec/semantics.md#limits', 'a read that matched more rows than it may return; the first ones are returned'),
  'bad-store-file': error('engine', STORAGE, 'bytes that are not a Text2Mem store'),
  'store-unreadable': error('engine', ENGINE, 'a store file that cannot be read'),
  'store-unwritable': error('engine', ENGINE, 'a store file that cannot be written'),
  'store-corrupt': error('engine', 'spec/storage.md#opening', 'a store file that fails SQLite\'s integrity check'),
  'store-schema': error('engine', 'spec/storage.md#opening', 'a store file with a trigger, table or index text2mem did not create'),
  'store-too-new': error('engine', 'spec/storage.md#opening', 'a store file written by a newer version of text2mem'),
  'store-needs-migration': error('engine', 'spec/storage.md#opening', 'an older store opened read-only that needs columns a newer format adds (open it writable once)'),
  'store-read-only': error('engine', 'spec/storage.md#writing', 'a store file this process may not write'),
  'store-busy': error('engine', 'spec/storage.md#writing', 'a store file another process kept locked past the busy timeout'),
  'bad-store-url': error('engine', 'spec/storage.md#naming-a-store', 'a --db store name that is no file path, :memory:, pglite: or postgres:// URL'),
  'store-unreachable': error('engine', 'spec/storage.md#naming-a-store', 'a PostgreSQL server that cannot be reached or refuses the connection'),
  'undo-not-found': error('engine', ENGINE, 'undo of an audit entry that does not exist'),
  'undo-already-done': error('engine', ENGINE, 'undo of an audit entry already undone'),
  'undo-unsupported': error('engine', ENGINE, 'undo of an audit entry without soft deletes'),
  'undo-nothing': error('engine', ENGINE, 'undo whose records are gone or already live'),
  'store-is-async': error('engine', 'spec/storage.md#the-async-seam', 'a store driven synchronously (Store.drive) whose driver, or whose embedding model for a statement that embeds, is asynchronous (run, sweep, undo… or a Session drive it asynchronously)'),
  // Typed facts, reads in time, retention and tenants (spec/checks.md#typed-facts, spec/semantics.md#typed-state).
  'fact-needs-subject': error('check', FACTS, 'an ATTRIBUTE (a fact) without a SUBJECT: a fact is keyed by (subject, attribute)'),
  'fact-needs-attribute': error('check', FACTS, 'VALID FROM, EPISODE or CONFIDENCE on an ENCODE that is not a fact (no ATTRIBUTE)'),
  'as-of-with-history': error('check', FACTS, 'AS OF and HISTORY on one read: a history lists every version, AS OF picks one instant'),
  'retention-held': error('execute', TYPED_STATE, 'a write that would remove, rewrite, expire or un-hold a record under legal_hold retention'),
  'bad-schema': error('lower', SCHEMAS, 'a SCHEMA declaration that is not one: no ATTRIBUTE, an unknown key, type, cardinality, normalisation or conflict policy, an enum without values, or a record\'s clause beside it'),
  'fact-type-mismatch': error('execute', SCHEMAS, "a fact's value that does not have its attribute's declared type (the fix, when one is likely, rewrites it)"),
  'fact-conflict': error('execute', SCHEMAS, "a fact's value that its attribute's conflict policy refuses: lower confidence than the current value's, or a different value without CONFIRM"),
  'retention-expiry': error('execute', TYPED_STATE, 'a write that would leave an ephemeral or session record without an expiry'),
  'fact-version-immutable': error('execute', 'spec/semantics.md#fact-versions', "a write that would change a fact version's text (its value) or subject (its key) in place"),
  'why-not-found': error('engine', TYPED_STATE, '`t2m why` of an id the tenant has no record with'),
  'bad-tenant': error('engine', TYPED_STATE, 'a caller-given tenant that is blank'),
  // Embedding models (t2m reindex) reached over the OpenAI-compatible /v1/embeddings protocol.
  'embeddings-http-error': error('engine', RETRIEVAL, 'the embeddings server answered with an HTTP error status'),
  'embeddings-unreachable': error('engine', RETRIEVAL, 'the embeddings server could not be reached'),
  'embeddings-timeout': error('engine', RETRIEVAL, 'the embeddings server did not answer in time'),
  'embeddings-bad-response': error('engine', RETRIEVAL, 'a reply that is not an embeddings list (not JSON, wrong count, vectors of different lengths)'),
  'embedding-model-mismatch': warning('execute', 'spec/retrieval.md#query-embeddings-and-the-stores-model', "a search whose query is embedded by another model than the tenant's records: only records of the query's model are ranked by vector"),
  // The reranking hook (RunOptions.rerank, t2m run --rerank-url): a failure keeps the first stage's order.
  'rerank-failed': warning('execute', 'spec/retrieval.md#reranking', 'the reranker failed (HTTP error, timeout, unreachable, threw): the first-stage order is kept'),
  'rerank-bad-response': warning('execute', 'spec/retrieval.md#reranking', 'a reranker reply that is not a rerank list (not JSON, no results, an index out of range): the first-stage order is kept'),
  // The planner (t2m plan) and its chat provider.
  'llm-http-error': error('agent', PROVIDER, 'the model server answered with an HTTP error status (or an error event)'),
  'llm-unreachable': error('agent', PROVIDER, 'the model server could not be reached'),
  'llm-timeout': error('agent', PROVIDER, 'the model server did not answer in time'),
  'llm-bad-response': error('agent', PROVIDER, 'a reply that is not a chat completion (not JSON, no content, a refusal)'),
  'plan-empty': error('agent', REPAIR, 'the model answered with no statement'),
  'plan-unrepaired': error('agent', REPAIR, 'the script still had errors after the last repair round'),
  'invalid-answer': error('agent', 'spec/planning.md#scoring-answers-given-offline', 'an `--answers` line that is not {"id", "answer"}, names no sample, or repeats an id'),
} as const satisfies Record<string, CodeInfo>;

export type Code = keyof typeof CODES;

export function isCode(code: string): code is Code {
  return Object.hasOwn(CODES, code);
}


/**
 * The registry as a markdown table (for spec/checks.md, "Diagnostic codes"; written by
 * scripts/gen-codes.ts). Links are relative to `spec/`.
 */
export function codeTable(): string {
  const rows = Object.entries(CODES).map(([code, info]: [string, CodeInfo]) => {
    const target = info.spec.replace(/^spec\//, '').replace(/^checks\.md/, '');
    return `| \`${code}\` | ${info.severity} | ${info.stage} | ${info.summary} | [${target}](${target}) |`;
  });
  return ['| code | severity | stage | meaning | section |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
