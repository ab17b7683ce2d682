/**
 * One run of a script, as the page shows it: analyses the text, runs it on the store in one
 * engine call (`memory` snapshotted after each statement by the run's hook) and turns the
 * engine's answer into `StatementView`s with their diffs. No DOM.
 */
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { diffRows, type Row, type RowDiff } from '../../src/services/timeline.js';
import { analyze, type PlaygroundStore } from './library.js';

/** One executed statement as the page shows it and `window.t2m.state()` reports it. */
export interface StatementView {
  readonly statement: number;
  readonly op: string;
  readonly source: string;
  readonly ok: boolean;
  readonly affectedIds: readonly string[];
  readonly rows: readonly Row[];
  readonly warnings: readonly string[];
  readonly errors: readonly Diagnostic[];
  readonly summary?: string;
  readonly sql: readonly { sql: string; params: readonly unknown[] }[];
  readonly before: readonly Row[];
  readonly after: readonly Row[];
  readonly diff: RowDiff;
}

export interface RunOutcome {
  readonly results: StatementView[];
  /** False: a statement failed (the last in `results`) and everything was rolled back. */
  readonly committed: boolean;
}

/** Runs `text`, which the caller has checked has no errors (`analyze` is memoised, so this reuses that analysis). */
export function runScript(store: PlaygroundStore, text: string, now: Date): RunOutcome {
  const { irs, sourceMaps } = analyze(text);
  const outcome = store.runScript(irs, sourceMaps, now);
  const results: StatementView[] = outcome.statements.map(({ statement: i, run, before, after }) => {
    const span = sourceMaps[i]?.get('');
    return {
      statement: i,
      op: irs[i].op,
      source: span ? text.slice(span.start.offset, span.end.offset) : '',
      ok: run.errors.length === 0,
      affectedIds: run.affectedIds,
      rows: run.rows,
      warnings: run.warnings,
      errors: run.errors,
      summary: run.summary,
      sql: run.sql,
      before,
      after,
      diff: diffRows(before, after),
    };
  });
  return { results, committed: outcome.committed };
}
