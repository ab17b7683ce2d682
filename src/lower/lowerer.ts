/**
 * The state of one lowering: the clock, and the diagnostics found so far. Value readers that
 * normalise (instants, durations, ids) report a bad value at its IR path and carry on, so one
 * statement's every problem is reported at once.
 */
import type { Code, Diagnostic } from '../diagnostics/diagnostic.js';
import type { JsonValue } from '../ir/schema.js';
import { addDuration, formatUtc, parseDuration, parseInstant, utcText } from './time.js';

export class Lowerer {
  readonly errors: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];
  constructor(readonly now: Date) {}

  error(code: Code, message: string, path: string): void {
    this.errors.push({ code, severity: 'error', message, path });
  }
  warn(code: Code, message: string, path: string): void {
    this.warnings.push({ code, severity: 'warning', message, path });
  }

  /** An instant as UTC `YYYY-MM-DDTHH:MM:SSZ`. */
  instant(value: string | undefined, path: string): string | undefined {
    if (value === undefined) return undefined;
    const utc = utcText(value);
    if (utc === null) {
      this.error('invalid-datetime', `'${value}' is not an ISO-8601 date or date-time`, path);
      return undefined;
    }
    return utc;
  }

  /** now ± an ISO or short duration. */
  shifted(value: string, sign: 1 | -1, path: string): string | undefined {
    const d = parseDuration(value);
    if (!d) {
      this.error('invalid-duration', `'${value}' is not a duration (ISO-8601 like P30D or PT12H, or 30d)`, path);
      return undefined;
    }
    return this.utc(addDuration(this.now, d, sign), path);
  }

  /** A computed instant as UTC text, or an `out-of-range` error when it is past what a date can hold (±275,000 years). */
  utc(date: Date, path: string): string | undefined {
    if (Number.isNaN(date.getTime())) {
      this.error('out-of-range', 'this duration reaches past the dates the engine can represent (about ±275,000 years)', path);
      return undefined;
    }
    return formatUtc(date);
  }

  /** Memory ids (positive integers), deduplicated. */
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
}

export const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
/**
 * Filter values (tags HAS …) as written, duplicates dropped; blank ones are left out (what a blank
 * filter condition means is the filter's business, see target.ts).
 */
export const dedupe = (xs: readonly string[]): string[] =>
  // No list, closure and set for the usual none or one (a filter's has_tags and not_tags, every statement).
  xs.length === 0 ? [] : xs.length === 1 ? (xs[0].trim() !== '' ? [xs[0]] : []) : [...new Set(xs.filter((x) => x.trim() !== ''))];

/**
 * A stored list of strings (tags, read/write white- and blacklists) exactly as written: no
 * trimming, exact duplicates dropped. A blank element (empty or only white space) would be stored
 * as a tag nobody can mean, so it is refused (`empty-value`) at its path.
 */
export function storedList(l: Lowerer, xs: readonly string[], path: string): string[] {
  xs.forEach((x, i) => {
    if (x.trim() === '') l.error('empty-value', `${JSON.stringify(x)} is blank: a stored tag or list entry needs text (leave it out of the list)`, `${path}.${i}`);
  });
  return [...new Set(xs)];
}

/**
 * Own-property assignment: a user key such as `__proto__` is data, as in JSON.parse (a plain
 * `o[key] = v` or Object.assign would set the object's prototype and lose the key).
 */
export function setOwn<V>(o: Record<string, V>, key: string, value: V): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Object.assign by own properties (see setOwn). */
export function assignOwn<V>(target: Record<string, V>, source: Readonly<Record<string, V>>): Record<string, V> {
  for (const key of Object.keys(source)) setOwn(target, key, source[key]);
  return target;
}
export const isPlainObject = (v: unknown): v is Record<string, JsonValue> => !!v && typeof v === 'object' && !Array.isArray(v);
export const isString = (v: unknown): v is string => typeof v === 'string';
export const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/**
 * A value of a validated IR: the IR is JSON (read from JSON text or built by the converter), so
 * the keys its open objects keep beyond their schema (typed `unknown` by zod) hold JSON values.
 */
export const asJson = (v: unknown): JsonValue => v as JsonValue;
export const asJsonObject = (o: Readonly<Record<string, unknown>>): Record<string, JsonValue> => ({ ...o }) as Record<string, JsonValue>; // spread keeps `__proto__` keys

export const FACET_COLUMNS = ['subject', 'time', 'location', 'topic'] as const;
export const PERM_LISTS = ['read_whitelist', 'read_blacklist', 'write_whitelist', 'write_blacklist'] as const;

/** Facet keys that are columns are copied to those columns (time normalised). */
export function facetColumns(l: Lowerer, facets: Readonly<Record<string, unknown>>, path: string): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const key of FACET_COLUMNS) {
    const v = facets[key];
    if (typeof v !== 'string') continue;
    out[key] = key === 'time' ? l.instant(v, `${path}.time`) ?? null : v;
  }
  return out;
}
