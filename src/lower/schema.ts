/**
 * Attribute schemas (spec/semantics.md "Attribute schemas"): the shape of a declaration
 * (`ENCODE ATTRIBUTE a SCHEMA { … }`, IR `args.schema`), and the pure checks a fact's value and
 * subject get against it. The store side (declaring, reading the current schema, the conflict
 * policy) is src/execute/schemas.ts.
 */
import { closest } from '../diagnostics/suggest.js';
import { utcText } from './time.js';

export const VALUE_TYPES = ['text', 'number', 'date', 'datetime', 'boolean', 'enum', 'ref'] as const;
export const CARDINALITIES = ['one', 'set'] as const;
export const NORMALISATIONS = ['trim', 'casefold'] as const;
/** `latest`: the latest valid time wins (the default); `confidence`: a lower-confidence value is refused; `confirm`: a different value needs CONFIRM. */
export const CONFLICT_POLICIES = ['latest', 'confidence', 'confirm'] as const;

export type ValueType = (typeof VALUE_TYPES)[number];

/** An attribute's schema, as declared (defaults filled in). */
export interface AttributeSchema {
  readonly type: ValueType;
  /** The allowed values of an `enum`. */
  readonly values?: readonly string[];
  readonly cardinality: (typeof CARDINALITIES)[number];
  readonly normalize: readonly (typeof NORMALISATIONS)[number][];
  readonly conflict: (typeof CONFLICT_POLICIES)[number];
}

const KEYS = ['type', 'values', 'cardinality', 'normalize', 'conflict'];

/**
 * A declaration's schema from `args.schema`, or undefined after reporting each problem at its
 * path (`report(path, message)`). Unknown keys are refused, so that a misspelt `conflict` does
 * not silently leave the default.
 */
export function readSchema(raw: unknown, report: (path: string, message: string) => void): AttributeSchema | undefined {
  const at = 'args.schema';
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return void report(at, 'SCHEMA takes an object: { type: "date", cardinality: "one", normalize: ["trim", "casefold"], conflict: "latest" }');
  const o = raw as Record<string, unknown>;
  let ok = true;
  const bad = (key: string, message: string): void => {
    ok = false;
    report(`${at}.${key}`, message);
  };
  for (const key of Object.keys(o)) {
    if (KEYS.includes(key)) continue;
    const near = closest(key, KEYS);
    bad(key, `'${key}' is not a schema key (keys: ${KEYS.join(', ')})${near ? `; did you mean '${near}'?` : ''}`);
  }
  const oneOf = <T extends string>(key: string, allowed: readonly T[], fallback: T): T => {
    const v = o[key];
    if (v === undefined) return fallback;
    if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
    const near = typeof v === 'string' ? closest(v, allowed) : undefined;
    bad(key, `schema '${key}' must be one of ${allowed.join(', ')}, got ${JSON.stringify(v)}${near ? `; did you mean '${near}'?` : ''}`);
    return fallback;
  };
  const type = oneOf('type', VALUE_TYPES, 'text');
  const cardinality = oneOf('cardinality', CARDINALITIES, 'one');
  const conflict = oneOf('conflict', CONFLICT_POLICIES, 'latest');
  let normalize: (typeof NORMALISATIONS)[number][] = [];
  const n = o.normalize;
  if (n !== undefined) {
    const list = typeof n === 'string' ? [n] : n;
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && (NORMALISATIONS as readonly string[]).includes(x))) {
      bad('normalize', `schema 'normalize' is a list of ${NORMALISATIONS.join(', ')}, got ${JSON.stringify(n)}`);
    } else normalize = [...new Set(list as (typeof NORMALISATIONS)[number][])];
  }
  let values: string[] | undefined;
  if (type === 'enum') {
    const v = o.values;
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string' && x.trim() !== '')) bad('values', 'an enum schema lists its values: values: ["active", "paused"]');
    else values = [...new Set(v as string[])];
  } else if (o.values !== undefined) bad('values', `'values' belongs to an enum schema (this one is ${type})`);
  if (!ok) return undefined;
  return { type, ...(values ? { values } : {}), cardinality, normalize, conflict };
}

/** A subject in the form the schema keeps it (trimmed, case-folded), or as given when it declares neither. */
export function normaliseSubject(schema: AttributeSchema, subject: string): string {
  let s = subject;
  if (schema.normalize.includes('trim')) s = s.trim();
  if (schema.normalize.includes('casefold')) s = s.toLowerCase();
  return s;
}

/** Whether a value passes its schema's type: the value to store, or why not and what it likely meant. */
export type ValueCheck = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly message: string; readonly suggestion?: string };

/**
 * Checks a fact's value (its text) against the schema's type. A `set` attribute's value is a
 * JSON array of strings (or items separated by commas), each checked, stored as a JSON array
 * without repeats. A `ref` is checked for shape here (a non-blank subject name); that the subject
 * exists is the store's question (src/execute/schemas.ts).
 */
export function checkValue(schema: AttributeSchema, text: string): ValueCheck {
  if (schema.cardinality === 'one') return checkOne(schema, text);
  let items: unknown;
  try {
    items = text.trim().startsWith('[') ? JSON.parse(text) : text.split(',').map((s) => s.trim());
  } catch {
    return { ok: false, message: `${JSON.stringify(text)} is not a set: write a JSON list of strings, e.g. ["en", "fr"], or items separated by commas` };
  }
  if (!Array.isArray(items) || !items.every((x) => typeof x === 'string')) return { ok: false, message: `${JSON.stringify(text)} is not a set: write a JSON list of strings, e.g. ["en", "fr"]` };
  const out: string[] = [];
  for (const item of items as string[]) {
    const one = checkOne(schema, item);
    if (!one.ok) {
      const fixed = one.suggestion === undefined ? undefined : JSON.stringify((items as string[]).map((x) => (x === item ? one.suggestion : x)));
      return { ok: false, message: `set item ${one.message}`, ...(fixed ? { suggestion: fixed } : {}) };
    }
    if (!out.includes(one.value)) out.push(one.value);
  }
  return { ok: true, value: JSON.stringify(out) };
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const pad = (n: number): string => String(n).padStart(2, '0');

/** A date `y-m-d` if it is one on the calendar, else undefined. */
function isoDate(y: number, m: number, d: number): string | undefined {
  if (!(m >= 1 && m <= 12 && d >= 1 && d <= 31 && y >= 1 && y <= 9999)) return undefined;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;
}

function monthOf(word: string): number | undefined {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (w.length < 3) return undefined;
  const i = MONTHS.findIndex((m) => m.startsWith(w));
  return i < 0 ? undefined : i + 1;
}

/**
 * The ISO date a date written another way most likely means, when only one reading is possible:
 * `2026/07/15`, `2026.07.15`, `20260715`, `15/07/2026` (day over 12), `July 15, 2026`,
 * `15 July 2026`, or a date-time's date.
 */
export function dateMeant(text: string): string | undefined {
  const s = text.trim();
  let m = /^(\d{4})[/.\-_ ](\d{1,2})[/.\-_ ](\d{1,2})$/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4})$/.exec(s);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    // Day-first and month-first both read `03/04/2026`: only an unambiguous one is suggested.
    if (a > 12 && b <= 12) return isoDate(Number(m[3]), b, a);
    if (b > 12 && a <= 12) return isoDate(Number(m[3]), a, b);
    return undefined;
  }
  m = /^([A-Za-z]+\.?)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/.exec(s);
  if (m && monthOf(m[1])) return isoDate(Number(m[3]), monthOf(m[1])!, Number(m[2]));
  m = /^(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+\.?),?\s+(\d{4})$/.exec(s);
  if (m && monthOf(m[2])) return isoDate(Number(m[3]), monthOf(m[2])!, Number(m[1]));
  m = /^(\d{4}-\d{2}-\d{2})[T ]/.exec(s);
  if (m && utcText(s) !== null) return m[1];
  return undefined;
}

const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const BOOLEANS: Readonly<Record<string, 'true' | 'false'>> = { true: 'true', false: 'false', yes: 'true', no: 'false', y: 'true', n: 'false', '1': 'true', '0': 'false', on: 'true', off: 'false' };

function checkOne(schema: AttributeSchema, text: string): ValueCheck {
  const v = text;
  const quoted = JSON.stringify(v);
  switch (schema.type) {
    case 'text':
      return v.trim() === '' ? { ok: false, message: 'a text value is blank' } : { ok: true, value: v };
    case 'number': {
      if (NUMBER.test(v)) return { ok: true, value: v };
      const plain = v.trim().replace(/(\d)[,_ '](?=\d{3}\b)/g, '$1');
      const decimalComma = /^-?\d+,\d+$/.test(plain) ? plain.replace(',', '.') : plain;
      return { ok: false, message: `${quoted} is not a number`, ...(NUMBER.test(decimalComma) ? { suggestion: decimalComma } : {}) };
    }
    case 'date': {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
      if (m && isoDate(Number(m[1]), Number(m[2]), Number(m[3]))) return { ok: true, value: v };
      const meant = dateMeant(v);
      return { ok: false, message: `${quoted} is not a date in the form YYYY-MM-DD`, ...(meant ? { suggestion: meant } : {}) };
    }
    case 'datetime': {
      if (/T/.test(v) && /(?:Z|[+-]\d{2}:?\d{2})$/.test(v) && utcText(v) !== null) return { ok: true, value: v };
      const meant = dateMeant(v) ?? (/^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
      const withZone = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? `${v}Z` : meant ? `${meant}T00:00:00Z` : undefined;
      return { ok: false, message: `${quoted} is not a date-time with an offset (e.g. 2026-06-30T09:00:00Z)`, ...(withZone && utcText(withZone) !== null ? { suggestion: withZone } : {}) };
    }
    case 'boolean': {
      if (v === 'true' || v === 'false') return { ok: true, value: v };
      const meant = BOOLEANS[v.trim().toLowerCase()];
      return { ok: false, message: `${quoted} is not a boolean (true or false)`, ...(meant ? { suggestion: meant } : {}) };
    }
    case 'enum': {
      const values = schema.values ?? [];
      if (values.includes(v)) return { ok: true, value: v };
      const meant = values.find((x) => x.toLowerCase() === v.trim().toLowerCase()) ?? closest(v, values);
      return { ok: false, message: `${quoted} is not one of ${values.map((x) => JSON.stringify(x)).join(', ')}${meant ? `; did you mean ${JSON.stringify(meant)}?` : ''}`, ...(meant ? { suggestion: meant } : {}) };
    }
    case 'ref': {
      const s = normaliseSubject(schema, v);
      return s.trim() === '' ? { ok: false, message: 'a reference names a subject, and this one is blank' } : { ok: true, value: s };
    }
  }
}
