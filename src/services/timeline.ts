/**
 * What one statement changed in the memory table: the rows before and after it, compared by id.
 * The playground's timeline shows this per statement; it is plain data so tests can check it.
 */
export type Row = Readonly<Record<string, unknown>>;

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
