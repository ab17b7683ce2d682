/**
 * Target lowering: which records an operation acts on. Ids parsed, filters and time ranges made
 * concrete against the clock (relative ranges, loose `time_from`/`time_to` bounds), search
 * intent and overrides read with their defaults.
 */
import type { Filter, IR, Target, TimeRange } from '../ir/schema.js';
import { DEFAULT_ALPHA } from './defaults.js';
import { dedupe, isPlainObject, isString, type Lowerer } from './lowerer.js';
import type { Level, LoweredFilter, LoweredSearch, OrderBy, Selection, TimeWindow } from './operation.js';
import { addDuration, formatUtc, unitDuration } from './time.js';

/** The window a time range selects; relative ranges end (or start) now. */
export function timeRange(l: Lowerer, tr: TimeRange | undefined, path: string): TimeWindow | undefined {
  if (!tr) return undefined;
  if (tr.relative !== undefined || tr.amount !== undefined) {
    const { amount, unit } = tr;
    if (amount === undefined || !unit) {
      l.error('time-range-incomplete', 'a relative time range needs `amount` and `unit`', path);
      return undefined;
    }
    const other = l.utc(addDuration(l.now, unitDuration(amount, unit), tr.relative === 'next' ? 1 : -1), `${path}.amount`);
    if (other === undefined) return undefined;
    const now = formatUtc(l.now);
    if (tr.relative === 'next') return { from: now, to: other };
    // "The last N days" includes all of today: the window ends at the end of the current UTC
    // day for day-or-longer units, and at now for minutes and hours.
    const to = unit === 'minutes' || unit === 'hours' ? now : now.slice(0, 10) + 'T23:59:59Z';
    return { from: other, to };
  }
  const from = l.instant(tr.start, `${path}.start`);
  const to = l.instant(tr.end, `${path}.end`);
  if (from && to && from > to) l.error('time-range-order', `time range starts (${from}) after it ends (${to})`, path);
  return from || to ? { from, to } : undefined;
}

export function intersect(a: TimeWindow | undefined, b: TimeWindow): TimeWindow {
  if (!a) return b;
  const from = a.from && b.from ? (a.from > b.from ? a.from : b.from) : a.from ?? b.from;
  const to = a.to && b.to ? (a.to < b.to ? a.to : b.to) : a.to ?? b.to;
  return { from, to };
}

const TAG_CONDITIONS = ['has_tags', 'not_tags'] as const;

/**
 * A filter's keys (its own and inherited enumerable ones, as a read by name finds them; a
 * `__proto__` key is no condition and is left out) in an object built key by key. Lowering reads
 * a dozen condition keys, most of them absent, and V8 answers a read of an absent key of an object
 * literal that spreads another and adds a key (`{ ...f, limit: 10 }`) in its runtime each time
 * (about 0.7 µs a read); on the copy each is an inline cache hit.
 */
function conditions(written: Filter): Filter {
  const copy: Record<string, unknown> = {};
  for (const key in written) if (key !== '__proto__') copy[key] = (written as Record<string, unknown>)[key];
  return copy as Filter;
}

function filter(l: Lowerer, written: Filter, path: string, extraTime?: TimeWindow): LoweredFilter {
  const f = conditions(written);
  // A condition that reduces to nothing is an error, never "everything" (spec/checks.md#empty-condition).
  for (const key of TAG_CONDITIONS) {
    const tags = f[key] ?? [];
    for (let i = 0; i < tags.length; i++) {
      if (String(tags[i]).trim() === '') l.error('empty-condition', `an empty or blank tag in \`${key}\` selects nothing as written`, `${path}.${key}.${i}`);
    }
  }
  if (isPlainObject(f.facets) && Object.keys(f.facets).length === 0) l.error('empty-condition', 'an empty facets condition names no facet', `${path}.facets`);
  let time = timeRange(l, f.time_range, `${path}.time_range`);
  if (extraTime) time = intersect(time, extraTime);
  return {
    time,
    hasTags: dedupe(f.has_tags ?? []),
    notTags: dedupe(f.not_tags ?? []),
    type: f.type, subject: f.subject, location: f.location, topic: f.topic,
    attribute: isString(f.attribute) ? f.attribute : undefined,
    weightGte: f.weight_gte, weightLte: f.weight_lte,
    expireBefore: l.instant(f.expire_before, `${path}.expire_before`),
    expireAfter: l.instant(f.expire_after, `${path}.expire_after`),
    facets: isPlainObject(f.facets) ? { ...f.facets } : {},
  };
}

/** The selection of a statement's target; `extraTime` (Delete's own bounds) narrows it. */
export function selection(l: Lowerer, ir: IR, extraTime?: TimeWindow, level?: Level): Selection {
  const t: Target = ir.target ?? {};
  const ids = t.ids !== undefined ? l.ids(t.ids, 'target.ids') : undefined;
  // Some IRs carry time bounds beside the filter; they narrow it.
  const timeFrom = isString(t.time_from) ? t.time_from : undefined;
  const timeTo = isString(t.time_to) ? t.time_to : undefined;
  const looseTime = timeFrom || timeTo
    ? { from: l.instant(timeFrom, 'target.time_from'), to: l.instant(timeTo, 'target.time_to') }
    : undefined;
  const time = extraTime && looseTime ? intersect(extraTime, looseTime) : extraTime ?? looseTime;
  const lowered = t.filter || time ? filter(l, t.filter ?? {}, 'target.filter', time) : undefined;
  const s = t.search;
  let search: LoweredSearch | undefined;
  if (s) {
    // A turn-level retrieval ranks by the state (CONTEXT) when it has one.
    const text = level === 'turn' ? s.intent?.context ?? s.intent?.query : s.intent?.query ?? s.intent?.context;
    const query = String(text ?? '').trim();
    const written = s.intent?.query !== undefined || s.intent?.context !== undefined;
    if (!query) l.error(written ? 'empty-condition' : 'missing-field', written ? 'a blank search query matches nothing as written' : 'a search target needs `intent.query` text', written ? 'target.search.intent.query' : 'target.search.intent');
    search = { query, alpha: Math.min(1, Math.max(0, s.overrides?.alpha ?? DEFAULT_ALPHA)) };
  }
  // `overrides.limit` (upstream examples) is read as `overrides.k`.
  const overrideLimit = typeof s?.overrides?.limit === 'number' ? s.overrides.limit : undefined;
  const limit = s?.overrides?.k ?? overrideLimit ?? s?.limit ?? t.filter?.limit;
  if (limit !== undefined && limit < 1) l.error('out-of-range', `limit must be at least 1, got ${limit}`, 'target.filter.limit');
  const orderBy: OrderBy = s?.overrides?.order_by ?? (search ? 'relevance' : 'time_desc');
  if (ir.op !== 'Encode' && ids === undefined && !lowered && !search && !t.all) {
    l.error('target-required', `${ir.op} needs a target: ids, filter, search or all`, 'target');
  }
  // `level` added after the literal (a spread after keys took V8's slow path, for every statement).
  const out: { -readonly [K in keyof Selection]: Selection[K] } = { ids, filter: lowered, search, all: t.all === true, limit, orderBy };
  if (level) out.level = level;
  return out;
}
