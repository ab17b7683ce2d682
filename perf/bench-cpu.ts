/**
 * The shared benchmark (fixtures/upstream/benchmark) in one process, timed in CPU and wall time
 * (on a loaded machine the CPU time is the figure to compare), after the imports, on native
 * SQLite in memory as `t2m bench` runs it (`--sqljs`: on sql.js, as the browser and
 * `t2m bench --db :memory:` run it):
 *   npx tsx perf/bench-cpu.ts [file] [--sqljs]
 */
import { readFileSync } from 'node:fs';
import { parseSamples, runBenchmark } from '../src/conformance/index.js';
import { openMemoryStore } from '../src/node/sqlite-file.js';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? 'fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl';
const { samples } = parseSamples(readFileSync(file, 'utf8'));
const start = process.cpuUsage();
const t0 = performance.now();
const report = await runBenchmark(samples, args.includes('--sqljs') ? {} : { store: openMemoryStore() });
const cpu = process.cpuUsage(start);
console.log(`${samples.length} samples: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU, ${((performance.now() - t0) / 1000).toFixed(2)} s wall; assertions ${report.assertions.passed}/${report.assertions.total}, ranking ${report.ranking.passed}/${report.ranking.total}`);
