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

/**
 * Runs `text`, which the caller has checked has no errors (`analyze` is memoised, so this reuses
 * that analysis); `only`: just these statements (consecutive indexes into the script, as
 * `statementsAt` gives them), in one engine call as a script of their own, each view and each
 * record's provenance keeping the statement's index in the whole script.
 */
export function runScript(store: PlaygroundStore, text: string, now: Date, only?: readonly number[]): RunOutcome {
  const analysis = analyze(text);
  const { irs, sourceMaps } = analysis;
  const picked = only ?? irs.map((_, i) => i);
  const outcome = store.runScript(picked.map((i) => irs[i]), picked.map((i) => sourceMaps[i]), now, picked[0] ?? 0);
  const results: StatementView[] = outcome.statements.map(({ statement: k, run, before, after }) => {
    const i = picked[k] ?? k;
    const span = sourceMaps[i]?.get('');
    return {
      statement: i,
      op: irs[i].op,
      source: span ? text.slice(span.start.offset, span.end.offset) : '',
      ok: run.errors.length === 0,
      affectedIds: run.affectedIds,
      rows: run.rows,
      warnings: run.warnings,
      errors: run.errors.map((d) => (d.statement === undefined ? d : { ...d, statement: picked[d.statement] ?? d.statement })),
      summary: run.summary,
      sql: run.sql,
      before,
      after,
      diff: diffRows(before, after),
    };
  });
  return { results, committed: outcome.committed };
}

/**
 * The statements a Run-part runs: those the selection touches, or (an empty selection) the one
 * the cursor is in, else the one ending before it on its line. Indexes into `analyze(text)`.
 */
export function statementsAt(text: string, start: number, end: number): number[] {
  const { sourceMaps } = analyze(text);
  const spans = sourceMaps.map((m) => m.get(''));
  const picked: number[] = [];
  spans.forEach((s, i) => {
    if (!s) return;
    const a = s.start.offset;
    const b = s.end.offset;
    if (start < end ? a < end && b > start : a <= start && start <= b) picked.push(i);
  });
  if (picked.length || start < end) return picked;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = spans.findLastIndex((s) => !!s && s.end.offset <= start && s.end.offset >= lineStart);
  return before >= 0 ? [before] : [];
}
