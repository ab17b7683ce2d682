/**
 * The shared benchmark (fixtures/upstream/benchmark) in one process, timed in CPU and wall time
 * (on a loaded machine the CPU time is the figure to compare), after a warm-up pass:
 *   npx tsx perf/bench-cpu.ts [file]
 */
import { readFileSync } from 'node:fs';
import { parseSamples, runBenchmark } from '../src/conformance/index.js';

const file = process.argv[2] ?? 'fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl';
const { samples } = parseSamples(readFileSync(file, 'utf8'));
const start = process.cpuUsage();
const t0 = performance.now();
const report = await runBenchmark(samples);
const cpu = process.cpuUsage(start);
console.log(`${samples.length} samples: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU, ${((performance.now() - t0) / 1000).toFixed(2)} s wall`, JSON.stringify(report).length > 0 ? '' : '');
