/**
 * The Results pane: a bar naming the run shown (which store, how many rows, committed or not)
 * with the script's run history and export, then per statement its affected ids, warnings,
 * errors, summary and returned rows, and a note when the run was rolled back. A statement's head
 * (a button) opens it in the timeline. A run the checker refused shows why instead, so the
 * previous run's cards are never mistaken for this one's.
 */
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { STAGE_OF, type Op } from '../../src/language/ops.js';
import { clear, h } from './dom.js';
import { compareRuns, describeRun, type RunRecord } from './history.js';
import { changeList, diffBadges, diffTable, rowsTable } from './tables.js';

export interface ResultsView {
  /** The run shown (undefined: none yet for this script). */
  readonly record?: RunRecord;
  /** The script's runs, oldest first. */
  readonly history: readonly RunRecord[];
  /** Set when the last Run was refused by the checker: its errors. */
  readonly refused?: readonly Diagnostic[];
  /** An earlier (or later) run whose memory table the shown run's is compared with. */
  readonly compareWith?: RunRecord;
}

export interface ResultsActions {
  open(statement: number): void;
  /** Shows an earlier run of the script. */
  showRun(n: number): void;
  /** Compares the shown run's memory table with run `n`'s (undefined: stop comparing). */
  compare(n: number | undefined): void;
}

/** Export (and its CSV writer) loads on first use. */
async function exportRun(name: string, format: 'csv' | 'json', record: RunRecord): Promise<void> {
  const m = await import('./export.js');
  if (format === 'csv') m.exportTable(name, 'csv', m.resultRecords(record.results));
  else m.exportTable(name, 'json', [], m.resultsJson(record.results));
}

function historyBar(view: ResultsView, actions: ResultsActions): HTMLElement | null {
  const { record, history } = view;
  if (!record) return null;
  const select = h('select', {
    'aria-label': 'Run history of this script', 'data-testid': 'history',
    onchange: () => actions.showRun(Number(select.value)),
  }, ...[...history].reverse().map((r) => h('option', { value: String(r.n) }, describeRun(r))));
  select.value = String(record.n);
  const others = history.filter((r) => r.n !== record.n);
  const compare = others.length ? h('select', {
    'aria-label': 'Compare this run\'s memory with another run\'s', 'data-testid': 'compare-run',
    title: 'Compare the memory table after this run with the one after another run',
    onchange: () => actions.compare(compare!.value ? Number(compare!.value) : undefined),
  }, h('option', { value: '' }, 'compare memory with…'), ...[...others].reverse().map((r) => h('option', { value: String(r.n) }, `run ${r.n}${r.part ? ` (${r.part})` : ''}`))) : null;
  if (compare) compare.value = view.compareWith && view.compareWith.n !== record.n ? String(view.compareWith.n) : '';
  const latest = history[history.length - 1];
  const name = `t2m-run-${record.n}`;
  return h('div', { class: 'pane-bar', 'data-testid': 'run-bar' },
    select,
    compare,
    latest && latest.n !== record.n ? h('span', { class: 'badge earlier', 'data-testid': 'earlier-run' }, `an earlier run (latest: ${latest.n})`) : null,
    h('span', { class: 'spacer' }),
    h('button', { 'data-testid': 'export-results-csv', title: 'Download one line per statement as CSV', onclick: () => void exportRun(name, 'csv', record) }, 'CSV'),
    h('button', { 'data-testid': 'export-results-json', title: 'Download the statements with their rows and SQL as JSON', onclick: () => void exportRun(name, 'json', record) }, 'JSON'));
}

export function renderResults(pane: HTMLElement, view: ResultsView, actions: ResultsActions): void {
  const bar = historyBar(view, actions);
  const refused = view.refused
    ? h('div', { class: 'refused', role: 'alert', 'data-testid': 'not-run' },
      h('b', {}, 'Not run: '),
      `the script has ${view.refused.length} error${view.refused.length === 1 ? '' : 's'}; nothing was changed. Fix ${view.refused.length === 1 ? 'it' : 'them'} and run again.`,
      h('ul', {}, ...view.refused.slice(0, 5).map((d) => h('li', {}, `${d.range ? `${d.range.start.line}:${d.range.start.column} ` : ''}${d.code}: ${d.message}`))),
      view.record ? h('div', { class: 'pane-note' }, 'The previous run is in the history above.') : null)
    : null;
  if (refused) {
    // The last run's cards stay out of sight: only the history keeps them.
    clear(pane, bar, refused);
    return;
  }
  const record = view.record;
  if (!record) {
    clear(pane, h('div', { class: 'pane-note' }, 'Press Run (Ctrl/Cmd-Enter) to execute the script against its store.'));
    return;
  }
  const { results, committed } = record;
  const comparison = view.compareWith && view.compareWith.n !== record.n ? compareSection(view.compareWith, record) : null;
  const restored = record.restored
    ? h('div', { class: 'pane-note', 'data-testid': 'restored-run' }, 'Restored from an earlier visit: its results and memory are kept, not the memory after each statement (run again to step through it in the timeline).')
    : null;
  const failed = results.find((r) => !r.ok);
  const note = committed ? null
    : h('div', { class: 'pane-note error', 'data-testid': 'rollback-note' },
      failed
        ? `Statement ${failed.statement + 1} (${failed.op}) was refused: ${failed.errors.map((e) => e.message).join('; ')}. A run is one transaction, so nothing was committed: memory is as it was before the run. The statements before it show what they would have done.`
        : 'A statement failed, so the script was rolled back: memory is as it was before the run.');
  clear(pane, bar, comparison, restored, note, ...results.map((r) => {
    const body = h('div', { class: 'body' },
      // Reads report the ids they matched as rows; "affected" is for what a write changed.
      r.affectedIds.length && STAGE_OF[r.op as Op] !== 'RET' ? h('div', {}, 'affected ids: ', h('span', { class: 'mono' }, r.affectedIds.join(', '))) : null,
      ...r.warnings.map((w) => h('div', { class: 'warn' }, `⚠ ${w}`)),
      ...r.errors.map((e) => h('div', { class: 'err' }, `✖ ${e.code}: ${e.message}`)),
      r.summary ? h('div', { class: 'summary' }, h('b', {}, 'Summary: '), r.summary) : null,
      r.rows.length ? rowsTable(r.rows) : null);
    return h('div', { class: `result${r.ok ? '' : ' error'}`, 'data-statement': String(r.statement) },
      h('button', { class: 'head', type: 'button', title: 'Open this statement in the timeline', onclick: () => actions.open(r.statement) },
        h('span', { class: 'op' }, `${r.statement + 1}. ${r.op}`),
        diffBadges(r.diff),
        r.rows.length ? h('span', { class: 'badge' }, `${r.rows.length} row${r.rows.length === 1 ? '' : 's'}`) : null),
      body);
  }));
}

/** The memory table after run `from` → after run `to`: what differs, row by row. */
function compareSection(from: RunRecord, to: RunRecord): HTMLElement {
  const d = compareRuns(from, to);
  const same = !d.diff.added.length && !d.diff.removed.length && !d.diff.changed.length;
  return h('section', { class: 'run-compare', 'data-testid': 'run-compare', 'aria-label': `Memory: run ${from.n} → run ${to.n}` },
    h('div', { class: 'head' }, h('b', {}, `Memory: run ${from.n} → run ${to.n}`), ' ', diffBadges(d.diff)),
    same ? h('div', { class: 'pane-note' }, 'The two runs left the same memory table.') : changeList(d.diff),
    same ? null : diffTable(d));
}
