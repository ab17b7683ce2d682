/** The problems list under the editor: every diagnostic of the last analysis and run; a click selects its range. */
import type { Diagnostic, Range } from '../../src/diagnostics/diagnostic.js';
import { clear, h } from './dom.js';

export function renderProblems(el: HTMLElement, all: readonly Diagnostic[], reveal: (range: Range) => void): void {
  if (all.length === 0) {
    clear(el, h('div', { class: 'ok' }, 'No problems.'));
    return;
  }
  clear(el, ...all.map((d) => h('div', {
    class: d.severity, 'data-code': d.code,
    onclick: () => { if (d.range) reveal(d.range); },
  }, `${d.range ? `${d.range.start.line}:${d.range.start.column} ` : ''}${d.severity} ${d.code}: ${d.message}`)));
}
