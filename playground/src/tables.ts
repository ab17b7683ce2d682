/**
 * Row tables shared by the panes: the memory table, a statement's returned rows, the timeline's
 * diff table, the `+1 −0 ~2` badges and the `#id field: old → new` change list. Plain DOM, no state.
 */
import { defaultOf, defaultedText, type Row, type RowDiff } from '../../src/services/timeline.js';
import { h } from './dom.js';

/** What a table needs of an executed statement: its memory before and after, and their diff. */
export interface StatementDiff {
  readonly before: readonly Row[];
  readonly after: readonly Row[];
  readonly diff: RowDiff;
}

/** A cell's text; a stored empty value that reads take as a default shows that default, marked (`0.5 (default)`, as `t2m run` shows it). */
export function shownCell(column: string, value: unknown): string {
  const d = defaultOf(column, value);
  return d === undefined ? cell(value) : defaultedText(d);
}

/** A table cell for `column`: a defaulted one is marked (class `defaulted`) and says why in its title. */
export function valueCell(column: string, value: unknown, attrs: Record<string, string | undefined> = {}): HTMLTableCellElement {
  const d = defaultOf(column, value);
  if (d === undefined) return h('td', { title: cell(value), ...attrs }, cell(value));
  return h('td', {
    ...attrs, class: [attrs.class, 'defaulted'].filter(Boolean).join(' '),
    title: `${d}: never promoted or demoted (stored empty; every read takes ${d})`,
  }, defaultedText(d));
}

export function cell(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  return JSON.stringify(value);
}

/** Columns never shown in tables: bookkeeping and the (long) embedding vector. */
const HIDDEN_COLUMNS = new Set(['embedding', 'embedding_model']);

/** The columns worth showing: any that some row fills (a table of 30 mostly-null columns hides the data). */
export function columnsOf(rows: readonly Row[]): string[] {
  const all = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  // A stored empty value that reads take as a default (weight) is shown as that default.
  const filled = (c: string) => rows.some((r) => (r[c] !== null && r[c] !== undefined && r[c] !== '' && r[c] !== '[]' && r[c] !== '{}') || (c in r && defaultOf(c, r[c]) !== undefined));
  return all.filter((c) => c === 'id' || (!HIDDEN_COLUMNS.has(c) && filled(c)));
}

export function rowsTable(rows: readonly Row[]): HTMLTableElement {
  const columns = columnsOf(rows);
  return h('table', {},
    h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', {}, c)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...columns.map((c) => valueCell(c, r[c]))))));
}

export function diffBadges(diff: RowDiff): HTMLElement {
  return h('span', { class: 'diff-badges' },
    h('span', { class: 'badge added', 'data-added': String(diff.added.length) }, `+${diff.added.length}`), ' ',
    h('span', { class: 'badge removed', 'data-removed': String(diff.removed.length) }, `−${diff.removed.length}`), ' ',
    h('span', { class: 'badge changed', 'data-changed': String(diff.changed.length) }, `~${diff.changed.length}`));
}

/** Columns every write touches; listed in the table but not in the change summary. */
const BOOKKEEPING = new Set(['updated_at', 'created_at']);

/** One line per changed field: `#2 weight: ∅ → 0.9`. */
export function changeList(diff: RowDiff): HTMLElement | null {
  const lines = [
    ...diff.added.map((row) => h('li', { class: 'added' }, `+ #${cell(row.id)} ${cell(row.text)}`)),
    ...diff.removed.map((row) => h('li', { class: 'removed' }, `− #${cell(row.id)} ${cell(row.text)}`)),
    ...diff.changed.flatMap((c) => c.fields.filter((f) => !BOOKKEEPING.has(f) && !HIDDEN_COLUMNS.has(f))
      .map((f) => h('li', { class: 'changed' }, `~ #${c.id} ${f}: ${shownCell(f, c.before[f])} → ${shownCell(f, c.after[f])}`))),
  ];
  return lines.length ? h('ul', { class: 'changes', 'data-testid': 'changes' }, ...lines) : h('div', { class: 'pane-note' }, 'No change to memory.');
}

/** Memory after the statement: added rows green, removed rows struck out, changed cells yellow. */
export function diffTable(r: StatementDiff): HTMLElement {
  const rows = [...r.after, ...r.diff.removed];
  if (rows.length === 0) return h('div', { class: 'pane-note' }, 'Memory is empty.');
  // What changed comes first, so it is on screen without scrolling: id, changed columns, the rest.
  const changedColumns = [...new Set(r.diff.changed.flatMap((c) => c.fields))].filter((c) => !HIDDEN_COLUMNS.has(c) && !BOOKKEEPING.has(c));
  const columns = [...new Set(['id', ...changedColumns, ...columnsOf([...rows, ...r.before])])].filter((c) => !HIDDEN_COLUMNS.has(c));
  const added = new Set(r.diff.added.map((row) => String(row.id)));
  const removed = new Set(r.diff.removed.map((row) => String(row.id)));
  const changed = new Map(r.diff.changed.map((c) => [c.id, c]));
  return h('table', { 'data-testid': 'timeline-table' },
    h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', {}, c)))),
    h('tbody', {}, ...rows.map((row) => {
      const id = String(row.id);
      const change = changed.get(id);
      const kind = added.has(id) ? 'added' : removed.has(id) ? 'removed' : change ? 'changed' : undefined;
      return h('tr', { class: kind, 'data-row': id },
        ...columns.map((c) => {
          const isChanged = change?.fields.includes(c) ?? false;
          if (!isChanged) return valueCell(c, row[c]);
          return h('td', { class: 'changed', title: `was: ${shownCell(c, change!.before[c])}` }, shownCell(c, row[c]));
        }));
    })));
}
