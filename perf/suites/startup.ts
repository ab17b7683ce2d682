/**
 * Cold start of the built CLI: `node dist/cli/t2m.js check one-line.t2m` against `node -e 0`,
 * alternating the two (after two warm-ups that fill the file cache and, on a fresh build, write
 * the code cache); the median of a few pairs per round. The budget: the ratio at most x4.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, type Suite } from './suite.js';

const PAIRS = 5;

const suite: Suite = {
  rounds: 7,
  flags: [],
  needsBuild: true,
  async round(root) {
    const dir = mkdtempSync(join(tmpdir(), 't2m-perf-startup-'));
    try {
      const script = join(dir, 'one-line.t2m');
      writeFileSync(script, 'PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9;\n');
      const time = (argv: string[]) => {
        const t0 = performance.now();
        const r = spawnSync(process.execPath, argv, { encoding: 'utf8' });
        const ms = performance.now() - t0;
        if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
        return ms;
      };
      const check = [join(root, 'dist/cli/t2m.js'), 'check', script];
      const baseline = ['-e', '0'];
      for (let i = 0; i < 2; i++) time(check), time(baseline);
      const a: number[] = [];
      const b: number[] = [];
      const ratios: number[] = [];
      for (let i = 0; i < PAIRS; i++) {
        a.push(time(check));
        b.push(time(baseline));
        ratios.push(a[i] / b[i]);
      }
      return { 't2m check ms': median(a), 'node -e 0 ms': median(b), 'ratio t2m / node': median(ratios) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  notes: 'Budget: t2m check on one line at most x4 of node -e 0.',
};
export default suite;
