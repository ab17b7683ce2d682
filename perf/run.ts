/**
 * The perf harness: `npm run perf -- <suite> [--vs <git-rev>] [--rounds N] [--json] [suite flags]`.
 *
 * Each round runs the suite in a fresh child process (`--round`, below) and reads back one JSON
 * object of figures; the harness prints the median of every figure over the rounds with its
 * spread (min–max). With `--vs <rev>` it checks that revision out in a throwaway `git worktree`
 * (node_modules linked, built when the suite runs the built CLI), runs the same suite there,
 * alternating the two sides round by round so that a loaded machine hits both alike, and prints
 * for each figure the median of the per-round ratios this / rev. The suites import the project
 * through its public entries (src/index.ts, src/node.ts) under the root they are given, so the
 * suite code of this checkout measures either side.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Figures, Suite } from './suites/suite.js';

const ROOT = resolve(import.meta.dirname, '..');
const SUITES = ['front', 'engine', 'benchmark', 'retrieval', 'storage', 'startup', 'facts'] as const;
type SuiteName = (typeof SUITES)[number];

const loadSuite = async (name: SuiteName): Promise<Suite> => (await import(`./suites/${name}.js`)).default as Suite;

function usage(): string {
  return `usage: npm run perf -- <suite> [--vs <git-rev>] [--rounds N] [--json] [suite flags]

suites:
  front      DSL parse + check vs JSON.parse + zod validation over the upstream IRs (throughput ratio)
  engine     encode, filtered retrieve and filtered update at 10k records vs the same SQL run
             directly, on sql.js in memory and on a store file (better-sqlite3)   [--sizes 1000,10000]
  benchmark  the shared benchmark through the built CLI (t2m bench) as a whole process: wall and CPU
  retrieval  search p50/p95 at 1k and 100k memories           [--sizes 1000,100000] [--db pglite:?keywords=server]
  storage    the engine figures on PGlite; on a server with --url postgres://…     [--sizes 1000,10000]
  startup    cold start of the built CLI (t2m check on one line) vs node -e 0
  facts      a fact's current-value read (and AS OF, KNOWN AT) at 100k fact versions, p50/p95  [--sizes 100000]

options:
  --vs <rev>   also run the suite on that git revision (a throwaway worktree), alternating round
               by round, and print the ratio this / rev for each figure
  --rounds N   rounds (each in a fresh process); the median of each figure is printed
  --json       print one JSON object instead of a table

The benchmark and startup suites run dist/cli/t2m.js: run \`npm run build\` first (--vs builds the
other revision itself).`;
}

function fail(message: string): never {
  process.stderr.write(`perf: ${message}\n\n${usage()}\n`);
  process.exit(2);
}

// ------------------------------------------------------------------ one round (child process)
if (process.argv[2] === '--round') {
  const [, , , name, root, flagsJson] = process.argv;
  const suite = await loadSuite(name as SuiteName);
  const figures = await suite.round(root, JSON.parse(flagsJson) as Record<string, string>);
  process.stdout.write(`\n${JSON.stringify(figures)}\n`);
  process.exit(0);
}

// ------------------------------------------------------------------ arguments
const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(usage());
  process.exit(0);
}
const name = argv[0];
if (name === undefined || name.startsWith('-')) fail('name a suite');
if (!(SUITES as readonly string[]).includes(name)) fail(`unknown suite '${name}'`);
const suite = await loadSuite(name as SuiteName);
let vs: string | undefined;
let rounds = suite.rounds;
let json = false;
const flags: Record<string, string> = {};
for (let i = 1; i < argv.length; i++) {
  const a = argv[i];
  const value = () => {
    const v = argv[++i];
    if (v === undefined || v.startsWith('--')) fail(`${a} takes a value`);
    return v;
  };
  if (a === '--json') json = true;
  else if (a === '--vs') vs = value();
  else if (a === '--rounds') {
    rounds = Number(value());
    if (!Number.isInteger(rounds) || rounds < 1) fail(`--rounds takes a whole number of at least 1, not ${argv[i]}`);
  } else if (suite.flags.includes(a.slice(2))) flags[a.slice(2)] = value();
  else fail(`unknown option '${a}' for the ${name} suite`);
}
const problem = suite.check?.(flags);
if (problem) fail(problem);

// ------------------------------------------------------------------ the other side
function worktree(rev: string): { root: string; remove: () => void } {
  const sha = spawnSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: ROOT, encoding: 'utf8' });
  if (sha.status !== 0) fail(`--vs: '${rev}' is not a git revision here`);
  const dir = join(mkdtempSync(join(tmpdir(), 't2m-perf-vs-')), 'checkout');
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT });
    rmSync(resolve(dir, '..'), { recursive: true, force: true });
  };
  execFileSync('git', ['worktree', 'add', '--detach', dir, sha.stdout.trim()], { cwd: ROOT, stdio: 'ignore' });
  try {
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
    if (suite.needsBuild) {
      process.stderr.write(`building ${rev} in ${dir}…\n`);
      execFileSync('npm', ['run', 'build', '--silent'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    }
  } catch (e) {
    remove();
    throw e;
  }
  return { root: dir, remove };
}

function runRound(root: string): Figures {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'perf/run.ts'), '--round', name!, root, JSON.stringify(flags)], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) {
    process.stderr.write(r.stdout);
    throw new Error(`the ${name} round on ${root} exited ${r.status}`);
  }
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Figures;
}

// ------------------------------------------------------------------ rounds
if (suite.needsBuild && !existsSync(join(ROOT, 'dist/cli/t2m.js'))) fail('this suite runs the built CLI: run `npm run build` first');
const other = vs === undefined ? undefined : worktree(vs);
const mine: Figures[] = [];
const theirs: Figures[] = [];
try {
  for (let r = 0; r < rounds; r++) {
    process.stderr.write(`${name}: round ${r + 1} of ${rounds}${other ? ' (both sides)' : ''}…\n`);
    // Alternate which side goes first, so neither always runs on the warmer (or colder) machine.
    if (other && r % 2 === 1) theirs.push(runRound(other.root));
    mine.push(runRound(ROOT));
    if (other && r % 2 === 0) theirs.push(runRound(other.root));
  }
} finally {
  other?.remove();
}

// ------------------------------------------------------------------ report
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
interface Stat { median: number; min: number; max: number }
const stat = (xs: readonly number[]): Stat => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const keys = Object.keys(mine[0]);
const report = {
  suite: name,
  rounds,
  node: process.version,
  ...(vs !== undefined ? { vs } : {}),
  figures: Object.fromEntries(keys.map((k) => {
    const entry: Record<string, Stat> = { this: stat(mine.map((f) => f[k])) };
    if (vs !== undefined) {
      entry.vs = stat(theirs.map((f) => f[k]));
      entry.ratio = stat(mine.map((f, i) => f[k] / theirs[i][k]));
    }
    return [k, entry];
  })),
};
if (json) {
  console.log(JSON.stringify(report));
} else {
  // A figure one side lacks (NaN, null once it crossed JSON) prints as a dash.
  const num = (x: number | null) => (x === null || Number.isNaN(x) ? '—' : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(3));
  const cell = (s: Stat) => `${num(s.median)} (${num(s.min)}–${num(s.max)})`;
  const header = ['figure', 'this', ...(vs !== undefined ? [vs, 'this / ' + vs] : [])];
  const rows = keys.map((k) => {
    const e = report.figures[k];
    return [k, cell(e.this), ...(vs !== undefined ? [cell(e.vs), cell(e.ratio)] : [])];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`${name}: median (min–max) of ${rounds} round${rounds > 1 ? 's' : ''}, node ${process.version}${vs !== undefined ? `; sides alternating round by round` : ''}`);
  console.log(line(header));
  for (const r of rows) console.log(line(r));
  if (suite.notes) console.log(`\n${suite.notes}`);
}
