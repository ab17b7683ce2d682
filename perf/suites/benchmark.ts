/**
 * The shared benchmark (fixtures/upstream/benchmark) through the built CLI, as a user runs it:
 * `node dist/cli/t2m.js bench <samples>` as a whole process (start-up, code cache, every sample on
 * a fresh native in-memory store), its wall time and its CPU time (user + system, from the shell's
 * `times`; on a loaded machine the CPU time is the figure to compare).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BENCHMARK, type Suite } from './suite.js';

const suite: Suite = {
  rounds: 5,
  flags: [],
  needsBuild: true,
  async round(root) {
    const cli = join(root, 'dist/cli/t2m.js');
    // bash's `times` prints the CPU time of the finished children: its second line, user then system.
    const script = '"$@" > /dev/null; status=$?; times; exit $status';
    const t0 = performance.now();
    const r = spawnSync('bash', ['-c', script, 'bench', process.execPath, cli, 'bench', BENCHMARK], { encoding: 'utf8' });
    const wall = performance.now() - t0;
    if (r.status !== 0) throw new Error(`t2m bench exited ${r.status}: ${r.stderr.slice(-2000)}`);
    const children = r.stdout.trim().split('\n').at(-1)!.match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
    if (!children) throw new Error(`no CPU times in ${JSON.stringify(r.stdout.slice(-200))}`);
    const cpu = (Number(children[1]) * 60 + Number(children[2]) + Number(children[3]) * 60 + Number(children[4])) * 1000;
    return { 't2m bench wall ms': wall, 't2m bench CPU ms': cpu };
  },
};
export default suite;
