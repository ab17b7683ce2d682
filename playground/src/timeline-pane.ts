/**
 * The Timeline pane: steps through the statements of the last run, showing memory after the
 * selected one with what it changed marked, and asks the page to mark that statement in the script.
 */
import type { Range } from '../../src/diagnostics/diagnostic.js';
import { clear, h } from './dom.js';
import type { StatementView } from './run.js';
import { changeList, diffBadges, diffTable } from './tables.js';

export interface TimelineSource {
  /** The statements of the last run. */
  results(): readonly StatementView[];
  /** The span of statement `n` in the script, if it can be found. */
  span(statement: number): Range | undefined;
  /** Marks a span in the script; `undefined` clears the mark. */
  highlight(span: Range | undefined): void;
}

export class TimelinePane {
  /** The selected statement (clamped to the run's statements when rendered). */
  step = 0;

  constructor(private readonly pane: HTMLElement, private readonly source: TimelineSource) {}

  go(step: number): void {
    this.step = step;
    this.render();
  }

  render(): void {
    const results = this.source.results();
    if (results.length === 0) {
      this.source.highlight(undefined);
      clear(this.pane, h('div', { class: 'pane-note' }, 'Run the script to step through what each statement did to memory.'));
      return;
    }
    this.step = Math.max(0, Math.min(this.step, results.length - 1));
    const r = results[this.step];
    const steps = h('div', { class: 'timeline-steps' },
      h('button', { title: 'Previous statement', disabled: this.step === 0, onclick: () => this.go(this.step - 1) }, '◀'),
      ...results.map((s) => h('button', {
        class: s.statement === this.step ? 'active' : undefined, 'data-step': String(s.statement),
        title: s.source, onclick: () => this.go(s.statement),
      }, `${s.statement + 1}. ${s.op}${s.ok ? '' : ' ✖'}`)),
      h('button', { title: 'Next statement', disabled: this.step === results.length - 1, onclick: () => this.go(this.step + 1) }, '▶'));
    clear(this.pane, steps,
      h('div', { class: 'timeline-statement' }, r.source),
      h('div', {}, diffBadges(r.diff), r.errors.length ? h('span', { class: 'err' }, ` ✖ ${r.errors.map((e) => e.message).join('; ')}`) : null),
      changeList(r.diff),
      diffTable(r));
    const span = this.source.span(this.step);
    if (span) this.source.highlight(span);
  }
}
