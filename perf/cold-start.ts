/**
 * Cold start of the installed `t2m`: packs the package (`npm pack`, which builds dist/), installs
 * the tarball into an empty project, then times `t2m check one-line.t2m` against `node -e 0`,
 * alternating the two so that drift in the machine's speed hits both. Prints the medians and
 * the ratio; exits 1 when the median ratio is above the budget (×4).
 *
 *   npm run perf:cold-start [-- --runs 21] [-- --dist]   (--dist: time ./dist/cli/t2m.js, no pack)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BUDGET = 4;
const ROOT = resolve(import.meta.dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 21;
const useDist = args.includes('--dist');

const work = mkdtempSync(join(tmpdir(), 't2m-cold-start-'));
try {
  let cli = join(ROOT, 'dist/cli/t2m.js');
  if (!useDist) {
    const pack = join(work, 'pack');
    const app = join(work, 'app');
    mkdirSync(pack);
    mkdirSync(app);
    process.stderr.write('packing and installing the tarball…\n');
    execFileSync(NPM, ['pack', '--silent', '--pack-destination', pack], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = join(pack, readdirSync(pack).find((f) => f.endsWith('.tgz'))!);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'cold-start', private: true, type: 'module' }));
    execFileSync(NPM, ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--silent'], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
    cli = join(app, 'node_modules/text2mem/dist/cli/t2m.js');
  }
  const script = join(work, 'one-line.t2m');
  writeFileSync(script, 'PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9;\n');

  const time = (argv: string[]): number => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, argv, { encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
    return ms;
  };
  const check = [cli, 'check', script];
  const baseline = ['-e', '0'];
  const out = spawnSync(process.execPath, check, { encoding: 'utf8' }).stdout.trim();
  if (!out.endsWith('ok (1 statement checked, dsl)')) throw new Error(`unexpected t2m check output: ${out}`);
  for (let i = 0; i < 2; i++) time(check), time(baseline); // warm the file cache

  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ta = time(check);
    const tb = time(baseline);
    a.push(ta);
    b.push(tb);
    ratios.push(ta / tb);
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((x, y) => x - y);
    const m = s.length >> 1;
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const ratio = median(ratios);
  console.log(`t2m check one-line.t2m   median ${median(a).toFixed(0)} ms  (min ${Math.min(...a).toFixed(0)}, max ${Math.max(...a).toFixed(0)})`);
  console.log(`node -e 0                median ${median(b).toFixed(0)} ms  (min ${Math.min(...b).toFixed(0)}, max ${Math.max(...b).toFixed(0)})`);
  console.log(`ratio (median of ${RUNS} pairs)  ×${ratio.toFixed(2)}  (budget ×${BUDGET}: ${ratio <= BUDGET ? 'ok' : 'OVER'})`);
  console.log(`  ${useDist ? './dist/cli/t2m.js' : 'installed from the packed tarball'}, node ${process.version}`);
  if (ratio > BUDGET) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
