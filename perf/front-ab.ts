/**
 * The DSL front end A/B in one process: `textToIr` of another checkout (A, e.g. the base of a
 * change: `git worktree add /tmp/base <commit>` or `git archive <commit> | tar -x -C /tmp/base`,
 * with a `node_modules` link) against this one (B), over the upstream IRs printed as one script
 * (the script perf/throughput.ts times), with `JSON.parse` + zod validation of the same IRs as
 * the yardstick; the three interleaved round by round, median CPU time of each (and the mean of the
 * three fastest rounds). On a shared machine the ratios inside one run mean more than the times, and
 * even they move: two copies of the same commit measured 0.84–1.07× each other in one run at load
 * average 7–10. A and B must give the same IRs and diagnostics.
 *   nice node --import tsx perf/front-ab.ts /tmp/base [rounds]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { IR } from '../src/ir/schema.js';
import { validateIr } from '../src/ir/validate.js';
import * as B from '../src/pipeline.js';
import { corpusIrs } from '../test/ir-corpus.js';

const base = process.argv[2];
if (!base) throw new Error('usage: perf/front-ab.ts <other checkout> [rounds]');
const A = (await import(pathToFileURL(resolve(base, 'src/pipeline.ts')).href)) as typeof B;
const ROUNDS = Number(process.argv[3] ?? 15);

const irs = corpusIrs().map(({ ir }) => validateIr(ir).ir as IR);
const dsl = B.irsToText(irs);
const jsonl = irs.map((ir) => JSON.stringify(ir)).join('\n');
const a = A.textToIr(dsl);
const b = B.textToIr(dsl);
if (!isDeepStrictEqual(a.irs, b.irs) || JSON.stringify(a.diagnostics) !== JSON.stringify(b.diagnostics)) throw new Error('A and B give different IRs or diagnostics');

const variants: ReadonlyArray<readonly [string, () => void]> = [
  ['A textToIr', () => void A.textToIr(dsl)],
  ['B textToIr', () => void B.textToIr(dsl)],
  ['JSON.parse + zod', () => { for (const line of jsonl.split('\n')) validateIr(JSON.parse(line)); }],
];
for (const [, fn] of variants) { fn(); fn(); }
const cpu = new Map<string, number[]>(variants.map(([name]) => [name, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (let k = 0; k < variants.length; k++) {
    const [name, fn] = variants[(r + k) % variants.length];
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    cpu.get(name)!.push((c.user + c.system) / 1000);
  }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
// The mean of the three fastest rounds: on a loaded machine the load only adds time, so it moves less than the median.
const low = (xs: number[]) => [...xs].sort((x, y) => x - y).slice(0, 3).reduce((s, x) => s + x, 0) / Math.min(3, xs.length);
const m = new Map([...cpu].map(([name, xs]) => [name, median(xs)]));
const l = new Map([...cpu].map(([name, xs]) => [name, low(xs)]));
console.log(`${irs.length} IRs, ${dsl.length.toLocaleString('en-US')} chars of DSL; A = ${base}; CPU ms of ${ROUNDS} interleaved rounds: median (mean of the 3 fastest)`);
for (const [name, ms] of m) console.log(`  ${name.padEnd(18)} ${ms.toFixed(1).padStart(8)} (${l.get(name)!.toFixed(1)})`);
for (const [what, t] of [['median', m], ['3 fastest', l]] as const) {
  const json = t.get('JSON.parse + zod')!;
  console.log(`ratio DSL / JSON (target ≥ 0.5), ${what}: A ${(json / t.get('A textToIr')!).toFixed(3)}, B ${(json / t.get('B textToIr')!).toFixed(3)}; B is ${(t.get('A textToIr')! / t.get('B textToIr')!).toFixed(3)}× A`);
}
