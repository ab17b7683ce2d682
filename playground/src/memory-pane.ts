/**
 * The Memory pane: the open store's `memory` table with its row count, a filter (rows whose
 * shown cells contain the text), sorting by any column (click or Enter on its header; again to
 * reverse), the governance columns (expiry, lock, lineage, permissions, bookkeeping) grouped
 * behind a toggle, and export of the rows shown as CSV or JSON. A record's id opens its "why":
 * its provenance and the chain of versions it superseded (the engine's `why`, as `t2m why`).
 */

export type WhyLookup = (id: number) => WhyResult | { ok: false; diagnostics: Diagnostic[] } | undefined;
import type { WhyResult } from '../../src/engine/index.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { Row } from '../../src/services/timeline.js';
import { clear, h } from './dom.js';
import { defaultOf } from '../../src/services/timeline.js';
import { cell, columnsOf, valueCell } from './tables.js';

/** Columns about governing a memory rather than its content: shown on demand, as a group. */
const GOVERNANCE = /^(expire_|lock_|lineage_|read_|write_|auto_|next_auto_|owner$|deleted|created_at$|updated_at$)/;

export function isGovernanceColumn(column: string): boolean {
  return GOVERNANCE.test(column);
}

const isEmpty = (v: unknown): boolean => v === null || v === undefined || v === '';

/**
 * A value as the table sorts it: a record never promoted or demoted has no weight (NULL), which
 * every read takes as BASE_WEIGHT (`defaultOf`), so it sorts as that.
 */
function shown(column: string, value: unknown): unknown {
  return defaultOf(column, value) ?? value;
}

/** Orders two non-empty values (numbers by value, the rest as text). */
function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = cell(a);
  const y = cell(b);
  const nx = Number(x);
  const ny = Number(y);
  if (x !== '' && y !== '' && !Number.isNaN(nx) && !Number.isNaN(ny)) return nx - ny;
  return x.localeCompare(y);
}

export class MemoryPane {
  private memory: readonly Row[] = [];
  private filter = '';
  private sort?: { column: string; descending: boolean };
  private governance = false;
  private readonly filterInput = h('input', {
    type: 'search', placeholder: 'filter rows…', 'aria-label': 'Filter memory rows', 'data-testid': 'memory-filter',
    oninput: () => { this.filter = this.filterInput.value; this.renderTable(); },
  });
  private readonly governanceToggle = h('input', {
    type: 'checkbox', 'data-testid': 'memory-governance',
    onchange: () => { this.governance = this.governanceToggle.checked; this.renderTable(); },
  });
  private readonly note = h('span', { class: 'pane-note', 'data-testid': 'memory-count' });
  private readonly tableHost = h('div', { class: 'memory-table' });
  private readonly whyHost = h('div', { class: 'memory-why', 'data-testid': 'memory-why', 'aria-live': 'polite' });

  constructor(private readonly pane: HTMLElement, private readonly lookup?: WhyLookup) {
    clear(pane,
      h('div', { class: 'pane-bar' },
        this.note,
        this.filterInput,
        h('label', { title: 'Expiry, lock, lineage, permission and bookkeeping columns' }, this.governanceToggle, ' governance columns'),
        h('span', { class: 'spacer' }),
        h('button', { 'data-testid': 'export-memory-csv', title: 'Download the rows shown as CSV', onclick: () => this.export('csv') }, 'CSV'),
        h('button', { 'data-testid': 'export-memory-json', title: 'Download the rows shown as JSON', onclick: () => this.export('json') }, 'JSON')),
      this.whyHost,
      this.tableHost);
  }

  show(memory: readonly Row[]): void {
    this.memory = memory;
    clear(this.whyHost);
    this.renderTable();
  }

  /** Shows why record `id` is what it is: each version (newest first) with where it came from. */
  showWhy(id: number): void {
    const found = this.lookup?.(id);
    if (!found) return;
    if (!found.ok) {
      clear(this.whyHost, h('div', { class: 'pane-note' }, found.diagnostics.map((d) => d.message).join('; ')));
      return;
    }
    const line = (p: WhyResult['chain'][number]) => {
      const parts = [`#${p.id}`, JSON.stringify(p.text ?? '')];
      if (p.attribute) parts.push(`${p.subject ?? '?'}.${p.attribute}`);
      if (p.validFrom || p.validTo) parts.push(`valid ${p.validFrom ?? '…'} → ${p.validTo ?? 'now'}`);
      // Transaction time: when the store believed this version (spec/semantics.md "Two time axes").
      if (p.attribute && p.believed?.length) parts.push(`believed ${p.believed.map(([from, to]) => `${from} → ${to ?? 'now'}`).join(', ')}`);
      if (p.episode) parts.push(`episode ${p.episode}`);
      if (p.confidence !== null) parts.push(`confidence ${p.confidence}`);
      parts.push(`by ${p.actor ?? 'anonymous'}`);
      if (p.traceId) parts.push(`run ${p.traceId}${p.statement !== null ? `, statement ${p.statement + 1}` : ''}`);
      if (p.deleted) parts.push('deleted');
      // The chain runs back in time; the versions that replaced one are the rows naming it in `supersedes`.
      const newer = this.memory.filter((r) => r.supersedes === p.id && typeof r.id === 'number').map((r) => r.id as number);
      const link = (to: number) => h('button', { type: 'button', class: 'why-link', 'data-why-link': String(to), title: `Why #${to}`, onclick: () => this.showWhy(to) }, `#${to}`);
      return h('li', {}, parts.join(' · '),
        ...(p.supersedes !== null ? [' · supersedes ', link(p.supersedes)] : []),
        ...(newer.length ? [' · superseded by ', ...newer.flatMap((n, i) => (i ? [', ', link(n)] : [link(n)]))] : []));
    };
    clear(this.whyHost,
      h('div', { class: 'pane-bar' },
        h('strong', {}, `Why #${id}`),
        h('span', { class: 'pane-note' }, `${found.chain.length} version${found.chain.length === 1 ? '' : 's'}, ${found.audit.length} audit entr${found.audit.length === 1 ? 'y' : 'ies'}`),
        h('span', { class: 'spacer' }),
        h('button', { type: 'button', title: 'Close', onclick: () => clear(this.whyHost) }, '×')),
      h('ol', {}, ...found.chain.map(line)));
  }

  /** The rows that pass the filter, sorted. */
  private rows(): Row[] {
    const needle = this.filter.trim().toLowerCase();
    const rows = needle ? this.memory.filter((r) => Object.values(r).some((v) => cell(v).toLowerCase().includes(needle))) : [...this.memory];
    if (this.sort) {
      const { column, descending } = this.sort;
      rows.sort((a, b) => {
        const x = shown(column, a[column]);
        const y = shown(column, b[column]);
        // Empty cells go last in either direction: they are what a sort is meant to push aside.
        if (isEmpty(x) || isEmpty(y)) return Number(isEmpty(x)) - Number(isEmpty(y));
        return (descending ? -1 : 1) * compare(x, y);
      });
    }
    return rows;
  }

  private columns(rows: readonly Row[]): string[] {
    const all = columnsOf(rows.length ? rows : this.memory);
    return this.governance ? [...all.filter((c) => !isGovernanceColumn(c)), ...all.filter(isGovernanceColumn)] : all.filter((c) => !isGovernanceColumn(c));
  }

  private renderTable(): void {
    const rows = this.rows();
    const total = this.memory.length;
    this.note.textContent = rows.length === total
      ? `${total} row${total === 1 ? '' : 's'}`
      : `${rows.length} of ${total} rows`;
    if (total === 0) {
      clear(this.tableHost, h('div', { class: 'pane-note' }, 'The memory table is empty.'));
      return;
    }
    const columns = this.columns(rows);
    const header = (c: string) => {
      const sorted = this.sort?.column === c ? (this.sort.descending ? 'descending' : 'ascending') : undefined;
      return h('th', { class: isGovernanceColumn(c) ? 'governance' : undefined, 'aria-sort': sorted ?? 'none', scope: 'col' },
        h('button', {
          type: 'button', class: 'sort', 'data-column': c, title: `Sort by ${c}`,
          onclick: () => {
            this.sort = this.sort?.column === c && !this.sort.descending ? { column: c, descending: true } : { column: c, descending: false };
            this.renderTable();
            this.tableHost.querySelector<HTMLElement>(`button[data-column="${c}"]`)?.focus();
          },
        }, c, sorted ? (sorted === 'ascending' ? ' ▲' : ' ▼') : ''));
    };
    clear(this.tableHost, h('table', { 'data-testid': 'memory-table' },
      h('thead', {}, h('tr', {}, ...columns.map(header))),
      h('tbody', {}, ...rows.map((r) => h('tr', {}, ...columns.map((c) => {
        const td = valueCell(c, r[c], { class: isGovernanceColumn(c) ? 'governance' : undefined });
        if (c === 'id' && this.lookup && typeof r.id === 'number') {
          clear(td, h('button', { type: 'button', class: 'why', 'data-why': String(r.id), title: `Why #${r.id}: its provenance and the versions it superseded`, onclick: () => this.showWhy(r.id as number) }, cell(r[c])));
        }
        return td;
      }))))));
  }

  private export(format: 'csv' | 'json'): void {
    const rows = this.rows();
    // Export (and its CSV writer) loads on first use.
    void import('./export.js').then((m) => m.exportTable('t2m-memory', format, rows));
  }
}
