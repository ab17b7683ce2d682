/**
 * The shared benchmark (fixtures/upstream/benchmark) in one process, timed in CPU and wall time
 * (on a loaded machine the CPU time is the figure to compare), after the imports, on native
 * SQLite in memory as `t2m bench` runs it (`--sqljs`: on sql.js, as the browser and
 * `t2m bench --db :memory:` run it). `--rounds N` runs it N times in the one process: the later
 * rounds run on warm code (V8's compiled and optimised functions, its inline caches), so the
 * first round's excess over them is what a run spends warming up:
 *   npx tsx perf/bench-cpu.ts [file] [--sqljs] [--rounds N]
 */
import { readFileSync } from 'node:fs';
import { parseSamples, runBenchmark } from '../src/conformance/index.js';
import { openMemoryStore } from '../src/dialect/sqlite/native.js';

const args = process.argv.slice(2);
const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 1;
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds') ?? 'fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl';
const { samples } = parseSamples(readFileSync(file, 'utf8'));
for (let round = 1; round <= rounds; round++) {
  const start = process.cpuUsage();
  const t0 = performance.now();
  const report = await runBenchmark(samples, args.includes('--sqljs') ? {} : { store: openMemoryStore() });
  const cpu = process.cpuUsage(start);
  console.log(`${rounds > 1 ? `round ${round}: ` : ''}${samples.length} samples: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU, ${((performance.now() - t0) / 1000).toFixed(2)} s wall; assertions ${report.assertions.passed}/${report.assertions.total}, ranking ${report.ranking.passed}/${report.ranking.total}`);
}
