/**
 * The engine at 10k records (perf/suites/engine-workload.ts) against the same SQL run directly on
 * the same driver: on sql.js in memory (the browser's engine) and on a store file (better-sqlite3,
 * WAL, in a temporary directory). Issue 14's target: within x1.3 of the raw SQL at 10k.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engineWorkload } from './engine-workload.js';
import { project, sizes, SIZED, type Figures, type Suite } from './suite.js';

const suite: Suite = {
  rounds: 3,
  ...SIZED,
  async round(root, flags) {
    const t2m = await project(root);
    const dir = mkdtempSync(join(tmpdir(), 't2m-perf-engine-'));
    try {
      const memory = async () => {
        const store = await t2m.createStore();
        return { store, remove: () => store.close() };
      };
      const file = (size: number) => async (name: string) => {
        const opened = t2m.openStoreFile(join(dir, `${size}-${name}.db`));
        if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
        return { store: opened.store, remove: () => opened.store.close() };
      };
      // Warm-up (JIT, wasm) so that the first figure is not charged for it.
      await engineWorkload(t2m, memory, 500, 'warm-up');
      await engineWorkload(t2m, file(500), 500, 'warm-up');
      const figures: Figures = {};
      for (const size of sizes(flags, [10_000])) {
        Object.assign(figures, await engineWorkload(t2m, memory, size, 'sql.js'));
        Object.assign(figures, await engineWorkload(t2m, file(size), size, 'file'));
      }
      return figures;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  notes: `"x SQL" = pipeline time / the same compiled SQL run directly on the same driver (prepared statements, same transactions, same data);
"x row SQL" = encode's time / the same records and audit entries written one row at a time. Target at 10k (issue 14): within x1.3.`,
};
export default suite;
