/**
 * The Text2Mem IR (v1) as zod schemas; TypeScript types are inferred from them.
 *
 * The schemas check *shape*: field types and enum values. Cross-field invariants (one target
 * mode, mutually exclusive args, ranges, required fields, confirmation for `all`) belong to the
 * checker (src/check), which reports them as diagnostics with source spans.
 *
 * They accept what the upstream reference engine accepts, which is more than the published JSON
 * Schema: objects that real data extends (payload, args, set, target, filter, facets, search
 * overrides) are `looseObject`s, so unknown keys are kept, never dropped. Values are kept as
 * written (offsets, id strings, a single id versus a list); normalisation happens in lowering.
 */
import * as z from 'zod';
// The op names, stages and enum values are the language's vocabulary (src/language/).
import {
  STAGES, OPS, STAGE_OF, READ_PERMS, WRITE_PERMS, TIME_UNITS, RELATIVE_DIRECTIONS, ORDER_BY, LABEL_MODES, LOCK_MODES, ON_EXPIRE,
  SPLIT_STRATEGIES, SPLIT_LANGS, MERGE_STRATEGIES, INCLUDE_FIELDS, REF_NAME_PATTERN, RETENTION_CLASSES, LEVELS, EXPAND_LEVELS, SELECTORS,
} from '../language/index.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const JsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValue), z.record(z.string(), JsonValue)]),
);
export const JsonObject = z.record(z.string(), JsonValue);
export type JsonObject = z.infer<typeof JsonObject>;

export {
  STAGES, OPS, STAGE_OF, READ_PERMS, WRITE_PERMS, TIME_UNITS, ORDER_BY, LABEL_MODES, LOCK_MODES, ON_EXPIRE, SPLIT_STRATEGIES,
  SPLIT_LANGS, MERGE_STRATEGIES, INCLUDE_FIELDS,
};
export const Stage = z.enum(STAGES);
export type Stage = z.infer<typeof Stage>;

export const Op = z.enum(OPS);
export type Op = z.infer<typeof Op>;

const str = z.string();
const num = z.number();
const int = z.number().int();
const bool = z.boolean();
/** Datetimes and durations are strings here; their syntax is a checker rule (with spans). */
const DateTime = z.string();
const Duration = z.string();
const Tags = z.array(z.string());
const IdList = z.array(z.string());
export const ReadPerm = z.enum(READ_PERMS);
export const WritePerm = z.enum(WRITE_PERMS);

/** Known facet keys are strings; any other key holds any JSON value. */
export const Facets = z.looseObject({
  subject: str.optional(),
  time: DateTime.optional(),
  location: str.optional(),
  topic: str.optional(),
});
export type Facets = z.infer<typeof Facets>;

export const TimeRange = z.looseObject({
  start: DateTime.optional(),
  end: DateTime.optional(),
  relative: z.enum(RELATIVE_DIRECTIONS).optional(),
  amount: int.optional(),
  unit: z.enum(TIME_UNITS).optional(),
});
export type TimeRange = z.infer<typeof TimeRange>;

export const Filter = z.looseObject({
  time_range: TimeRange.optional(),
  has_tags: Tags.optional(),
  not_tags: Tags.optional(),
  type: str.optional(),
  subject: str.optional(),
  location: str.optional(),
  topic: str.optional(),
  weight_gte: num.optional(),
  weight_lte: num.optional(),
  expire_before: DateTime.optional(),
  expire_after: DateTime.optional(),
  limit: int.optional(),
});
export type Filter = z.infer<typeof Filter>;

export const SearchIntent = z.looseObject({
  query: str.optional(),
  vector: z.array(num).optional(),
  context: str.optional(),
});
export const SearchOverrides = z.looseObject({
  k: int.optional(),
  alpha: num.optional(),
  order_by: z.enum(ORDER_BY).optional(),
});
export const Search = z.looseObject({
  intent: SearchIntent,
  overrides: SearchOverrides.optional(),
  limit: int.optional(),
});
export type Search = z.infer<typeof Search>;

/** Ids are usually strings ("001" stays "001"); numbers are accepted as written. */
export const Id = z.union([z.string(), z.number()]);
/**
 * Extension (spec/syntax.md, "Extensions to the upstream IR"): a reference to the ids an earlier
 * statement bound with `_let`, `{"$ref": "name"}`. Accepted only in `target.ids` and in a Merge's
 * `args.primary_id`; the engine replaces it with the bound ids before lowering.
 */
export const Ref = z.strictObject({ $ref: z.string().regex(REF_NAME_PATTERN) });
export type Ref = z.infer<typeof Ref>;
/** The name an extension binding gives a statement's ids (`_let`). */
const LetName = z.string().regex(REF_NAME_PATTERN);
const IdOrRef = z.union([Id, Ref]);
export const Target = z.looseObject({
  ids: z.union([IdOrRef, z.array(IdOrRef)]).optional(),
  filter: Filter.optional(),
  search: Search.optional(),
  all: bool.optional(),
});
export type Target = z.infer<typeof Target>;

export const Meta = z.strictObject({
  actor: str.optional(),
  lang: str.optional(),
  trace_id: str.optional(),
  timestamp: DateTime.optional(),
  dry_run: bool.optional(),
  confirmation: bool.optional(),
});
export type Meta = z.infer<typeof Meta>;

const permissionFields = {
  read_perm_level: ReadPerm.optional(),
  write_perm_level: WritePerm.optional(),
  read_whitelist: IdList.optional(),
  read_blacklist: IdList.optional(),
  write_whitelist: IdList.optional(),
  write_blacklist: IdList.optional(),
};

export const Payload = z.looseObject({
  text: str.optional(),
  url: str.optional(),
  structured: JsonObject.optional(),
});

export const EncodeArgs = z.looseObject({
  payload: Payload.optional(),
  type: str.optional(),
  tags: Tags.optional(),
  facets: Facets.optional(),
  time: DateTime.optional(),
  subject: str.optional(),
  location: str.optional(),
  topic: str.optional(),
  skip_embedding: bool.optional(),
  source: str.optional(),
  auto_frequency: str.optional(),
  expire_at: DateTime.optional(),
  next_auto_update_at: DateTime.optional(),
  embedding: z.array(num).optional(),
  // Typed facts and retention (extensions, spec/syntax.md §12).
  attribute: str.optional(),
  valid_from: DateTime.optional(),
  episode: str.optional(),
  confidence: num.optional(),
  retention: z.enum(RETENTION_CLASSES).optional(),
  /** Extension (attribute schemas, spec/syntax.md §12.3): declares `attribute`'s schema; its shape is checked by lowering. */
  schema: JsonObject.optional(),
  ...permissionFields,
  /** Extension (experience memory): the record's level, and a turn's episode (an id or a reference). */
  level: z.enum(LEVELS).optional(),
  episode_id: z.union([z.string(), z.number(), Ref]).optional(),
  /** Extension (experience memory): the stored value (returned, not searched) and the execution status. */
  // Both stay any JSON: without LEVEL they are the plain facets they always were (lowering
  // holds an experience record's status to EXEC_STATUSES).
  value: JsonValue.optional(),
  status: JsonValue.optional(),
});

export const UpdateSet = z.looseObject({
  text: str.optional(),
  time: DateTime.optional(),
  type: str.optional(),
  ttl: Duration.optional(),
  weight: num.optional(),
  subject: str.optional(),
  location: str.optional(),
  topic: str.optional(),
  facets: Facets.optional(),
  tags: Tags.optional(),
  auto_frequency: str.optional(),
  expire_at: DateTime.optional(),
  next_auto_update_at: DateTime.optional(),
  ...permissionFields,
});
export const UpdateArgs = z.looseObject({ set: UpdateSet.optional() });

export const LabelArgs = z.looseObject({
  tags: Tags.optional(),
  facets: Facets.optional(),
  mode: z.enum(LABEL_MODES).optional(),
});

export const Remind = z.looseObject({ rrule: str.optional(), until: DateTime.optional() });
export const PromoteArgs = z.looseObject({
  weight: num.optional(),
  weight_delta: num.optional(),
  remind: Remind.optional(),
  reason: str.optional(),
  /** Extension (experience memory): the outcome of using the memories, in [0, 1]; moves their utility. */
  reward: num.optional(),
});

export const DemoteArgs = z.looseObject({
  archive: bool.optional(),
  weight: num.optional(),
  weight_delta: num.optional(),
  reason: str.optional(),
});

export const MergeArgs = z.looseObject({
  strategy: z.enum(MERGE_STRATEGIES).optional(),
  primary_id: z.union([z.string(), z.number(), Ref]).optional(),
  soft_delete_children: bool.optional(),
  skip_reembedding: bool.optional(),
});

export const SplitParams = z.looseObject({
  by_sentences: z.looseObject({ lang: z.enum(SPLIT_LANGS).optional(), max_sentences: int.optional() }).optional(),
  by_chunks: z.looseObject({ chunk_size: int.optional(), num_chunks: int.optional() }).optional(),
  custom: z.looseObject({ instruction: str.optional(), max_splits: int.optional(), delimiters: z.union([str, z.array(str)]).optional() }).optional(),
});
export const SplitArgs = z.looseObject({
  strategy: z.enum(SPLIT_STRATEGIES).optional(),
  params: SplitParams.optional(),
  inherit_all: bool.optional(),
  /** Extension (experience memory): `turn` makes the pieces turns of the source episode. */
  level: z.enum(LEVELS).optional(),
});

export const LockPolicy = z.looseObject({
  allow: z.array(Op).optional(),
  deny: z.array(Op).optional(),
  reviewers: IdList.optional(),
  expires: DateTime.optional(),
});
export const LockArgs = z.looseObject({
  mode: z.enum(LOCK_MODES).optional(),
  reason: str.optional(),
  policy: LockPolicy.optional(),
});

export const ExpireArgs = z.looseObject({
  ttl: Duration.optional(),
  until: DateTime.optional(),
  on_expire: z.enum(ON_EXPIRE).optional(),
});

export const DeleteArgs = z.looseObject({
  older_than: Duration.optional(),
  time_range: TimeRange.optional(),
  soft: bool.optional(),
  reason: str.optional(),
});

export const RetrieveArgs = z.looseObject({
  include: z.array(z.enum(INCLUDE_FIELDS)).optional(),
  /** Extension (typed state): a read as of an instant, or every version of a fact. */
  as_of: DateTime.optional(),
  /** Extension (typed state): a read as the store believed at an instant (transaction time). */
  known_at: DateTime.optional(),
  history: bool.optional(),
  /** Extension (experience memory): two-stage retrieval at a level, keeping `pick` candidates. */
  level: z.enum(LEVELS).optional(),
  pick: int.optional(),
  selector: z.enum(SELECTORS).optional(),
  expand: z.enum(EXPAND_LEVELS).optional(),
  /** Extension (experience memory): the running episode (its records are left out unless include_current), and the selector's options. */
  episode_id: z.union([z.string(), z.number(), Ref]).optional(),
  positive_only: bool.optional(),
  include_current: bool.optional(),
  threshold: num.optional(),
});

export const SummarizeArgs = z.looseObject({ focus: str.optional(), max_tokens: int.optional(), as_of: DateTime.optional(), known_at: DateTime.optional() });

function instruction<O extends Op, A extends z.ZodType>(op: O, args: A) {
  return z.strictObject({
    stage: Stage,
    op: z.literal(op),
    target: Target.optional(),
    args: args.optional(),
    meta: Meta.optional(),
    _comment: str.optional(),
    /** Extension: the name this statement's ids are bound to (`LET $name = …`). */
    _let: LetName.optional(),
  });
}

export const EncodeIR = instruction('Encode', EncodeArgs);
export const UpdateIR = instruction('Update', UpdateArgs);
export const LabelIR = instruction('Label', LabelArgs);
export const PromoteIR = instruction('Promote', PromoteArgs);
export const DemoteIR = instruction('Demote', DemoteArgs);
export const MergeIR = instruction('Merge', MergeArgs);
export const SplitIR = instruction('Split', SplitArgs);
export const LockIR = instruction('Lock', LockArgs);
export const ExpireIR = instruction('Expire', ExpireArgs);
export const DeleteIR = instruction('Delete', DeleteArgs);
export const RetrieveIR = instruction('Retrieve', RetrieveArgs);
export const SummarizeIR = instruction('Summarize', SummarizeArgs);

/** One Text2Mem instruction. */
export const IR = z.discriminatedUnion('op', [
  EncodeIR, UpdateIR, LabelIR, PromoteIR, DemoteIR, MergeIR, SplitIR, LockIR, ExpireIR, DeleteIR, RetrieveIR, SummarizeIR,
]);
export type IR = z.infer<typeof IR>;
export type IROf<O extends Op> = Extract<IR, { op: O }>;

export const ARGS_SCHEMA: Readonly<Record<Op, z.ZodType>> = {
  Encode: EncodeArgs, Update: UpdateArgs, Label: LabelArgs, Promote: PromoteArgs, Demote: DemoteArgs,
  Merge: MergeArgs, Split: SplitArgs, Lock: LockArgs, Expire: ExpireArgs, Delete: DeleteArgs,
  Retrieve: RetrieveArgs, Summarize: SummarizeArgs,
};
