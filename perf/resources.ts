/**
 * `npm run perf:resources [-- --before <checkout>]`: peak memory (RSS) and stored bytes for the
 * inputs of issue 8's finding 13, each measured in a fresh child process:
 *
 * - script-100k: a 100,000-statement DSL script through the front end (textToIr) and `run`;
 * - cli-run-100k: the same script through `t2m run` (the CLI's own process);
 * - retrieve-all-100k: `RETRIEVE ALL` on a store of 100,000 records (made with plain INSERTs
 *   first, so the peak is the read's);
 * - text-5mb: one Encode of a 5 MB text: bytes in the memory table and in the audit log.
 *
 * With `--before <dir>` (a checkout of the code before the change, with node_modules: e.g.
 * `git archive <commit> src grammar package.json | tar -x -C <dir>` and a node_modules link) the
 * same scenarios run against that code too, side by side. A measurement, not a test: the figures
 * vary with the machine.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const HERE = resolve(import.meta.dirname, '..');
const SCENARIOS = ['script-100k', 'cli-run-100k', 'retrieve-all-100k', 'text-5mb'] as const;
type Scenario = (typeof SCENARIOS)[number];
const NOW = '2025-05-01T00:00:00Z';
const MB = 1024 * 1024;

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};

const script100k = () => Array.from({ length: 100_000 }, (_, i) => `ENCODE "memory number ${i}" TAGS "t${i % 50}" SOURCE "perf";`).join('\n');

async function child(scenario: Scenario, root: string): Promise<Record<string, number | string>> {
  const pipeline = await import(`${root}/src/pipeline.ts`);
  const engine = await import(`${root}/src/index.ts`);
  const compile = await import(`${root}/src/compile/index.ts`);
  const rss = () => Math.round(process.memoryUsage().rss / MB);
  const peak = () => Math.round(process.resourceUsage().maxRSS / 1024);
  const store = await engine.createStore();
  const baseline = rss();
  switch (scenario) {
    case 'script-100k': {
      const text = script100k();
      const t0 = performance.now();
      const front = pipeline.textToIr(text);
      const afterFront = peak();
      const r = engine.run(store, front.irs, { now: NOW, sourceMaps: front.sourceMaps });
      return { baselineMB: baseline, frontEndPeakMB: afterFront, peakMB: peak(), ok: String(r.ok), seconds: Math.round(performance.now() - t0) / 1000 };
    }
    case 'cli-run-100k': {
      const { mkdtempSync, writeFileSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const file = resolve(mkdtempSync(resolve(tmpdir(), 't2m-perf-')), 'script.t2m');
      writeFileSync(file, script100k());
      const t0 = performance.now();
      process.argv = [process.argv[0], 't2m', 'run', file, '--now', NOW];
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = (() => true) as typeof process.stdout.write;
      await import(`${root}/src/cli/main.ts`);
      process.stdout.write = write;
      return { baselineMB: baseline, peakMB: peak(), exitCode: Number(process.exitCode ?? 0), seconds: Math.round(performance.now() - t0) / 1000 };
    }
    case 'retrieve-all-100k': {
      store.transaction(() => {
        for (let i = 0; i < 100_000; i++) {
          const text = `memory number ${i} about topic ${i % 97}`;
          const values = { text, tags: [`t${i % 50}`], facets: {}, created_at: NOW, updated_at: NOW, deleted: 0, embedding: store.embedder.embed(text), embedding_model: store.embedder.model };
          store.run(compile.compileInsert(values, store.dialect));
        }
        return { commit: true, value: undefined };
      });
      (globalThis as { gc?: () => void }).gc?.();
      const before = rss();
      const peakBefore = peak();
      const t0 = performance.now();
      const r = engine.run(store, [{ stage: 'RET', op: 'Retrieve', target: { all: true }, meta: { confirmation: true } }], { now: NOW });
      return { rssBeforeReadMB: before, peakBeforeReadMB: peakBefore, peakMB: peak(), rows: r.results[0]?.rows?.length ?? 0, warnings: r.diagnostics.map((d: { code: string }) => d.code).join(',') || '-', seconds: Math.round(performance.now() - t0) / 1000 };
    }
    case 'text-5mb': {
      const text = 'lorem ipsum dolor sit amet '.repeat(Math.ceil((5 * MB) / 27)).slice(0, 5 * MB);
      const r = engine.run(store, [{ stage: 'ENC', op: 'Encode', args: { payload: { text } } }], { now: NOW });
      const bytes = (sql: string) => Number(Object.values(store.all({ sql, params: [] })[0])[0]);
      const memory = bytes('SELECT SUM(length(CAST(text AS BLOB))) FROM memory');
      const audit = bytes('SELECT SUM(length(CAST(ir AS BLOB)) + length(CAST(before AS BLOB)) + length(CAST(after AS BLOB))) FROM audit_log');
      return { ok: String(r.ok), memoryTableMB: +(memory / MB).toFixed(2), auditLogMB: +(audit / MB).toFixed(2), copiesOfText: +((memory + audit) / (5 * MB)).toFixed(2), peakMB: peak() };
    }
  }
}

if (flag('child')) {
  const out = await child(flag('child') as Scenario, flag('root')!);
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

const roots: Array<[string, string]> = [['after', HERE]];
const before = flag('before');
if (before) roots.unshift(['before', resolve(before)]);
for (const scenario of SCENARIOS) {
  for (const [label, root] of roots) {
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', resolve(HERE, 'perf/resources.ts'), '--child', scenario, '--root', root], { encoding: 'utf8', cwd: HERE, maxBuffer: 1 << 26 });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    process.stdout.write(`${scenario.padEnd(18)} ${label.padEnd(6)} ${r.status === 0 ? line : `failed (${r.status}): ${r.stderr.split('\n').slice(-4).join(' ')}`}\n`);
  }
}
