/**
 * Front-end throughput, printed as figures (not asserted): statements per second for
 *   - DSL: parse → astToIr → validateIr → check, over every upstream IR (`fixtures/upstream/`) printed as one script;
 *   - JSON: JSON.parse → zod validation (validateIr), and the same plus check, over the same IRs;
 * and their ratio. Then a smoke test of the CLI: `t2m convert --jsonl` over every benchmark IR,
 * there and back, timed, counting lines that fail and lines that do not round-trip.
 *
 * Run: npm run perf:parse [-- --iterations 5]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { check } from '../src/check/index.js';
import { hasErrors } from '../src/diagnostics/diagnostic.js';
import type { IR } from '../src/ir/schema.js';
import { validateIr } from '../src/ir/validate.js';
import { irsToText, textToIr } from '../src/pipeline.js';
import { parse } from '../src/syntax/index.js';
import { benchmarkSamples, corpusIrs } from '../test/ir-corpus.js';

const ROOT = resolve(import.meta.dirname, '..');
const argIndex = process.argv.indexOf('--iterations');
const ITERATIONS = argIndex > 0 ? Number(process.argv[argIndex + 1]) : 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median wall time (ms) of `fn` over ITERATIONS runs, after one warm-up run. */
function time(fn: () => void): number {
  fn();
  const runs: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    fn();
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const irs: IR[] = corpusIrs().map(({ where, ir }) => {
  const v = validateIr(ir);
  if (!v.ir) throw new Error(`corpus IR does not validate: ${where}`);
  return v.ir;
});
const n = irs.length;
const dsl = irsToText(irs);
const jsonl = irs.map((ir) => JSON.stringify(ir)).join('\n');
console.log(`corpus: ${n} IRs; DSL ${fmt(dsl.length)} chars, JSONL ${fmt(jsonl.length)} chars; median of ${ITERATIONS} runs\n`);

const check1 = textToIr(dsl);
if (hasErrors(check1.diagnostics) || check1.irs.length !== n) throw new Error('the printed corpus does not convert back cleanly');

const dslParseMs = time(() => void parse(dsl));
const dslFullMs = time(() => void textToIr(dsl));
const jsonZodMs = time(() => {
  for (const line of jsonl.split('\n')) validateIr(JSON.parse(line));
});
const jsonFullMs = time(() => {
  const valid: IR[] = [];
  for (const line of jsonl.split('\n')) {
    const v = validateIr(JSON.parse(line));
    if (v.ir) valid.push(v.ir);
  }
  check(valid);
});

const rate = (ms: number) => (n / ms) * 1000;
const rows: Array<[string, number]> = [
  ['DSL parse only', dslParseMs],
  ['DSL parse + astToIr + validate + check', dslFullMs],
  ['JSON.parse + zod validation', jsonZodMs],
  ['JSON.parse + zod validation + check', jsonFullMs],
];
for (const [name, ms] of rows) console.log(`${name.padEnd(42)} ${fmt(rate(ms)).padStart(10)} statements/s  (${ms.toFixed(1)} ms)`);
console.log(`\nratio DSL (parse+check) / JSON (parse+zod):        ${(rate(dslFullMs) / rate(jsonZodMs)).toFixed(3)}`);
console.log(`ratio DSL (parse+check) / JSON (parse+zod+check):  ${(rate(dslFullMs) / rate(jsonFullMs)).toFixed(3)}`);

// ---------------------------------------------------------------- CLI smoke test over the benchmark
const dir = mkdtempSync(join(tmpdir(), 't2m-bench-'));
try {
  const benchIrs = benchmarkSamples().flatMap((s) => [...s.prerequisites, ...s.schema_list]);
  const irFile = join(dir, 'irs.jsonl');
  writeFileSync(irFile, benchIrs.map((ir) => JSON.stringify(ir)).join('\n') + '\n');
  const run = (args: string[], input?: string) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], { encoding: 'utf8', input, maxBuffer: 1 << 30 });
    return { ...r, ms: performance.now() - t0 };
  };
  const toDsl = run(['convert', irFile, '--to', 'dsl', '--jsonl']);
  const dslLines = toDsl.stdout.split('\n').filter(Boolean);
  const dslFile = join(dir, 'dsl.jsonl');
  writeFileSync(dslFile, toDsl.stdout);
  const back = run(['convert', dslFile, '--to', 'json', '--jsonl']);
  const backLines = back.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const failedDsl = dslLines.filter((l) => 'diagnostics' in JSON.parse(l)).length;
  const mismatches = benchIrs.filter((ir, i) => !isDeepStrictEqual(ir, backLines[i])).length;
  console.log(`\nt2m convert --to dsl --jsonl over the benchmark: ${benchIrs.length} IRs in ${fmt(toDsl.ms)} ms (exit ${toDsl.status}, ${failedDsl} lines failed)`);
  console.log(`t2m convert --to json --jsonl back:              ${backLines.length} lines in ${fmt(back.ms)} ms (exit ${back.status}, ${mismatches} not identical to the input IR)`);
  const whole = run(['convert', irFile, '--to', 'dsl']);
  console.log(`t2m convert --to dsl (whole file as JSONL → one script): ${fmt(whole.ms)} ms (exit ${whole.status}, ${fmt(whole.stdout.length)} chars)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
