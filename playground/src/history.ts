/**
 * Run history: each script's recent runs (when, on which store, how many rows it left, whether
 * it committed, its statement views and the memory table after it), so an earlier run's results
 * can be opened again and two runs' memory tables compared. Kept across reloads in IndexedDB
 * (`persist.ts`), without the per-statement memory snapshots the timeline steps through (too big
 * to save on every run): a run restored after a reload shows its results, its memory and its
 * diffs, and says that its timeline needs a new run.
 */
import { deleteValue, KEYS, loadValue, saveValue } from './persist.js';
import type { StatementView } from './run.js';
import { diffRows, type Row } from '../../src/services/timeline.js';

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
  /** The memory table after the run (as it was before it, when the run was rolled back). */
  readonly memory: readonly Row[];
  /** Restored after a reload: its statements' memory snapshots were not kept. */
  readonly restored?: boolean;
}

/** Runs kept per script; older ones are dropped. */
const KEPT = 20;

/** A record as saved: the statement views without their memory snapshots. */
function saved(record: RunRecord): RunRecord {
  return {
    ...record,
    // Diagnostics' ranges compute their line and column when read: saved as the plain JSON they print.
    results: record.results.map((r) => ({ ...r, before: [], after: [], errors: JSON.parse(JSON.stringify(r.errors)) as StatementView['errors'] })),
  };
}

export class RunHistory {
  private readonly byScript = new Map<string, RunRecord[]>();
  /** The last save of a history to IndexedDB (settles when it is written or failed). */
  saved: Promise<void> = Promise.resolve();

  add(scriptId: string, record: Omit<RunRecord, 'n'>): RunRecord {
    const list = this.byScript.get(scriptId) ?? [];
    const full = { ...record, n: (list[list.length - 1]?.n ?? 0) + 1 };
    list.push(full);
    if (list.length > KEPT) list.shift();
    this.byScript.set(scriptId, list);
    this.saved = this.save(scriptId);
    return full;
  }

  /** The script's runs, oldest first. */
  list(scriptId: string): readonly RunRecord[] {
    return this.byScript.get(scriptId) ?? [];
  }

  forget(scriptId: string): void {
    this.byScript.delete(scriptId);
    void deleteValue(KEYS.history(scriptId)).catch(() => undefined);
  }

  /** Loads the saved histories of these scripts (a reload finds their runs again). */
  async restore(scriptIds: readonly string[]): Promise<void> {
    await Promise.all(scriptIds.map(async (id) => {
      const list = await loadValue<RunRecord[]>(KEYS.history(id)).catch(() => undefined);
      if (Array.isArray(list) && list.length && !this.byScript.has(id)) {
        this.byScript.set(id, list.map((r) => ({ ...r, restored: true, memory: r.memory ?? [] })));
      }
    }));
  }

  private async save(scriptId: string): Promise<void> {
    const list = this.byScript.get(scriptId) ?? [];
    // Storage full or blocked: the history still lives for the session.
    await saveValue(KEYS.history(scriptId), list.map(saved)).catch(() => undefined);
  }
}

export function describeRun(r: RunRecord): string {
  const time = r.at.toTimeString().slice(0, 8);
  return `run ${r.n} · ${time} · ${r.part ? `${r.part} only` : `${r.results.length} statement${r.results.length === 1 ? '' : 's'}`} · ${r.committed ? 'committed' : 'rolled back'} · ${r.store}, ${r.rows} row${r.rows === 1 ? '' : 's'}`;
}

/** Memory after run `from` → memory after run `to`, compared by id. */
export function compareRuns(from: RunRecord, to: RunRecord) {
  return { before: from.memory, after: to.memory, diff: diffRows(from.memory, to.memory) };
}
