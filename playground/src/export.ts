/** Export of tables (memory, a run's results) as CSV (RFC 4180) or JSON downloads. */
import { download } from './dom.js';
import type { StatementView } from './run.js';
import { cell } from './tables.js';

/** One CSV field: quoted when it holds a comma, quote or line break; quotes doubled. */
function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : cell(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: readonly Record<string, unknown>[], columns?: readonly string[]): string {
  const cols = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return [cols.map(csvField).join(','), ...rows.map((r) => cols.map((c) => csvField(r[c])).join(','))].join('\r\n') + '\r\n';
}

/** JSON with byte arrays (an embedding blob) shown as their length, like the tables. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? `<${v.length} bytes>` : v), 2);
}

/** A run's statements as plain records (no memory snapshots): one per statement. */
export function resultRecords(results: readonly StatementView[]): Record<string, unknown>[] {
  return results.map((r) => ({
    statement: r.statement + 1,
    op: r.op,
    ok: r.ok,
    source: r.source,
    affected_ids: r.affectedIds.join(' '),
    added: r.diff.added.length,
    removed: r.diff.removed.length,
    changed: r.diff.changed.length,
    rows: r.rows.length,
    warnings: r.warnings.join('; '),
    errors: r.errors.map((e) => `${e.code}: ${e.message}`).join('; '),
    summary: r.summary ?? '',
  }));
}

/** The results JSON: each statement with its returned rows and SQL. */
export function resultsJson(results: readonly StatementView[]): string {
  return toJson(results.map(({ before: _b, after: _a, ...rest }) => rest));
}

export function exportTable(name: string, format: 'csv' | 'json', rows: readonly Record<string, unknown>[], json?: string): void {
  if (format === 'csv') download(`${name}.csv`, toCsv(rows), 'text/csv');
  else download(`${name}.json`, json ?? toJson(rows), 'application/json');
}
