/**
 * The shared benchmark (fixtures/upstream/benchmark) in one process, timed in CPU and wall time
 * after the imports (on a loaded machine the CPU time is the figure to compare); `--threads n`
 * spreads the samples over n threads as `t2m bench` does (src/node/bench-pool.ts; default 1):
 *   npx tsx perf/bench-cpu.ts [file] [--threads n]
 */
import { readFileSync } from 'node:fs';
import { parseSamples, runBenchmark } from '../src/conformance/index.js';
import { runBenchmarkThreads } from '../src/node/bench-pool.js';

const args = process.argv.slice(2);
const threads = args.includes('--threads') ? Number(args[args.indexOf('--threads') + 1]) : 1;
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--threads') ?? 'fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl';
const { samples } = parseSamples(readFileSync(file, 'utf8'));
const start = process.cpuUsage();
const t0 = performance.now();
const report = threads > 1 ? await runBenchmarkThreads(samples, { threads }) : await runBenchmark(samples);
const cpu = process.cpuUsage(start);
console.log(`${samples.length} samples on ${threads} thread(s): ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU, ${((performance.now() - t0) / 1000).toFixed(2)} s wall; assertions ${report.assertions.passed}/${report.assertions.total}, ranking ${report.ranking.passed}/${report.ranking.total}`);
