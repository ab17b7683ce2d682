/**
 * One small lowering per op, in a table typed by the zod-inferred IR of each op (`IROf<O>`) and
 * the Operation it yields. Target lowering is ./target.ts; Encode's is ./encode.ts.
 */
import type { IR, IROf, JsonValue, Op } from '../ir/schema.js';
import { DEFAULT_INCLUDE, DEFAULT_MAX_TOKENS, FACT_INCLUDE, DEFAULT_PICK, DEFAULT_WEIGHT_STEP } from './defaults.js';
import { lowerEncode } from './encode.js';
import { asJson, asJsonObject, assignOwn, clamp01, facetColumns, isStringList, PERM_LISTS, setOwn, storedList, type Lowerer } from './lowerer.js';
import type { ExperienceRetrieval, Operation, PromoteOp, Selection, SplitRule, TimeWindow, WeightChange } from './operation.js';
import { basicUntil, RRule, rrulestr } from './rrule.js';
import { intersect, selection, timeRange } from './target.js';
import { formatUtc } from './time.js';
import { GOVERNED_COLUMNS } from '../language/index.js';
import { RETENTION_CLASSES } from '../language/enums.js';

/** What every operation carries besides its own fields. */
export interface OperationBase {
  readonly ir: IR;
  readonly actor?: string;
  readonly tenant: string;
  readonly traceId: string;
  readonly statement: number;
  readonly now: string;
  readonly dryRun: boolean;
  readonly confirmation: boolean;
}

export type OperationOf<O extends Op> = Extract<Operation, { kind: O }>;
export type LowerOp<O extends Op> = (l: Lowerer, ir: IROf<O>, base: OperationBase) => OperationOf<O>;

type Args<O extends Op> = NonNullable<IROf<O>['args']>;

export const LOWER_OP: { readonly [O in Op]: LowerOp<O> } = {
  // Object.assign rather than spreads into a literal (V8's slow path for a spread after keys), same
  // keys in the same order (Encode, Update and Retrieve: the statements run most).
  Encode: (l, ir, base) => Object.assign({ kind: 'Encode' as const }, base, lowerEncode(l, ir)),
  Update: (l, ir, base) => {
    const sel = selection(l, ir);
    const { set, facets } = lowerUpdate(l, ir.args?.set ?? {});
    return Object.assign({ kind: 'Update' as const }, base, { selection: sel, set, facets });
  },
  Label: (l, ir, base) => {
    const a = ir.args ?? {};
    const tags = storedList(l, a.tags ?? [], 'args.tags');
    const facets = asJsonObject(a.facets ?? {});
    if (tags.length === 0 && Object.keys(facets).length === 0 && a.mode !== 'replace') l.error('missing-field', 'Label needs tags or facets', 'args');
    return { kind: 'Label', ...base, selection: selection(l, ir), mode: a.mode ?? 'add', tags, facets, facetColumns: facetColumns(l, facets, 'args.facets') };
  },
  Promote: (l, ir, base) => {
    const a = ir.args ?? {};
    const change = weightChange(l, a, 1);
    const remind = a.remind ? lowerRemind(l, a.remind) : undefined;
    const reward = a.reward;
    if (reward !== undefined && !(reward >= 0 && reward <= 1)) l.error('reward-out-of-range', `a reward is in [0, 1], got ${reward}`, 'args.reward');
    return {
      kind: 'Promote', ...base, selection: selection(l, ir),
      // A reward alone records an outcome: the utility moves, the weight does not.
      change: change.kind === 'none' && reward === undefined ? { kind: 'shift', delta: DEFAULT_WEIGHT_STEP } : change,
      remind, reason: a.reason, ...(reward !== undefined ? { reward } : {}),
    };
  },
  Demote: (l, ir, base) => {
    const a = ir.args ?? {};
    const change: WeightChange = a.archive ? { kind: 'archive' } : weightChange(l, a, -1);
    return {
      kind: 'Demote', ...base, selection: selection(l, ir),
      change: change.kind === 'none' ? { kind: 'shift', delta: -DEFAULT_WEIGHT_STEP } : change,
      reason: a.reason,
    };
  },
  Merge: (l, ir, base) => {
    const a = ir.args ?? {};
    const primary = a.primary_id === undefined || a.primary_id === 'auto' ? 'auto' : l.ids(a.primary_id, 'args.primary_id')[0] ?? 'auto';
    return { kind: 'Merge', ...base, selection: selection(l, ir), primary, softDeleteChildren: a.soft_delete_children !== false, reembed: a.skip_reembedding !== true };
  },
  Split: (l, ir, base) => {
    const a = ir.args ?? {};
    if (a.level === 'episode') l.error('level-mismatch', 'SPLIT … LEVEL turn makes the pieces turns of the source episode; a piece cannot be an episode', 'args.level');
    const turns = a.level === 'turn';
    return {
      kind: 'Split', ...base, selection: selection(l, ir), rule: splitRule(l, a), inheritAll: a.inherit_all !== false,
      // The episode a turn points to stays: turns never orphan their episode.
      keepSource: turns || a.keep_source === true, ...(turns ? { level: 'turn' as const } : {}),
    };
  },
  Lock: (l, ir, base) => {
    const a = ir.args ?? {};
    const policy = a.policy ?? {};
    const legacyMode = a.lock_mode === 'read_only' || a.lock_mode === 'append_only' || a.lock_mode === 'custom' ? a.lock_mode : undefined;
    // `SET lock_mode = …` is the MODE clause spelt as an arg: the same values, or an error (never a silent default).
    if (a.lock_mode !== undefined && legacyMode === undefined) l.error('invalid-enum', `\`lock_mode\` must be one of read_only, append_only, custom, got ${JSON.stringify(a.lock_mode)}`, 'args.lock_mode');
    const mode = a.mode ?? legacyMode ?? (policy.allow || policy.deny ? 'custom' : 'read_only');
    const expires = policy.expires ?? (typeof a.lock_expires === 'string' ? a.lock_expires : undefined);
    return {
      kind: 'Lock', ...base, selection: selection(l, ir), mode, reason: a.reason,
      policy: policy.allow || policy.deny || policy.reviewers ? { allow: policy.allow, deny: policy.deny, reviewers: policy.reviewers } : undefined,
      expires: l.instant(expires, 'args.policy.expires'),
    };
  },
  Expire: (l, ir, base) => {
    const a = ir.args ?? {};
    let expireAt: string | undefined;
    if (a.until !== undefined) expireAt = l.instant(a.until, 'args.until');
    else if (a.ttl !== undefined) expireAt = l.shifted(a.ttl, 1, 'args.ttl');
    else l.error('missing-field', 'Expire needs `ttl` or `until`', 'args');
    return {
      kind: 'Expire', ...base, selection: selection(l, ir), expireAt: expireAt ?? base.now,
      action: a.on_expire ?? 'soft_delete', reason: typeof a.reason === 'string' ? a.reason : undefined,
    };
  },
  Delete: (l, ir, base) => {
    const a = ir.args ?? {};
    let extra: TimeWindow | undefined;
    if (a.older_than !== undefined) {
      const to = l.shifted(a.older_than, -1, 'args.older_than');
      if (to) extra = { to };
    }
    const range = timeRange(l, a.time_range, 'args.time_range');
    if (range) extra = extra ? intersect(extra, range) : range;
    const reason = a.reason ?? (typeof a.expire_reason === 'string' ? a.expire_reason : undefined);
    return { kind: 'Delete', ...base, selection: selection(l, ir, extra), soft: a.soft !== false, reason };
  },
  Retrieve: (l, ir, base) => {
    const include = ir.args?.include;
    const experience = experienceRetrieval(l, ir);
    const sel = selection(l, ir, undefined, experience?.level);
    const op = Object.assign({ kind: 'Retrieve' as const }, base, {
      selection: inTime(l, ir, sel), include: include?.length ? [...new Set(['id', ...include])] : readsFacts(ir) ? FACT_INCLUDE : DEFAULT_INCLUDE,
    });
    return experience ? Object.assign(op, { experience }) : op;
  },
  Summarize: (l, ir, base) => {
    const a = ir.args ?? {};
    const maxTokens = a.max_tokens ?? DEFAULT_MAX_TOKENS;
    if (maxTokens < 1) l.error('out-of-range', 'max_tokens must be at least 1', 'args.max_tokens');
    return { kind: 'Summarize', ...base, selection: inTime(l, ir, selection(l, ir)), focus: a.focus, maxTokens };
  },
};

/** A read about facts (spec/semantics.md "Typed state"): its WHERE names `attribute`, or it is a HISTORY. */
function readsFacts(ir: IROf<'Retrieve'>): boolean {
  return typeof ir.target?.filter?.attribute === 'string' || ir.args?.history === true;
}

/** A read's time (spec/syntax.md §12): `AS OF t` (args.as_of) or `HISTORY` (args.history). */
function inTime(l: Lowerer, ir: IR, sel: Selection): Selection {
  const a: Record<string, unknown> = ir.args ?? {};
  const out: { asOf?: string; history?: boolean; knownAt?: string } = {};
  if (a.as_of !== undefined) {
    if (typeof a.as_of === 'string') out.asOf = l.instant(a.as_of, 'args.as_of');
    else l.error('invalid-datetime', `AS OF needs a date-time, got ${JSON.stringify(a.as_of)}`, 'args.as_of');
  }
  if (a.history === true) out.history = true;
  if (a.known_at !== undefined) {
    if (typeof a.known_at === 'string') out.knownAt = l.instant(a.known_at, 'args.known_at');
    else l.error('invalid-datetime', `KNOWN AT needs a date-time, got ${JSON.stringify(a.known_at)}`, 'args.known_at');
  }
  // The usual read (none): the selection as it is (nobody else holds it), not a copy.
  return a.as_of === undefined && a.history !== true && a.known_at === undefined ? sel : { ...sel, ...out };
}

/** RETRIEVE … LEVEL: the candidate stage's level and query, and how many the selector keeps (spec/semantics.md#experience-memory). */
function experienceRetrieval(l: Lowerer, ir: IROf<'Retrieve'>): ExperienceRetrieval | undefined {
  const a = ir.args ?? {};
  if (a.level === undefined) return undefined;
  const pick = a.pick ?? DEFAULT_PICK;
  // PICK 0 is allowed: the agent asks for the candidates and their scores, and injects nothing.
  if (pick < 0) l.error('out-of-range', `PICK keeps 0 or more candidates, got ${pick}`, 'args.pick');
  const episodeId = a.episode_id !== undefined ? l.ids(a.episode_id, 'args.episode_id')[0] : undefined;
  const intent = ir.target?.search?.intent;
  // An episode is found by the task's request, a turn by the current state (CONTEXT).
  const query = String((a.level === 'turn' ? intent?.context ?? intent?.query : intent?.query ?? intent?.context) ?? '');
  return {
    level: a.level, pick, selector: a.selector ?? 'utility', ...(a.expand ? { expand: a.expand } : {}), query,
    ...(episodeId !== undefined ? { episodeId } : {}),
    ...(a.include_current === true ? { includeCurrent: true } : {}),
    ...(a.positive_only === true ? { positiveOnly: true } : {}),
    ...(typeof a.threshold === 'number' ? { threshold: a.threshold } : {}),
  };
}

function weightChange(l: Lowerer, a: { weight?: number; weight_delta?: number }, sign: 1 | -1): WeightChange {
  if (a.weight !== undefined) {
    if (a.weight < 0 || a.weight > 1) l.warn('weight-clamped', `weight ${a.weight} is clamped to [0,1]`, 'args.weight');
    return { kind: 'set', weight: clamp01(a.weight) };
  }
  if (a.weight_delta !== undefined) {
    const delta = a.weight_delta;
    if (sign === -1 && delta > 0) {
      // A Demote never raises a weight: a positive delta is read as the size of the decrease.
      l.warn('demote-positive-delta', `Demote with weight_delta ${delta} lowers the weight by ${delta}`, 'args.weight_delta');
      return { kind: 'shift', delta: -delta };
    }
    if (sign === 1 && delta < 0) l.warn('promote-negative-delta', `Promote with weight_delta ${delta} lowers the weight`, 'args.weight_delta');
    return { kind: 'shift', delta };
  }
  return { kind: 'none' };
}

/** Columns an Update `set` may not name: the engine's own, and those only LOCK or EXPIRE write (spec/checks.md#governed-column). */
const GOVERNED_BY_OTHERS = GOVERNED_COLUMNS;

/** Update's `set`: columns it names, `ttl` as `expire_at`, facets mirrored, any other field a facet. */
function lowerUpdate(l: Lowerer, s: NonNullable<Args<'Update'>['set']>): { set: Record<string, JsonValue>; facets: Record<string, JsonValue> } {
  const set: Record<string, JsonValue> = {};
  const facets: Record<string, JsonValue> = {};
  if (Object.keys(s).length === 0) l.error('missing-field', 'Update needs at least one field in `set`', 'args.set');
  for (const [key, v] of Object.entries(s)) {
    const path = `args.set.${key}`;
    switch (key) {
      case 'text': case 'type': case 'subject': case 'location': case 'topic': case 'auto_frequency':
      case 'read_perm_level': case 'write_perm_level': case 'source':
        set[key] = asJson(v); break;
      case 'time': case 'expire_at': case 'next_auto_update_at':
        set[key] = l.instant(s[key], path) ?? null; break;
      case 'ttl': {
        const at = s.ttl === undefined ? undefined : l.shifted(s.ttl, 1, path);
        if (at) set.expire_at = at;
        break;
      }
      case 'retention':
        // A retention class is a column (the update re-derives the expiry: src/execute/retention.ts).
        if (typeof v === 'string' && (RETENTION_CLASSES as readonly string[]).includes(v)) set.retention = v;
        else l.error('bad-arg', `Update 'retention' must be one of ${RETENTION_CLASSES.join(', ')}, got ${JSON.stringify(v)}`, path);
        break;
      case 'weight': {
        const w = s.weight ?? 0;
        if (w < 0 || w > 1) l.warn('weight-clamped', `weight ${w} is clamped to [0,1]`, path);
        set.weight = clamp01(w);
        break;
      }
      case 'tags':
        set.tags = storedList(l, s.tags ?? [], path); break;
      case 'facets':
        if (s.facets) {
          assignOwn(facets, asJsonObject(s.facets));
          Object.assign(set, facetColumns(l, s.facets, path));
        }
        break;
      default:
        if (GOVERNED_BY_OTHERS.includes(key)) l.error('governed-column', `\`${key}\` is a governed column UPDATE may not set`, path);
        else if ((PERM_LISTS as readonly string[]).includes(key) && isStringList(v)) set[key] = storedList(l, v, path);
        // Any other field is a facet: `set.status = "done"` lands in facets.status.
        else setOwn(facets, key, asJson(v));
    }
  }
  return { set, facets };
}

function splitRule(l: Lowerer, a: Args<'Split'>): SplitRule {
  const strategy = a.strategy ?? 'by_sentences';
  if (strategy === 'by_chunks') {
    const p = a.params?.by_chunks ?? {};
    if (p.chunk_size !== undefined && p.chunk_size < 1) l.error('out-of-range', 'chunk_size must be at least 1', 'args.params.by_chunks.chunk_size');
    if (p.num_chunks !== undefined && p.num_chunks < 1) l.error('out-of-range', 'num_chunks must be at least 1', 'args.params.by_chunks.num_chunks');
    return { kind: 'by_chunks', chunkSize: p.chunk_size, numChunks: p.num_chunks ?? (p.chunk_size ? undefined : 2) };
  }
  if (strategy === 'custom') {
    const p = a.params?.custom ?? {};
    // Explicit delimiters (a recurring form in benchmark data) cut the text at them.
    const delimiters = (typeof p.delimiters === 'string' ? [p.delimiters] : p.delimiters ?? []).filter((d) => d.length > 0);
    return { kind: 'custom', instruction: p.instruction ?? '', maxSplits: p.max_splits, ...(delimiters.length ? { delimiters } : {}) };
  }
  const p = a.params?.by_sentences ?? {};
  return { kind: 'by_sentences', lang: p.lang ?? 'auto', maxSentences: Math.max(1, p.max_sentences ?? 1) };
}

function lowerRemind(l: Lowerer, remind: NonNullable<Args<'Promote'>['remind']>): PromoteOp['remind'] {
  const rule = String(remind.rrule ?? '').trim();
  const until = l.instant(remind.until, 'args.remind.until');
  if (!rule) {
    l.error('invalid-rrule', 'remind needs an `rrule` (RFC 5545, e.g. FREQ=WEEKLY;BYDAY=MO)', 'args.remind.rrule');
    return undefined;
  }
  try {
    let body = rule.replace(/^RRULE:/i, '');
    // An UNTIL in extended ISO-8601 (`2025-10-24T00:00:00Z`) is the RFC 5545 basic form's
    // instant; the checker warns (rrule-until-normalised), the stored rule is the RFC 5545 one.
    body = basicUntil(body);
    const options = RRule.parseString(body);
    if (options.freq === undefined) throw new Error('no FREQ');
    const rr = rrulestr(`RRULE:${body}`, { dtstart: options.dtstart ?? l.now });
    let next = rr.after(l.now, false);
    if (next && until && formatUtc(next) > until) next = null;
    return { rrule: body, until, next: next ? formatUtc(next) : null };
  } catch (e) {
    // The rrule library reports a bad rule by throwing; it is the user's mistake, reported here.
    l.error('invalid-rrule', `'${rule}' is not an RFC 5545 recurrence rule: ${(e as Error).message}`, 'args.remind.rrule');
    return undefined;
  }
}

