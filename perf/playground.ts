/**
 * The playground's speed figures, printed (not a test): the entry chunk's gzipped size, how long a
 * first load takes until the editor is usable (`window.t2m.loaded`), and for a 300-statement
 * script how long the page takes to check it (the analysis worker's answer) and to run it (Run,
 * on the page's own runner), next to `t2m run --db :memory:` on the same file (the whole process,
 * and the engine call alone in-process). Builds the page, serves it with `vite preview`, drives
 * Debian's Chromium.
 *
 *   npx tsx perf/playground.ts [--rounds 5] [--json]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createStore } from '../src/dialect/sqlite/store.js';
import { run } from '../src/engine/index.js';
import { textToIr } from '../src/pipeline.js';
import { playgroundSize } from '../scripts/playground-size.js';
import { buildAndServe } from '../test/e2e/harness.js';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const ROUNDS = Number(args[args.indexOf('--rounds') + 1]) || 5;
const JSON_OUT = args.includes('--json');
const NOW = '2025-10-01T00:00:00Z';

/** 300 statements of the kinds a day's script has: writes, filtered and searched reads, promotions, updates. */
export function script300(): string {
  const lines: string[] = [];
  for (let i = 0; i < 150; i++) lines.push(`ENCODE "Note ${i}: follow up on item ${i % 17} with team ${i % 5}" TYPE note TAGS "t${i % 10}", "team${i % 5}" TIME 2025-09-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z;`);
  for (let i = 0; i < 60; i++) lines.push(`RETRIEVE WHERE tags HAS "t${i % 10}" LIMIT 5 INCLUDE id, text, weight;`);
  for (let i = 0; i < 30; i++) lines.push(`RETRIEVE WHERE search "follow up item ${i % 17}" LIMIT 5;`);
  for (let i = 0; i < 30; i++) lines.push(`PROMOTE WHERE tags HAS "t${i % 10}" LIMIT 2 SET weight 0.8;`);
  for (let i = 0; i < 30; i++) lines.push(`UPDATE WHERE tags HAS "team${i % 5}" LIMIT 1 SET subject = "s${i}";`);
  return `${lines.join('\n')}\n`;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round1 = (x: number): number => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const text = script300();
  const front = textToIr(text);
  if (front.irs.length !== 300 || front.diagnostics.some((d) => d.severity === 'error')) throw new Error('the 300-statement script does not check');
  const dir = mkdtempSync(join(tmpdir(), 't2m-perf-playground-'));
  const file = join(dir, 'script300.t2m');
  writeFileSync(file, text);

  // `t2m run --db :memory:` as a user runs it from the sources (node + tsx + the CLI), and the engine call alone.
  const cliWall: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', file, '--db', ':memory:', '--now', NOW, '--json'], { cwd: ROOT, stdio: 'pipe', maxBuffer: 1 << 28 });
    cliWall.push(performance.now() - t);
  }
  const engineMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const store = await createStore();
    const t = performance.now();
    const r = run(store, front.irs, { now: NOW, sourceMaps: front.sourceMaps, impersonate: true });
    engineMs.push(performance.now() - t);
    if (!r.ok) throw new Error('the engine refused the script');
    store.close();
  }

  const served = await buildAndServe();
  try {
    const size = playgroundSize();
    const usable: number[] = [];
    const check: number[] = [];
    const page300: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // A fresh context: nothing cached, nothing saved (a first load).
      const context = await served.browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      await page.goto(served.url);
      await page.waitForFunction(() => window.t2m !== undefined);
      usable.push(await page.evaluate(async () => {
        await window.t2m!.loaded;
        return performance.now();
      }));
      await page.evaluate(() => window.t2m!.setClock('2025-10-01T00:00:00Z'));
      check.push(await page.evaluate(async (t) => {
        const start = performance.now();
        window.t2m!.setScript(t);
        await window.t2m!.settled();
        return performance.now() - start;
      }, text));
      page300.push(await page.evaluate(async () => {
        const start = performance.now();
        await window.t2m!.run();
        return performance.now() - start;
      }));
      const s = await page.evaluate(() => window.t2m!.state());
      if (!s.committed || s.results.length !== 300) throw new Error(`the page's run of the script: ${s.results.length} statements, committed ${s.committed}`);
      await context.close();
    }
    const figures = {
      entryGzipKiB: round1(size.totals.initialGzip / 1024),
      editorUsableMs: Math.round(median(usable)),
      check300Ms: Math.round(median(check)),
      pageRun300Ms: Math.round(median(page300)),
      cliRun300WallMs: Math.round(median(cliWall)),
      engineRun300Ms: Math.round(median(engineMs)),
    };
    const ratio = figures.pageRun300Ms / figures.cliRun300WallMs;
    if (JSON_OUT) {
      console.log(JSON.stringify({ ...figures, pageVsCli: round1(ratio * 100) / 100, rounds: ROUNDS }));
      return;
    }
    console.log(`playground figures (median of ${ROUNDS} first loads in Chromium; ${ROUNDS} runs of the CLI)`);
    console.log(`  entry chunk, gzipped                      ${figures.entryGzipKiB} KiB   (budget 250 KiB)`);
    console.log(`  editor usable after a first load          ${figures.editorUsableMs} ms   (budget 2500 ms)`);
    console.log(`  300-statement script checked (worker)     ${figures.check300Ms} ms   (budget 1000 ms)`);
    console.log(`  300-statement script run on the page      ${figures.pageRun300Ms} ms`);
    console.log(`  t2m run --db :memory: on the same file    ${figures.cliRun300WallMs} ms   (whole process, from the sources)`);
    console.log(`  page / t2m run                            ${(ratio).toFixed(2)}×   (budget 1.5×)`);
    console.log(`  the engine call alone (sql.js, in-process) ${figures.engineRun300Ms} ms`);
  } finally {
    await served.close();
  }
}

await main();
