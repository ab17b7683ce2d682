/**
 * The SQL pane: the SQL of the last run with its parameters, and, while the script is edited,
 * the plan of the current script against the current store (the engine's `explain`, which runs
 * and rolls back), until the next run. The text goes into the read-only SQL editor.
 */
import { debouncer, h } from './dom.js';
import type { EditorHost } from './editor-host.js';
import { analyze, type PlaygroundStore } from './library.js';
import type { StatementView } from './run.js';
import { sqlListing } from './sql-listing.js';

/** A plan runs the script (then rolls back) on the main thread; beyond this size, wait for Run. */
const MAX_LIVE_PLAN_STATEMENTS = 200;
const PLAN_DEBOUNCE_MS = 300;

/** What a plan is made of, read when it is made. */
export interface PlanSource {
  store(): PlaygroundStore;
  scriptText(): string;
  now(): Date;
}

export class SqlPane {
  readonly note = h('div', { class: 'pane-note' }, 'SQL of the last run; values are bound parameters (shown after each statement).');
  private readonly later = debouncer(PLAN_DEBOUNCE_MS);

  constructor(private readonly editors: EditorHost, private readonly source: PlanSource) {}

  /** The SQL of a run, with its parameters. */
  showRun(results: readonly StatementView[]): void {
    this.editors.setSqlText(sqlListing('executed by the last run', results.map((r) => ({ op: r.op, sql: r.sql }))));
  }

  /** Shows the plan of the current script shortly (the last call in a burst wins). */
  planSoon(): void {
    this.later(() => this.showPlan());
  }

  private showPlan(): void {
    const { irs, sourceMaps, diagnostics } = analyze(this.source.scriptText());
    if (diagnostics.some((d) => d.severity === 'error') || irs.length === 0) return;
    if (irs.length > MAX_LIVE_PLAN_STATEMENTS) return;
    const { plans, errors } = this.source.store().explain(irs, sourceMaps, this.source.now());
    const header = errors.length ? `plan (not run): statement ${(errors[0].statement ?? 0) + 1} would fail: ${errors[0].message}` : 'plan of the script (not run yet)';
    this.editors.setSqlText(sqlListing(header, plans.map((sql, i) => ({ op: irs[i].op, sql }))));
  }
}
