/**
 * Run history: each script's recent runs (when, on which store, how many rows it left, whether
 * it committed, and its statement views), so an earlier run's results can be opened again.
 * Kept for the session only: the views hold memory snapshots, too big to save on every run.
 */
import type { StatementView } from './run.js';

export interface RunRecord {
  /** 1, 2, … per script. */
  readonly n: number;
  readonly at: Date;
  /** The store it ran on, as the store bar names it. */
  readonly store: string;
  /** Rows in `memory` after the run. */
  readonly rows: number;
  readonly committed: boolean;
  /** A run of part of the script (Run selection / statement at cursor): which statements, e.g. "statements 2–3". */
  readonly part?: string;
  readonly results: readonly StatementView[];
}

/** Runs kept per script; older ones are dropped. */
const KEPT = 20;

export class RunHistory {
  private readonly byScript = new Map<string, RunRecord[]>();

  add(scriptId: string, record: Omit<RunRecord, 'n'>): RunRecord {
    const list = this.byScript.get(scriptId) ?? [];
    const full = { ...record, n: (list[list.length - 1]?.n ?? 0) + 1 };
    list.push(full);
    if (list.length > KEPT) list.shift();
    this.byScript.set(scriptId, list);
    return full;
  }

  /** The script's runs, oldest first. */
  list(scriptId: string): readonly RunRecord[] {
    return this.byScript.get(scriptId) ?? [];
  }

  forget(scriptId: string): void {
    this.byScript.delete(scriptId);
  }
}

export function describeRun(r: RunRecord): string {
  const time = r.at.toTimeString().slice(0, 8);
  return `run ${r.n} · ${time} · ${r.part ? `${r.part} only` : `${r.results.length} statement${r.results.length === 1 ? '' : 's'}`} · ${r.committed ? 'committed' : 'rolled back'} · ${r.store}, ${r.rows} row${r.rows === 1 ? '' : 's'}`;
}
