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
  /** The run shown was restored after a reload: its memory snapshots were not kept. */
  restored(): boolean;
}

export class TimelinePane {
  /** The selected statement, by its index in the script (a run of part of it has only some; the first is shown when it is not among them). */
  step = 0;

  constructor(private readonly pane: HTMLElement, private readonly source: TimelineSource) {}

  /** Shows statement `step`; `focus`: keep the keyboard in the list (after a click or an arrow key). */
  go(step: number, focus = false): void {
    this.step = step;
    this.render();
    const active = this.pane.querySelector<HTMLElement>('.timeline-list .active');
    active?.scrollIntoView({ block: 'nearest' });
    if (focus) active?.focus();
  }

  render(): void {
    const results = this.source.results();
    if (results.length === 0) {
      this.source.highlight(undefined);
      clear(this.pane, h('div', { class: 'pane-note' }, 'Run the script to step through what each statement did to memory.'));
      return;
    }
    const found = results.findIndex((s) => s.statement === this.step);
    const pos = found >= 0 ? found : this.step >= results.length ? results.length - 1 : 0;
    const r = results[pos];
    this.step = r.statement;
    const at = (p: number) => results[Math.max(0, Math.min(results.length - 1, p))].statement;
    // A compact list that scrolls on its own (a few lines high, however many statements ran), so
    // the statement's diff below stays in view; arrow keys move through it (roving tabindex).
    const list = h('div', { class: 'timeline-list', role: 'listbox', 'aria-label': 'Statements of the run', 'data-testid': 'timeline-list' },
      ...results.map((s) => h('button', {
        type: 'button', role: 'option', class: s.statement === this.step ? 'active' : undefined, 'data-step': String(s.statement),
        'aria-selected': s.statement === this.step ? 'true' : 'false', tabindex: s.statement === this.step ? 0 : -1,
        title: s.source, onclick: () => this.go(s.statement, true),
      }, h('span', { class: 'n' }, String(s.statement + 1)), ` ${s.op}${s.ok ? '' : ' ✖'} `, h('span', { class: 'src' }, s.source.replace(/\s+/g, ' ')))));
    list.addEventListener('keydown', (e) => {
      const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10, Home: -Infinity, End: Infinity };
      const by = moves[e.key];
      if (by === undefined) return;
      e.preventDefault();
      this.go(at(pos + (Number.isFinite(by) ? by : by > 0 ? results.length : -results.length)), true);
    });
    const steps = h('div', { class: 'timeline-steps' },
      h('button', { title: 'Previous statement', 'aria-label': 'Previous statement', disabled: pos === 0, onclick: () => this.go(at(pos - 1)) }, '◀'),
      h('span', { class: 'timeline-pos', 'data-testid': 'timeline-pos' }, results.every((s, i) => s.statement === i)
        ? `statement ${r.statement + 1} of ${results.length}`
        : `statement ${r.statement + 1} (${pos + 1} of ${results.length} run)`),
      h('button', { title: 'Next statement', 'aria-label': 'Next statement', disabled: pos === results.length - 1, onclick: () => this.go(at(pos + 1)) }, '▶'));
    if (this.source.restored()) {
      clear(this.pane, steps, list,
        h('div', { class: 'timeline-statement' }, r.source),
        h('div', { class: 'pane-note', 'data-testid': 'timeline-restored' }, 'This run was restored after a reload: the memory after each statement is not kept. Run the script again to step through it.'));
      const span = this.source.span(this.step);
      if (span) this.source.highlight(span);
      return;
    }
    clear(this.pane, steps, list,
      h('div', { class: 'timeline-statement' }, r.source),
      h('div', {}, diffBadges(r.diff), r.errors.length ? h('span', { class: 'err' }, ` ✖ ${r.errors.map((e) => e.message).join('; ')}`) : null),
      changeList(r.diff),
      diffTable(r));
    const span = this.source.span(this.step);
    if (span) this.source.highlight(span);
  }
}
