/**
 * The Results pane: per statement of the last run, its affected ids, warnings, errors, summary
 * and returned rows, and a note when the run was rolled back. A statement's head opens it in the
 * timeline.
 */
import { clear, h } from './dom.js';
import type { StatementView } from './run.js';
import { diffBadges, rowsTable } from './tables.js';

export function renderResults(pane: HTMLElement, results: readonly StatementView[], committed: boolean, open: (statement: number) => void): void {
  if (results.length === 0) {
    clear(pane, h('div', { class: 'pane-note' }, 'Press Run (Ctrl/Cmd-Enter) to execute the script against the in-browser store.'));
    return;
  }
  const failed = results.find((r) => !r.ok);
  const note = committed ? null
    : h('div', { class: 'pane-note error', 'data-testid': 'rollback-note' },
      failed
        ? `Statement ${failed.statement + 1} (${failed.op}) was refused: ${failed.errors.map((e) => e.message).join('; ')}. A run is one transaction, so nothing was committed: memory is as it was before the run. The statements before it show what they would have done.`
        : 'A statement failed, so the script was rolled back: memory is as it was before the run.');
  clear(pane, note, ...results.map((r) => {
    const body = h('div', { class: 'body' },
      r.affectedIds.length ? h('div', {}, 'affected ids: ', h('span', { class: 'mono' }, r.affectedIds.join(', '))) : null,
      ...r.warnings.map((w) => h('div', { class: 'warn' }, `⚠ ${w}`)),
      ...r.errors.map((e) => h('div', { class: 'err' }, `✖ ${e.code}: ${e.message}`)),
      r.summary ? h('div', { class: 'summary' }, h('b', {}, 'Summary: '), r.summary) : null,
      r.rows.length ? rowsTable(r.rows) : null);
    return h('div', { class: `result${r.ok ? '' : ' error'}`, 'data-statement': String(r.statement) },
      h('div', { class: 'head', onclick: () => open(r.statement) },
        h('span', { class: 'op' }, `${r.statement + 1}. ${r.op}`),
        diffBadges(r.diff),
        r.rows.length ? h('span', { class: 'badge' }, `${r.rows.length} row${r.rows.length === 1 ? '' : 's'}`) : null),
      body);
  }));
}
