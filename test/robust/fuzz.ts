/**
 * `npm run fuzz -- [--seconds N] [--seed S] [--target parse|print|validate|engine]...`: long runs
 * of the hardening properties (test/robust/properties.ts; the test suite runs them bounded). For
 * each target: how many inputs it tried per second, and the first failing input, shrunk, with the
 * seed and path to replay it. Exits 1 when any target fails.
 */
import fc from 'fast-check';
import { TARGETS } from './properties.js';

function option(name: string): string[] {
  const out: string[] = [];
  const args = process.argv.slice(2);
  args.forEach((a, i) => {
    if (a === `--${name}` && args[i + 1] !== undefined) out.push(args[i + 1]);
    else if (a.startsWith(`--${name}=`)) out.push(a.slice(name.length + 3));
  });
  return out;
}

const seconds = Number(option('seconds')[0] ?? 10);
const seed = option('seed').length ? Number(option('seed')[0]) : Date.now() ^ (Math.random() * 2 ** 31);
const names = option('target').length ? option('target') : Object.keys(TARGETS);
for (const n of names) if (!TARGETS[n]) {
  process.stderr.write(`unknown target '${n}' (targets: ${Object.keys(TARGETS).join(', ')})\n`);
  process.exit(2);
}

let failed = false;
process.stdout.write(`fuzz: ${seconds}s per target, seed ${seed}\n`);
for (const name of names) {
  const property = await TARGETS[name]();
  const started = performance.now();
  const details = await fc.check(property, {
    seed,
    numRuns: Number.MAX_SAFE_INTEGER,
    interruptAfterTimeLimit: seconds * 1000,
    markInterruptAsFailure: false,
  });
  const elapsed = (performance.now() - started) / 1000;
  const runs = details.numRuns;
  const rate = (runs / elapsed).toFixed(0);
  if (details.failed) {
    failed = true;
    process.stdout.write(`${name}: FAILED after ${runs} inputs (${rate} inputs/s); replay with --seed ${details.seed} (path ${details.counterexamplePath})\n`);
    process.stdout.write(`  input (shrunk ${details.numShrinks} times): ${fc.stringify(details.counterexample)}\n`);
    process.stdout.write(`  error: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}\n`);
  } else {
    process.stdout.write(`${name}: ok, ${runs} inputs in ${elapsed.toFixed(1)}s = ${rate} inputs/s\n`);
  }
}
process.exit(failed ? 1 : 0);
