/**
 * Operations: the lowered form of an IR instruction. Kind-tagged, frozen, every value
 * normalised (times are UTC `YYYY-MM-DDTHH:MM:SSZ`, relative ranges concrete, ids numbers,
 * defaults applied), so compile and execute never interpret IR spelling again.
 */
import type { AttributeSchema } from './schema.js';
import type { IR, JsonValue, Op } from '../ir/schema.js';

export type OrderBy = 'relevance' | 'time_desc' | 'time_asc' | 'weight_desc';

/** Inclusive bounds on the `time` column. */
export interface TimeWindow {
  readonly from?: string;
  readonly to?: string;
}

export interface LoweredFilter {
  readonly time?: TimeWindow;
  readonly hasTags: readonly string[];
  readonly notTags: readonly string[];
  readonly type?: string;
  readonly subject?: string;
  readonly location?: string;
  readonly topic?: string;
  /** A fact's attribute (`WHERE subject = mira AND attribute = passport_deadline`). */
  readonly attribute?: string;
  /**
   * Set at execution when the condition names a subject but no attribute: the forms the tenant's
   * attribute schemas keep that subject in, each matching the facts of its attributes.
   */
  readonly subjectForms?: readonly { readonly subject: string; readonly attributes: readonly string[] }[];
  readonly weightGte?: number;
  readonly weightLte?: number;
  readonly expireBefore?: string;
  readonly expireAfter?: string;
  /** Facet key → value the record's facets must hold. */
  readonly facets: Readonly<Record<string, JsonValue>>;
}

export interface LoweredSearch {
  readonly query: string;
  /** Weight of the embedding score against keyword overlap, in [0,1]. */
  readonly alpha: number;
}

/** Which records an operation acts on. Deleted and expired records are never selected. */
export interface Selection {
  readonly ids?: readonly number[];
  readonly filter?: LoweredFilter;
  readonly search?: LoweredSearch;
  /** `target.all`; write ops need `meta.confirmation` with it. */
  readonly all: boolean;
  readonly limit?: number;
  readonly orderBy: OrderBy;
  /** `AS OF t` (Retrieve, Summarize): what was valid, live and unexpired at t (UTC). */
  readonly asOf?: string;
  /** `KNOWN AT t` (Retrieve, Summarize): as the store believed at transaction time t (UTC), with `asOf` or now as the valid time. */
  readonly knownAt?: string;
  /** `HISTORY` (Retrieve): every version of the selected facts, superseded ones included. */
  readonly history?: boolean;
  /** Experience memory: only records of this level (a RETRIEVE … LEVEL candidate stage). */
  readonly level?: Level;
}

/** A record's level (experience memory, spec/semantics.md#experience-memory). */
export type Level = 'episode' | 'turn';

/** Record fields an Encode or Update writes; keys are `memory` column names. */
export type ColumnValues = Readonly<Record<string, JsonValue>>;

interface Base<K extends Op> {
  readonly kind: K;
  /** The IR it was lowered from, kept for the audit log. */
  readonly ir: IR;
  readonly actor?: string;
  /** The run's tenant, from the caller (RunOptions.tenant): every statement stays inside it. */
  readonly tenant: string;
  /** The run's trace id (provenance of what it writes). */
  readonly traceId: string;
  /** The statement's index in its script (provenance). */
  readonly statement: number;
  /** The clock the operation runs at (UTC). */
  readonly now: string;
  readonly dryRun: boolean;
  readonly confirmation: boolean;
}

interface Targeted<K extends Op> extends Base<K> {
  readonly selection: Selection;
}

/** A fact's key and validity (ENCODE … SUBJECT s ATTRIBUTE a VALID FROM t): supersession's input. */
export interface FactWrite {
  readonly subject: string;
  readonly attribute: string;
  /** UTC; the run's clock when the statement names none. */
  readonly validFrom: string;
}

export interface EncodeOp extends Base<'Encode'> {
  readonly values: ColumnValues;
  /** Set when the record is a fact: writing it closes (supersedes) the version it follows. */
  readonly fact?: FactWrite;
  readonly skipEmbedding: boolean;
  /** A caller-supplied embedding, stored as given. */
  readonly embedding?: readonly number[];
  /** Set when the statement declares an attribute's schema (`SCHEMA { … }`): no record is written. */
  readonly declare?: SchemaDeclaration;
}

/** An attribute schema declaration (spec/semantics.md "Attribute schemas"). */
export interface SchemaDeclaration {
  readonly attribute: string;
  readonly schema: AttributeSchema;
}

export interface UpdateOp extends Targeted<'Update'> {
  /** Columns set to these values (including the columns `set.facets` fills). */
  readonly set: ColumnValues;
  /** Merged into the facets object (and mirrored to the subject/time/location/topic columns). */
  readonly facets: Readonly<Record<string, JsonValue>>;
}

export interface LabelOp extends Targeted<'Label'> {
  readonly mode: 'add' | 'replace' | 'remove';
  readonly tags: readonly string[];
  readonly facets: Readonly<Record<string, JsonValue>>;
  /** The subject/time/location/topic columns the facets fill (time normalised). */
  readonly facetColumns: ColumnValues;
}

/** How Promote/Demote change the weight. */
export type WeightChange =
  | { readonly kind: 'set'; readonly weight: number }
  | { readonly kind: 'shift'; readonly delta: number }
  | { readonly kind: 'archive' }
  | { readonly kind: 'none' };

export interface PromoteOp extends Targeted<'Promote'> {
  readonly change: WeightChange;
  /** An outcome in [0, 1]: each record's utility moves toward it (a running mean). */
  readonly reward?: number;
  readonly remind?: { readonly rrule: string; readonly until?: string; readonly next: string | null };
  readonly reason?: string;
}

export interface DemoteOp extends Targeted<'Demote'> {
  readonly change: WeightChange;
  readonly reason?: string;
}

export interface MergeOp extends Targeted<'Merge'> {
  /** A record id, or `auto` = the first selected record. */
  readonly primary: number | 'auto';
  readonly softDeleteChildren: boolean;
  readonly reembed: boolean;
}

export type SplitRule =
  | { readonly kind: 'by_sentences'; readonly lang: 'zh' | 'en' | 'auto'; readonly maxSentences: number }
  | { readonly kind: 'by_chunks'; readonly chunkSize?: number; readonly numChunks?: number }
  | { readonly kind: 'custom'; readonly instruction: string; readonly maxSplits?: number; readonly delimiters?: readonly string[] };

export interface SplitOp extends Targeted<'Split'> {
  readonly rule: SplitRule;
  /** `turn`: the pieces are turns of the source, which becomes (and stays) their episode. */
  readonly level?: 'turn';
  readonly inheritAll: boolean;
  readonly keepSource: boolean;
}

export interface LockPolicyLowered {
  readonly allow?: readonly Op[];
  readonly deny?: readonly Op[];
  readonly reviewers?: readonly string[];
}

export interface LockOp extends Targeted<'Lock'> {
  readonly mode: 'read_only' | 'append_only' | 'custom';
  readonly reason?: string;
  readonly policy?: LockPolicyLowered;
  readonly expires?: string;
}

export interface ExpireOp extends Targeted<'Expire'> {
  readonly expireAt: string;
  readonly action: 'soft_delete' | 'hard_delete' | 'demote' | 'anonymize';
  readonly reason?: string;
}

export interface DeleteOp extends Targeted<'Delete'> {
  readonly soft: boolean;
  readonly reason?: string;
}

/** A two-stage retrieval: the selection's search gives candidates of `level`, a selector keeps `pick`. */
export interface ExperienceRetrieval {
  readonly level: Level;
  readonly pick: number;
  /** The built-in selector named by the statement (`args.selector`); a caller's selector replaces `utility`. */
  readonly selector: 'utility' | 'similarity' | 'learned';
  readonly expand?: 'episode';
  /** `OF`: the running episode, whose own records are left out unless `includeCurrent`. */
  readonly episodeId?: number;
  readonly includeCurrent?: boolean;
  /** Only candidates whose status is `ok`. */
  readonly positiveOnly?: boolean;
  /** The learned selector's threshold on expected reward. */
  readonly threshold?: number;
  /** The text candidates were ranked against: the request (episode) or the state (turn). */
  readonly query: string;
}

export interface RetrieveOp extends Targeted<'Retrieve'> {
  /** Columns returned per record; `id` always first. */
  readonly include: readonly string[];
  readonly experience?: ExperienceRetrieval;
}

export interface SummarizeOp extends Targeted<'Summarize'> {
  readonly focus?: string;
  readonly maxTokens: number;
}

export type Operation =
  | EncodeOp | UpdateOp | LabelOp | PromoteOp | DemoteOp | MergeOp | SplitOp | LockOp | ExpireOp
  | DeleteOp | RetrieveOp | SummarizeOp;

export type TargetedOperation = Exclude<Operation, EncodeOp>;
