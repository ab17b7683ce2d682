/**
 * What one statement changed in the memory table: the rows before and after it, compared by id.
 * The playground's timeline shows this per statement; it is plain data so tests can check it.
 */
import { BASE_WEIGHT } from '../lower/defaults.js';

export type Row = Readonly<Record<string, unknown>>;

/**
 * The value a read takes for a stored empty one, where there is such a default: a record never
 * promoted or demoted has no weight (NULL) and every read takes it as BASE_WEIGHT. Tables (the
 * playground's, `t2m run`'s) show that value, marked as a default, instead of an empty cell.
 */
export function defaultOf(column: string, value: unknown): number | undefined {
  return column === 'weight' && (value === null || value === undefined) ? BASE_WEIGHT : undefined;
}

/** How a text table marks a defaulted value: `0.5 (default)`. */
export const defaultedText = (value: number): string => `${value} (default)`;

export interface ChangedRow {
  readonly id: string;
  readonly before: Row;
  readonly after: Row;
  /** Columns whose value differs, in column order. */
  readonly fields: readonly string[];
}

export interface RowDiff {
  readonly added: readonly Row[];
  readonly removed: readonly Row[];
  readonly changed: readonly ChangedRow[];
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  return false;
}

export function diffRows(before: readonly Row[], after: readonly Row[], key = 'id'): RowDiff {
  const old = new Map(before.map((row) => [String(row[key]), row]));
  const seen = new Set<string>();
  const added: Row[] = [];
  const changed: ChangedRow[] = [];
  for (const row of after) {
    const id = String(row[key]);
    seen.add(id);
    const prev = old.get(id);
    if (!prev) {
      added.push(row);
      continue;
    }
    const columns = [...new Set([...Object.keys(prev), ...Object.keys(row)])];
    const fields = columns.filter((c) => !sameValue(prev[c], row[c]));
    if (fields.length > 0) changed.push({ id, before: prev, after: row, fields });
  }
  const removed = before.filter((row) => !seen.has(String(row[key])));
  return { added, removed, changed };
}

export function isEmptyDiff(diff: RowDiff): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}
