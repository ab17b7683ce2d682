/**
 * Lowering: IR → Operation. The only place values are normalised: times to UTC, relative ranges
 * and TTLs made concrete against the injected clock, ids parsed to numbers, defaults applied.
 * Bad values are returned as diagnostics (code + JSON path), never thrown.
 */
import { RRule, rrulestr } from './rrule.js';
import type { Code, Diagnostic } from '../diagnostics/diagnostic.js';
import { ON_EXPIRE, OPS, type IR, type IROf, type JsonValue } from '../ir/schema.js';
import type {
  LoweredFilter, LoweredSearch, Operation, OrderBy, Selection, SplitRule, TimeWindow, WeightChange,
} from './operation.js';
import { addDuration, formatUtc, parseDuration, parseInstant, unitDuration } from './time.js';

export type * from './operation.js';
export { formatUtc, normalizeInstant, parseDuration, parseInstant, addDuration } from './time.js';

export interface LowerContext {
  readonly now: Date;
  /** The acting actor; `meta.actor` of the IR wins when present. */
  readonly actor?: string;
}

export type LowerResult =
  | { readonly ok: true; readonly operation: Operation; readonly warnings: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * A new record has no weight (NULL: never promoted or demoted); Promote/Demote shift from this
 * neutral base. Archiving caps a record's weight at ARCHIVE_WEIGHT.
 */
export const BASE_WEIGHT = 0.5;
export const ARCHIVE_WEIGHT = 0.1;
/** Shift applied by a Promote/Demote that names neither a weight nor a delta. */
export const DEFAULT_WEIGHT_STEP = 0.2;
export const DEFAULT_MAX_TOKENS = 256;
export const DEFAULT_INCLUDE = ['id', 'text', 'type', 'tags', 'facets', 'time', 'subject', 'location', 'topic', 'source', 'weight'];

const FACET_COLUMNS = ['subject', 'time', 'location', 'topic'] as const;
const PERM_LISTS = ['read_whitelist', 'read_blacklist', 'write_whitelist', 'write_blacklist'] as const;

class Lowerer {
  readonly errors: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];
  constructor(readonly now: Date) {}

  error(code: Code, message: string, path: string): void {
    this.errors.push({ code, severity: 'error', message, path });
  }
  warn(code: Code, message: string, path: string): void {
    this.warnings.push({ code, severity: 'warning', message, path });
  }

  instant(value: string | undefined, path: string): string | undefined {
    if (value === undefined) return undefined;
    const d = parseInstant(value);
    if (!d) {
      this.error('invalid-datetime', `'${value}' is not an ISO-8601 date or date-time`, path);
      return undefined;
    }
    return formatUtc(d);
  }

  /** now ± an ISO or short duration. */
  shifted(value: string, sign: 1 | -1, path: string): string | undefined {
    const d = parseDuration(value);
    if (!d) {
      this.error('invalid-duration', `'${value}' is not a duration (ISO-8601 like P30D or PT12H, or 30d)`, path);
      return undefined;
    }
    return formatUtc(addDuration(this.now, d, sign));
  }

  timeRange(tr: Record<string, unknown> | undefined, path: string): TimeWindow | undefined {
    if (!tr) return undefined;
    if (tr.relative !== undefined || tr.amount !== undefined) {
      const amount = tr.amount;
      const unit = tr.unit as Parameters<typeof unitDuration>[1] | undefined;
      if (typeof amount !== 'number' || !unit) {
        this.error('time-range-incomplete', 'a relative time range needs `amount` and `unit`', path);
        return undefined;
      }
      const other = formatUtc(addDuration(this.now, unitDuration(amount, unit), tr.relative === 'next' ? 1 : -1));
      const now = formatUtc(this.now);
      if (tr.relative === 'next') return { from: now, to: other };
      // "The last N days" includes all of today: the window ends at the end of the current UTC
      // day for day-or-longer units, and at now for minutes and hours.
      const to = unit === 'minutes' || unit === 'hours' ? now : now.slice(0, 10) + 'T23:59:59Z';
      return { from: other, to };
    }
    const from = this.instant(tr.start as string | undefined, `${path}.start`);
    const to = this.instant(tr.end as string | undefined, `${path}.end`);
    if (from && to && from > to) this.error('time-range-order', `time range starts (${from}) after it ends (${to})`, path);
    return from || to ? { from, to } : undefined;
  }

  ids(value: unknown, path: string): number[] {
    const list = Array.isArray(value) ? value : [value];
    const out: number[] = [];
    list.forEach((v, i) => {
      const text = String(v).trim();
      if (/^\d+$/.test(text) && Number(text) > 0) out.push(Number(text));
      else this.error('bad-id', `'${String(v)}' is not a memory id (a positive integer)`, Array.isArray(value) ? `${path}.${i}` : path);
    });
    return [...new Set(out)];
  }

  filter(f: Record<string, any>, path: string, extraTime?: TimeWindow): LoweredFilter {
    let time = this.timeRange(f.time_range, `${path}.time_range`);
    if (extraTime) time = intersect(time, extraTime);
    const facets: Record<string, JsonValue> = {};
    if (f.facets && typeof f.facets === 'object') Object.assign(facets, f.facets);
    return {
      time,
      hasTags: dedupe(f.has_tags ?? []),
      notTags: dedupe(f.not_tags ?? []),
      type: f.type, subject: f.subject, location: f.location, topic: f.topic,
      weightGte: f.weight_gte, weightLte: f.weight_lte,
      expireBefore: this.instant(f.expire_before, `${path}.expire_before`),
      expireAfter: this.instant(f.expire_after, `${path}.expire_after`),
      facets,
    };
  }

  selection(ir: IR, extraTime?: TimeWindow): Selection {
    const t = (ir.target ?? {}) as Record<string, any>;
    const ids = t.ids !== undefined ? this.ids(t.ids, 'target.ids') : undefined;
    // Some IRs carry time bounds beside the filter; they narrow it.
    const looseTime = t.time_from || t.time_to
      ? { from: this.instant(t.time_from, 'target.time_from'), to: this.instant(t.time_to, 'target.time_to') }
      : undefined;
    const time = extraTime && looseTime ? intersect(extraTime, looseTime) : extraTime ?? looseTime;
    const filter = t.filter || time ? this.filter(t.filter ?? {}, 'target.filter', time) : undefined;
    let search: LoweredSearch | undefined;
    if (t.search) {
      const query = String(t.search.intent?.query ?? t.search.intent?.context ?? '').trim();
      if (!query) this.error('missing-field', 'a search target needs `intent.query` text', 'target.search.intent');
      const alpha = t.search.overrides?.alpha ?? 0.5;
      search = { query, alpha: Math.min(1, Math.max(0, alpha)) };
    }
    // `overrides.limit` (upstream examples) is read as `overrides.k`.
    const limit: number | undefined = t.search?.overrides?.k ?? t.search?.overrides?.limit ?? t.search?.limit ?? t.filter?.limit;
    if (limit !== undefined && limit < 1) this.error('out-of-range', `limit must be at least 1, got ${limit}`, 'target.filter.limit');
    const orderBy: OrderBy = t.search?.overrides?.order_by ?? (search ? 'relevance' : 'time_desc');
    if (ir.op !== 'Encode' && ids === undefined && !filter && !search && !t.all) {
      this.error('target-required', `${ir.op} needs a target: ids, filter, search or all`, 'target');
    }
    return { ids, filter, search, all: t.all === true, limit, orderBy };
  }

  weightChange(args: { weight?: number; weight_delta?: number }, sign: 1 | -1, path: string): WeightChange {
    if (args.weight !== undefined) {
      if (args.weight < 0 || args.weight > 1) this.warn('weight-clamped', `weight ${args.weight} is clamped to [0,1]`, `${path}.weight`);
      return { kind: 'set', weight: clamp01(args.weight) };
    }
    if (args.weight_delta !== undefined) {
      const delta = args.weight_delta;
      if (sign === -1 && delta > 0) {
        // A Demote never raises a weight: a positive delta is read as the size of the decrease.
        this.warn('demote-positive-delta', `Demote with weight_delta ${delta} lowers the weight by ${delta}`, `${path}.weight_delta`);
        return { kind: 'shift', delta: -delta };
      }
      if (sign === 1 && delta < 0) this.warn('promote-negative-delta', `Promote with weight_delta ${delta} lowers the weight`, `${path}.weight_delta`);
      return { kind: 'shift', delta };
    }
    return { kind: 'none' };
  }
}

function intersect(a: TimeWindow | undefined, b: TimeWindow): TimeWindow {
  if (!a) return b;
  const from = a.from && b.from ? (a.from > b.from ? a.from : b.from) : a.from ?? b.from;
  const to = a.to && b.to ? (a.to < b.to ? a.to : b.to) : a.to ?? b.to;
  return { from, to };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const dedupe = (xs: readonly string[]) => [...new Set(xs.map((x) => x.trim()).filter(Boolean))];

/** Facet keys that are columns are copied to those columns (time normalised). */
function facetColumns(l: Lowerer, facets: Record<string, JsonValue>, path: string): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const key of FACET_COLUMNS) {
    const v = facets[key];
    if (typeof v !== 'string') continue;
    out[key] = key === 'time' ? l.instant(v, `${path}.time`) ?? null : v;
  }
  return out;
}

/** Payload keys that are the content itself. */
const PAYLOAD_CONTENT = ['text', 'url', 'structured'];
/** Metadata an Encode may also write inside its payload (the paper's B.1.1 form); a top-level arg wins. */
const PAYLOAD_METADATA = ['type', 'tags', 'facets', 'time', 'subject', 'location', 'topic', 'source'];
/** Encode args stored in their own columns (or driving the insert). */
const ENCODE_ARGS = [
  'payload', 'type', 'tags', 'facets', ' facets', 'time', 'subject', 'location', 'topic', 'source', 'skip_embedding', 'embedding',
  'auto_frequency', 'expire_at', 'next_auto_update_at', 'weight', 'ttl', 'expire_action', 'on_expire', 'expire_reason',
  'lock_mode', 'lock_reason', 'lock_policy', 'lock_expires', ...PERM_LISTS, 'read_perm_level', 'write_perm_level',
];
/** Columns the engine keeps itself; an Encode arg naming one is ignored with a warning. */
const ENGINE_MANAGED = ['id', 'owner', 'created_at', 'updated_at', 'deleted', 'deleted_at', 'embedding_model', 'lineage_parents', 'lineage_children'];
const LOCK_COLUMN_MODES = ['read_only', 'append_only', 'custom'];

const isPlainObject = (v: unknown): v is Record<string, JsonValue> => !!v && typeof v === 'object' && !Array.isArray(v);

function lowerEncode(l: Lowerer, ir: IROf<'Encode'>) {
  const a = (ir.args ?? {}) as Record<string, any>;
  const payload: Record<string, any> = isPlainObject(a.payload) ? a.payload : {};
  const text: string | undefined =
    typeof payload.text === 'string' ? payload.text
      : payload.structured ? JSON.stringify(payload.structured)
      : typeof payload.url === 'string' ? payload.url : undefined;
  if (text === undefined || text.trim() === '') l.error('missing-field', 'Encode needs payload text, structured data or a url', 'args.payload');
  // Metadata written inside the payload counts as if written beside it; the top-level arg wins.
  const arg = (key: string): any => (a[key] !== undefined ? a[key] : PAYLOAD_METADATA.includes(key) ? payload[key] : undefined);
  for (const key of PAYLOAD_METADATA) {
    const v = payload[key];
    if (v === undefined || a[key] !== undefined) continue;
    const ok = key === 'tags' ? Array.isArray(v) && v.every((t) => typeof t === 'string') : key === 'facets' ? isPlainObject(v) : typeof v === 'string';
    if (!ok) l.error('bad-arg', `Encode 'payload.${key}' must be ${key === 'tags' ? 'a list of strings' : key === 'facets' ? 'an object' : 'a string'}, got ${JSON.stringify(v)}`, `args.payload.${key}`);
  }
  const argPath = (key: string) => (a[key] !== undefined ? `args.${key}` : `args.payload.${key}`);
  // Args that are not memory columns are kept as facets, like Update's unknown `set` fields
  // (payload extras such as knowledge_type and context included); explicit facets win.
  const facets: Record<string, JsonValue> = {};
  for (const [key, v] of Object.entries(payload)) {
    if (!PAYLOAD_CONTENT.includes(key) && !PAYLOAD_METADATA.includes(key)) facets[key] = v;
  }
  for (const [key, v] of Object.entries(a)) {
    if (ENGINE_MANAGED.includes(key)) {
      l.warn('ignored-arg', `Encode ignores '${key}': the engine sets it (owner is the acting actor)`, `args.${key}`);
    } else if (!ENCODE_ARGS.includes(key)) facets[key] = v;
  }
  // Some IRs spell a key with stray spaces (" facets"); read it as the intended key.
  for (const f of [payload.facets, a[' facets'], a.facets]) if (isPlainObject(f)) Object.assign(facets, f);
  const values: Record<string, JsonValue> = {
    text: text ?? null,
    type: arg('type') ?? null,
    tags: dedupe(Array.isArray(arg('tags')) ? arg('tags') : []),
    facets,
    ...facetColumns(l, facets, 'args.facets'),
    source: arg('source') ?? null,
    auto_frequency: a.auto_frequency ?? null,
    expire_at: l.instant(a.expire_at, 'args.expire_at') ?? null,
    next_auto_update_at: l.instant(a.next_auto_update_at, 'args.next_auto_update_at') ?? null,
    read_perm_level: a.read_perm_level ?? null,
    write_perm_level: a.write_perm_level ?? null,
  };
  for (const key of ['time', 'subject', 'location', 'topic'] as const) {
    const v = arg(key);
    if (v !== undefined) values[key] = key === 'time' ? (typeof v === 'string' ? l.instant(v, argPath('time')) ?? null : null) : v;
  }
  for (const key of PERM_LISTS) if (a[key] !== undefined) values[key] = dedupe(a[key]);
  Object.assign(values, encodeGovernance(l, a));
  return { values, skipEmbedding: a.skip_embedding === true, embedding: a.embedding };
}

/**
 * The weight, expiry and lock columns an Encode may set directly (`ENCODE … SET weight = 0.9`).
 * They are not in the upstream Encode schema, so their values are checked here.
 */
function encodeGovernance(l: Lowerer, a: Record<string, any>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  const bad = (key: string, expected: string) => l.error('bad-arg', `Encode '${key}' must be ${expected}, got ${JSON.stringify(a[key])}`, `args.${key}`);
  const text = (key: string): string | undefined => {
    if (a[key] === undefined) return undefined;
    if (typeof a[key] !== 'string') bad(key, 'a string');
    return typeof a[key] === 'string' ? a[key] : undefined;
  };
  if (a.weight !== undefined) {
    if (typeof a.weight !== 'number' || !Number.isFinite(a.weight)) bad('weight', 'a number in [0,1]');
    else {
      if (a.weight < 0 || a.weight > 1) l.warn('weight-clamped', `weight ${a.weight} is clamped to [0,1]`, 'args.weight');
      out.weight = clamp01(a.weight);
    }
  }
  if (a.ttl !== undefined) {
    if (a.expire_at !== undefined) l.warn('ignored-arg', "Encode ignores 'ttl' because 'expire_at' is given", 'args.ttl');
    else if (typeof a.ttl !== 'string') bad('ttl', 'a duration such as P30D');
    else {
      const at = l.shifted(a.ttl, 1, 'args.ttl');
      if (at) out.expire_at = at;
    }
  }
  const actionKey = a.expire_action !== undefined ? 'expire_action' : 'on_expire';
  const action = text(actionKey);
  if (action !== undefined) {
    if ((ON_EXPIRE as readonly string[]).includes(action)) out.expire_action = action;
    else bad(actionKey, `one of ${ON_EXPIRE.join(', ')}`);
  }
  const reason = text('expire_reason');
  if (reason !== undefined) out.expire_reason = reason;
  // Lock columns, with Lock's defaults: a policy that allows or denies makes a custom lock.
  const mode = text('lock_mode');
  if (mode !== undefined && !LOCK_COLUMN_MODES.includes(mode)) bad('lock_mode', `one of ${LOCK_COLUMN_MODES.join(', ')}`);
  let policy: Record<string, JsonValue> | undefined;
  if (a.lock_policy !== undefined) {
    const p = a.lock_policy;
    const opList = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((x) => (OPS as readonly unknown[]).includes(x)));
    const nameList = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
    if (!isPlainObject(p) || !opList(p.allow) || !opList(p.deny) || !nameList(p.reviewers)) {
      bad('lock_policy', `an object {allow?, deny?: [op…], reviewers?: [actor…], expires?}`);
    } else {
      policy = Object.fromEntries(['allow', 'deny', 'reviewers'].filter((k) => p[k] !== undefined).map((k) => [k, p[k]]));
    }
  }
  const lockReason = text('lock_reason');
  const expiresRaw = a.lock_expires ?? (isPlainObject(a.lock_policy) ? a.lock_policy.expires : undefined);
  const expires = typeof expiresRaw === 'string' ? l.instant(expiresRaw, a.lock_expires !== undefined ? 'args.lock_expires' : 'args.lock_policy.expires') : undefined;
  if (expiresRaw !== undefined && typeof expiresRaw !== 'string') bad('lock_expires', 'a date-time');
  if (mode !== undefined || policy !== undefined || lockReason !== undefined || expiresRaw !== undefined) {
    out.lock_mode = mode ?? (policy?.allow || policy?.deny ? 'custom' : 'read_only');
    out.lock_reason = lockReason ?? null;
    out.lock_policy = policy && Object.keys(policy).length ? policy : null;
    out.lock_expires = expires ?? null;
  }
  return out;
}

function lowerUpdate(l: Lowerer, ir: IROf<'Update'>) {
  const s = ((ir.args ?? {}) as Record<string, any>).set ?? {};
  const set: Record<string, JsonValue> = {};
  const facets: Record<string, JsonValue> = {};
  if (Object.keys(s).length === 0) l.error('missing-field', 'Update needs at least one field in `set`', 'args.set');
  for (const [key, v] of Object.entries(s) as [string, any][]) {
    const path = `args.set.${key}`;
    switch (key) {
      case 'text': case 'type': case 'subject': case 'location': case 'topic': case 'auto_frequency':
      case 'read_perm_level': case 'write_perm_level': case 'source':
        set[key] = v; break;
      case 'time': case 'expire_at': case 'next_auto_update_at':
        set[key] = l.instant(v, path) ?? null; break;
      case 'ttl': {
        const at = l.shifted(v, 1, path);
        if (at) set.expire_at = at;
        break;
      }
      case 'weight':
        if (v < 0 || v > 1) l.warn('weight-clamped', `weight ${v} is clamped to [0,1]`, path);
        set.weight = clamp01(v); break;
      case 'tags':
        set.tags = dedupe(v); break;
      case 'facets':
        Object.assign(facets, v);
        Object.assign(set, facetColumns(l, v, path));
        break;
      default:
        if ((PERM_LISTS as readonly string[]).includes(key)) set[key] = dedupe(v);
        // Any other field is a facet: `set.status = "done"` lands in facets.status.
        else facets[key] = v;
    }
  }
  return { set, facets };
}

function lowerSplit(l: Lowerer, ir: IROf<'Split'>): SplitRule {
  const a = (ir.args ?? {}) as Record<string, any>;
  const strategy = a.strategy ?? 'by_sentences';
  const p = a.params?.[strategy] ?? {};
  if (strategy === 'by_chunks') {
    if (p.chunk_size !== undefined && p.chunk_size < 1) l.error('out-of-range', 'chunk_size must be at least 1', 'args.params.by_chunks.chunk_size');
    if (p.num_chunks !== undefined && p.num_chunks < 1) l.error('out-of-range', 'num_chunks must be at least 1', 'args.params.by_chunks.num_chunks');
    return { kind: 'by_chunks', chunkSize: p.chunk_size, numChunks: p.num_chunks ?? (p.chunk_size ? undefined : 2) };
  }
  if (strategy === 'custom') return { kind: 'custom', instruction: p.instruction ?? '', maxSplits: p.max_splits };
  return { kind: 'by_sentences', lang: p.lang ?? 'auto', maxSentences: Math.max(1, p.max_sentences ?? 1) };
}

function lowerRemind(l: Lowerer, remind: Record<string, any>) {
  const rule = String(remind.rrule ?? '').trim();
  const until = l.instant(remind.until, 'args.remind.until');
  if (!rule) {
    l.error('invalid-rrule', 'remind needs an `rrule` (RFC 5545, e.g. FREQ=WEEKLY;BYDAY=MO)', 'args.remind.rrule');
    return undefined;
  }
  try {
    const body = rule.replace(/^RRULE:/i, '');
    const options = RRule.parseString(body);
    if (options.freq === undefined) throw new Error('no FREQ');
    const dtstart = options.dtstart ?? l.now;
    const rr = rrulestr(`RRULE:${body}`, { dtstart });
    let next = rr.after(l.now, false);
    if (next && until && formatUtc(next) > until) next = null;
    return { rrule: body, until, next: next ? formatUtc(next) : null };
  } catch (e) {
    l.error('invalid-rrule', `'${rule}' is not an RFC 5545 recurrence rule: ${(e as Error).message}`, 'args.remind.rrule');
    return undefined;
  }
}

/**
 * The args each verb acts on (Encode and Update keep other keys as facets instead). `reason`
 * of Promote, Demote and Delete is kept in the audit log's copy of the IR.
 */
const USED_ARGS: Readonly<Record<Exclude<IR['op'], 'Encode'>, readonly string[]>> = {
  Update: ['set'],
  Label: ['tags', 'facets', 'mode'],
  Promote: ['weight', 'weight_delta', 'remind', 'reason'],
  Demote: ['archive', 'weight', 'weight_delta', 'reason'],
  Merge: ['strategy', 'primary_id', 'soft_delete_children', 'skip_reembedding'],
  Split: ['strategy', 'params', 'inherit_all', 'keep_source'],
  Lock: ['mode', 'lock_mode', 'reason', 'policy', 'lock_expires'],
  Expire: ['ttl', 'until', 'on_expire', 'reason'],
  Delete: ['older_than', 'time_range', 'soft', 'reason', 'expire_reason'],
  Retrieve: ['include'],
  Summarize: ['focus', 'max_tokens'],
};
export const TARGET_KEYS = ['ids', 'filter', 'search', 'all', 'time_from', 'time_to'];
export const FILTER_KEYS = ['time_range', 'has_tags', 'not_tags', 'type', 'subject', 'location', 'topic', 'weight_gte', 'weight_lte', 'expire_before', 'expire_after', 'limit', 'facets'];
const SEARCH_KEYS = ['intent', 'overrides', 'limit'];
const INTENT_KEYS = ['query', 'context'];
const OVERRIDE_KEYS = ['k', 'limit', 'alpha', 'order_by'];
export const TIME_RANGE_KEYS = ['start', 'end', 'relative', 'amount', 'unit'];
const POLICY_KEYS = ['allow', 'deny', 'reviewers', 'expires'];

/**
 * The IR keeps keys it does not know (the round trip preserves them), but the engine cannot act
 * on them: each one is reported as an `ignored-arg` warning naming it, so it is never dropped
 * silently.
 */
function reportIgnored(l: Lowerer, ir: IR): void {
  const unused = (obj: unknown, known: readonly string[], path: string, condition = false) => {
    if (!isPlainObject(obj)) return;
    for (const key of Object.keys(obj)) {
      if (known.includes(key)) continue;
      // A condition the engine cannot apply would make a write select more records than asked.
      if (condition && ir.op !== 'Retrieve' && ir.op !== 'Summarize') {
        l.error('unknown-condition', `${ir.op} refused: the engine cannot apply ${path}.${key}, so the write would select more records than asked (a facet condition is written facets.${key})`, `${path}.${key}`);
      } else l.warn('ignored-arg', `${ir.op} ignores '${key}': the engine does not use ${path}.${key}`, `${path}.${key}`);
    }
  };
  const t = ir.target as Record<string, any> | undefined;
  unused(t, TARGET_KEYS, 'target', true);
  unused(t?.filter, FILTER_KEYS, 'target.filter', true);
  unused(t?.filter?.time_range, TIME_RANGE_KEYS, 'target.filter.time_range', true);
  unused(t?.search, SEARCH_KEYS, 'target.search');
  unused(t?.search?.intent, INTENT_KEYS, 'target.search.intent');
  unused(t?.search?.overrides, OVERRIDE_KEYS, 'target.search.overrides');
  if (ir.op === 'Encode') return;
  const a = ir.args as Record<string, any> | undefined;
  unused(a, USED_ARGS[ir.op], 'args');
  if (ir.op === 'Lock') unused(a?.policy, POLICY_KEYS, 'args.policy');
  if (ir.op === 'Delete') unused(a?.time_range, TIME_RANGE_KEYS, 'args.time_range');
  if (ir.op === 'Promote') unused(a?.remind, ['rrule', 'until'], 'args.remind');
}

/** Lowers one validated IR against a clock. */
export function lowerIr(ir: IR, ctx: LowerContext): LowerResult {
  const l = new Lowerer(ctx.now);
  const meta = ir.meta ?? {};
  const base = {
    ir,
    actor: meta.actor ?? ctx.actor,
    now: formatUtc(ctx.now),
    dryRun: meta.dry_run === true,
    confirmation: meta.confirmation === true,
  };
  const a = (ir.args ?? {}) as Record<string, any>;
  let op: Operation;
  switch (ir.op) {
    case 'Encode':
      op = { kind: 'Encode', ...base, ...lowerEncode(l, ir) };
      break;
    case 'Update':
      op = { kind: 'Update', ...base, selection: l.selection(ir), ...lowerUpdate(l, ir) };
      break;
    case 'Label': {
      const tags = dedupe(a.tags ?? []);
      const facets = a.facets && typeof a.facets === 'object' ? { ...a.facets } : {};
      if (tags.length === 0 && Object.keys(facets).length === 0 && a.mode !== 'replace') {
        l.error('missing-field', 'Label needs tags or facets', 'args');
      }
      op = { kind: 'Label', ...base, selection: l.selection(ir), mode: a.mode ?? 'add', tags, facets, facetColumns: facetColumns(l, facets, 'args.facets') };
      break;
    }
    case 'Promote': {
      const change = l.weightChange(a, 1, 'args');
      const remind = a.remind ? lowerRemind(l, a.remind) : undefined;
      op = {
        kind: 'Promote', ...base, selection: l.selection(ir),
        change: change.kind === 'none' && !remind ? { kind: 'shift', delta: DEFAULT_WEIGHT_STEP } : change,
        remind, reason: a.reason,
      };
      break;
    }
    case 'Demote': {
      const change = a.archive ? { kind: 'archive' as const } : l.weightChange(a, -1, 'args');
      op = {
        kind: 'Demote', ...base, selection: l.selection(ir),
        change: change.kind === 'none' ? { kind: 'shift', delta: -DEFAULT_WEIGHT_STEP } : change,
        reason: a.reason,
      };
      break;
    }
    case 'Merge': {
      const primary = a.primary_id === undefined || a.primary_id === 'auto' ? 'auto' : l.ids(a.primary_id, 'args.primary_id')[0] ?? 'auto';
      op = {
        kind: 'Merge', ...base, selection: l.selection(ir), primary,
        softDeleteChildren: a.soft_delete_children !== false, reembed: a.skip_reembedding !== true,
      };
      break;
    }
    case 'Split':
      op = {
        kind: 'Split', ...base, selection: l.selection(ir), rule: lowerSplit(l, ir),
        inheritAll: a.inherit_all !== false, keepSource: a.keep_source === true,
      };
      break;
    case 'Lock': {
      const policy = a.policy ?? {};
      const mode = a.mode ?? a.lock_mode ?? (policy.allow || policy.deny ? 'custom' : 'read_only');
      const hasPolicy = policy.allow || policy.deny || policy.reviewers;
      op = {
        kind: 'Lock', ...base, selection: l.selection(ir), mode, reason: a.reason,
        policy: hasPolicy ? { allow: policy.allow, deny: policy.deny, reviewers: policy.reviewers } : undefined,
        expires: l.instant(policy.expires ?? a.lock_expires, 'args.policy.expires'),
      };
      break;
    }
    case 'Expire': {
      let expireAt: string | undefined;
      if (a.until !== undefined) expireAt = l.instant(a.until, 'args.until');
      else if (a.ttl !== undefined) expireAt = l.shifted(a.ttl, 1, 'args.ttl');
      else l.error('missing-field', 'Expire needs `ttl` or `until`', 'args');
      op = {
        kind: 'Expire', ...base, selection: l.selection(ir), expireAt: expireAt ?? base.now,
        action: a.on_expire ?? 'soft_delete', reason: a.reason,
      };
      break;
    }
    case 'Delete': {
      let extra: TimeWindow | undefined;
      if (a.older_than !== undefined) {
        const to = l.shifted(a.older_than, -1, 'args.older_than');
        if (to) extra = { to };
      }
      const range = l.timeRange(a.time_range, 'args.time_range');
      if (range) extra = extra ? intersect(extra, range) : range;
      const selection = l.selection(ir, extra);
      op = { kind: 'Delete', ...base, selection, soft: a.soft !== false, reason: a.reason ?? a.expire_reason };
      break;
    }
    case 'Retrieve': {
      const include: string[] = a.include?.length ? [...new Set(['id', ...a.include])] : DEFAULT_INCLUDE;
      op = { kind: 'Retrieve', ...base, selection: l.selection(ir), include };
      break;
    }
    case 'Summarize': {
      const maxTokens = a.max_tokens ?? DEFAULT_MAX_TOKENS;
      if (maxTokens < 1) l.error('out-of-range', 'max_tokens must be at least 1', 'args.max_tokens');
      op = { kind: 'Summarize', ...base, selection: l.selection(ir), focus: a.focus, maxTokens };
      break;
    }
  }
  reportIgnored(l, ir);
  if (l.errors.length) return { ok: false, diagnostics: l.errors };
  // The IR is the caller's object: it is referenced, never frozen.
  for (const [key, value] of Object.entries(op)) if (key !== 'ir') deepFreeze(value);
  return { ok: true, operation: Object.freeze(op), warnings: l.warnings };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

