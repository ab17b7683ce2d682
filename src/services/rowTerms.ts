/**
 * The tags, types and subjects present in a set of memory rows, for completion: only the rows a
 * Retrieve by the reader would return (the compiled read filter's rules on rows already read:
 * the reader's tenant, live, not expired, the current version of a fact, readable by the actor,
 * and not hidden by a lock in force that denies Retrieve), so completion never names what a
 * record hidden from the reader is about.
 */
import { canRead, lockActive, lockDenies } from '../execute/governance.js';
import { DEFAULT_TENANT } from '../store/columns.js';
import type { StoreVocabulary } from './completion.js';
import type { Row } from './timeline.js';

/** Who reads, in which tenant, and when (default: the default tenant, an anonymous reader, now). */
export interface RowReader {
  readonly actor?: string;
  readonly tenant?: string;
  /** An ISO UTC instant (`2026-01-01T00:00:00Z`). */
  readonly now?: string;
}

function tagsOf(value: unknown): string[] {
  if (typeof value !== 'string') return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** A JSON object column as an object (rows read raw hold it as text). */
function objectOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return null;
  }
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Would a Retrieve by `reader` return `row`? */
export function readableRow(row: Row, reader: RowReader = {}): boolean {
  const now = reader.now ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  if ((text(row.tenant) ?? DEFAULT_TENANT) !== (reader.tenant ?? DEFAULT_TENANT)) return false;
  if (row.deleted) return false;
  const expires = text(row.expire_at), validTo = text(row.valid_to), validFrom = text(row.valid_from);
  if (expires !== null && expires <= now) return false;
  if (validTo !== null && validTo <= now) return false;
  if (validFrom !== null && validFrom > now) return false;
  if (!canRead(row, reader.actor)) return false;
  const locked = { ...row, lock_policy: objectOf(row.lock_policy) };
  return !(lockActive(locked, now) && lockDenies(locked, 'Retrieve', reader.actor));
}

const sorted = (values: Iterable<string>): string[] => [...new Set(values)].filter((v) => v !== '').sort((a, b) => a.localeCompare(b));

export function termsOfRows(rows: readonly Row[], reader: RowReader = {}): StoreVocabulary {
  const live = rows.filter((r) => readableRow(r, reader));
  return {
    tags: sorted(live.flatMap((r) => tagsOf(r.tags))),
    types: sorted(live.map((r) => r.type).filter((t): t is string => typeof t === 'string')),
    subjects: sorted(live.map((r) => r.subject).filter((s): s is string => typeof s === 'string')),
  };
}
