/**
 * Front-end throughput, printed as figures (not asserted): statements per second for
 *   - DSL: parse → astToIr → validate → check (`textToIr`), over every upstream IR
 *     (`fixtures/upstream/`: the benchmark's prerequisites and gold schemas, and ir/examples)
 *     printed as one script;
 *   - JSON: JSON.parse → zod validation (validateIr), and the same plus check, over the same IRs;
 * and their ratio, the target being DSL ≥ 0.5 × JSON.parse + zod. The variants are run
 * interleaved, round after round (each round in a rotated order), and each figure is the median
 * over the rounds, so that all of them see the same load on a shared machine; CPU time
 * (process.cpuUsage) is the headline, wall time is shown beside it. Then the DSL front end's
 * stages on their own (where its time goes), and a smoke test of the CLI: `t2m convert --jsonl`
 * over every benchmark IR, there and back, timed, counting lines that fail and lines that do not
 * round-trip.
 *
 * Run: npm run perf:parse [-- --rounds 15]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { check } from '../src/check/index.js';
import { astToIr, dslName } from '../src/convert/index.js';
import { hasErrors } from '../src/diagnostics/diagnostic.js';
import { conformsToIr } from '../src/ir/conforms.js';
import type { IR } from '../src/ir/schema.js';
import { validateIr } from '../src/ir/validate.js';
import { irsToText, textToIr } from '../src/pipeline.js';
import { parse } from '../src/syntax/index.js';
import { lex } from '../src/syntax/lex.js';
import { benchmarkSamples, corpusIrs } from '../test/ir-corpus.js';

const ROOT = resolve(import.meta.dirname, '..');
const argIndex = process.argv.indexOf('--rounds');
const ROUNDS = argIndex > 0 ? Number(process.argv[argIndex + 1]) : 15;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

interface Timing { readonly cpu: number; readonly wall: number }

/** Runs the variants interleaved for ROUNDS rounds (after one warm-up round); median CPU and wall ms of each. */
function interleaved(variants: ReadonlyArray<readonly [string, () => void]>): Map<string, Timing> {
  for (const [, fn] of variants) fn();
  const cpu = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  const wall = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < variants.length; k++) {
      const [name, fn] = variants[(r + k) % variants.length];
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      fn();
      wall.get(name)!.push(performance.now() - w0);
      const c = process.cpuUsage(c0);
      cpu.get(name)!.push((c.user + c.system) / 1000);
    }
  }
  return new Map(variants.map(([name]) => [name, { cpu: median(cpu.get(name)!), wall: median(wall.get(name)!) }]));
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
console.log(`corpus: ${n} IRs; DSL ${fmt(dsl.length)} chars, JSONL ${fmt(jsonl.length)} chars; median of ${ROUNDS} interleaved rounds\n`);

const check1 = textToIr(dsl);
if (hasErrors(check1.diagnostics) || check1.irs.length !== n) throw new Error('the printed corpus does not convert back cleanly');

const DSL_PARSE = 'DSL parse only';
const DSL_FULL = 'DSL parse + astToIr + validate + check';
const JSON_ZOD = 'JSON.parse + zod validation';
const JSON_FULL = 'JSON.parse + zod validation + check';
const t = interleaved([
  [DSL_PARSE, () => void parse(dsl)],
  [DSL_FULL, () => void textToIr(dsl)],
  [JSON_ZOD, () => {
    for (const line of jsonl.split('\n')) validateIr(JSON.parse(line));
  }],
  [JSON_FULL, () => {
    const valid: IR[] = [];
    for (const line of jsonl.split('\n')) {
      const v = validateIr(JSON.parse(line));
      if (v.ir) valid.push(v.ir);
    }
    check(valid);
  }],
]);

const rate = (ms: number) => (n / ms) * 1000;
console.log(`${''.padEnd(42)} ${'statements/s (CPU)'.padStart(18)}  ${'CPU ms'.padStart(8)}  ${'wall ms'.padStart(8)}`);
for (const [name, { cpu, wall }] of t) console.log(`${name.padEnd(42)} ${fmt(rate(cpu)).padStart(18)}  ${cpu.toFixed(1).padStart(8)}  ${wall.toFixed(1).padStart(8)}`);
const ratio = (a: string, b: string, k: keyof Timing) => (t.get(b)![k] / t.get(a)![k]).toFixed(3);
console.log(`\nratio DSL (parse+check) / JSON (parse+zod):        ${ratio(DSL_FULL, JSON_ZOD, 'cpu')} CPU, ${ratio(DSL_FULL, JSON_ZOD, 'wall')} wall   (target ≥ 0.5)`);
console.log(`ratio DSL (parse+check) / JSON (parse+zod+check):  ${ratio(DSL_FULL, JSON_FULL, 'cpu')} CPU, ${ratio(DSL_FULL, JSON_FULL, 'wall')} wall`);
console.log(`DSL parsing alone: ${((dsl.length / t.get(DSL_PARSE)!.cpu) / 1000).toFixed(1)} MB/s (CPU)`);

// ---------------------------------------------------------------- where the DSL front end's time goes
const lexed = lex(dsl);
const parsed = parse(dsl);
const converted = astToIr(parsed.script);
const valid = converted.irs as IR[];
const stages = interleaved([
  ['lex (Chevrotain lexer + repairs)', () => void lex(dsl)],
  ['parse (tokens → AST) + comments', () => void parse(dsl)],
  ['astToIr (IR + source maps)', () => void astToIr(parsed.script)],
  ['validate (conformsToIr fast path)', () => { for (const ir of converted.irs) conformsToIr(ir); }],
  ['validate (validateIr, zod)', () => { converted.irs.forEach((ir, i) => validateIr(ir, converted.sourceMaps[i], i, dslName)); }],
  ['check', () => void check(valid, { sourceMaps: converted.sourceMaps, source: 'dsl', wording: dslName })],
]);
void lexed;
console.log('\nDSL front-end stages (CPU ms, median; parse includes lex):');
for (const [name, { cpu }] of stages) console.log(`  ${name.padEnd(40)} ${cpu.toFixed(1).padStart(8)}`);

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
