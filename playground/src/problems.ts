/**
 * The problems list under the editor: every diagnostic of the last analysis and run; a click, or
 * Enter/Space on a focused row (each is a button in the Tab order), selects its range.
 */
import type { Diagnostic, Range } from '../../src/diagnostics/diagnostic.js';
import { clear, h } from './dom.js';

export function renderProblems(el: HTMLElement, all: readonly Diagnostic[], reveal: (range: Range) => void): void {
  if (all.length === 0) {
    clear(el, h('div', { class: 'ok' }, 'No problems.'));
    return;
  }
  clear(el, ...all.map((d) => h('div', {
    class: d.severity, 'data-code': d.code, role: 'button', tabindex: 0,
    onclick: () => { if (d.range) reveal(d.range); },
    onkeydown: (e: Event) => {
      const key = (e as KeyboardEvent).key;
      if ((key === 'Enter' || key === ' ') && d.range) { e.preventDefault(); reveal(d.range); }
    },
  }, `${d.range ? `${d.range.start.line}:${d.range.start.column} ` : ''}${d.severity} ${d.code}: ${d.message}`)));
}
