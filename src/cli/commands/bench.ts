/**
 * `t2m bench <samples.jsonl> [--json] [--only <op>] [--strict]`: the Text2Mem benchmark against this engine;
 * with `--plan --base-url … --model …`, the planning evaluation (SMA, ESR, EMR; spec/planning.md).
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loaded } from '../startup.js';
import { addModelOptions, modelOptions, type ModelFlags } from './plan.js';

export function benchCommand(program: Command): void {
  addModelOptions(program
    .command('bench')
    .description('run the Text2Mem benchmark (gold schemas) and report assertions and ranking checks passed; with --plan, plan each sample\'s request with an LLM and report SMA, ESR and EMR')
    .argument('<samples>', 'benchmark JSONL file')
    .option('--json', 'print the report as one JSON object')
    .option('--only <op>', 'only samples of this operation (e.g. Label)')
    .option('--strict', 'strict policy: warnings refuse a statement, the slips read as meant (no stage, filter.tags, …) included')
    .option('--db <store>', "the backend each sample runs on, in a fresh store: SQLite in memory on the native driver (default), ':memory:' (SQLite in memory on sql.js, as in the browser), 'pglite:' or 'postgres://…' (a fresh schema per sample)")
    .option('--plan', 'planning evaluation: NL request → plan (the model flags below) → run → assertions')
    .option('--limit <n>', 'with --plan: at most n samples'))
    .action(async (file: string, opts: { json?: boolean; only?: string; strict?: boolean; plan?: boolean; limit?: string; db?: string } & ModelFlags) => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        process.stderr.write(`t2m bench: cannot read ${file}: ${(e as Error).message}\n`);
        process.exitCode = 2;
        return;
      }
      // Loaded on use so the other commands do not pay for the engine.
      const [{ formatReport, parseSamples, runBenchmark }, { benchBackend }] = await loaded(Promise.all([import('../../conformance/index.js'), import('../../node/bench-backend.js')]));
      const { samples, errors } = parseSamples(text);
      for (const e of errors) process.stderr.write(`${file}: ${e}\n`);
      if (errors.length) {
        process.exitCode = 2;
        return;
      }
      const tty = process.stderr.isTTY;
      const onProgress = (every: number) => (done: number, total: number) => {
        if (done % every !== 0 && done !== total) return;
        const width = 30;
        const filled = Math.round((done / total) * width);
        const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
        process.stderr.write(tty ? `\r${bar}${done === total ? '\n' : ''}` : `${bar}\n`);
      };
      if (opts.plan) {
        const [{ GBNF }, { openAIProvider }, { formatPlanReport, runPlanBenchmark }] = await loaded(Promise.all([
          import('../../agents/gbnf.js'), import('../../agents/openai.js'), import('../../agents/plan-bench.js'),
        ]));
        const resolved = modelOptions(opts, { GBNF, openAIProvider });
        if (!resolved.ok) {
          process.stderr.write(`t2m bench: ${resolved.message}\n`);
          process.exitCode = 2;
          return;
        }
        const limit = opts.limit === undefined ? undefined : Number(opts.limit);
        if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) {
          process.stderr.write('t2m bench: --limit must be a non-negative integer\n');
          process.exitCode = 2;
          return;
        }
        const report = await runPlanBenchmark(samples, { ...(resolved.options as unknown as Parameters<typeof runPlanBenchmark>[1]), only: opts.only, limit, onProgress: onProgress(5) });
        process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatPlanReport(report)}\n`);
        return;
      }
      // The samples run on native SQLite in memory unless --db names another backend (src/node/bench-backend.ts).
      const { parseStoreUrl, isDiagnostic } = await loaded(import('../../node/store-url.js'));
      const url = opts.db === undefined ? undefined : parseStoreUrl(opts.db);
      const backend = url !== undefined && isDiagnostic(url) ? url : await benchBackend(url);
      if ('code' in backend) {
        process.stderr.write(`t2m bench: ${backend.code}: ${backend.message}\n`);
        process.exitCode = 2;
        return;
      }
      if (backend.note) process.stderr.write(`t2m bench: ${backend.note}\n`);
      let report: Awaited<ReturnType<typeof runBenchmark>>;
      try {
        report = await runBenchmark(samples, { only: opts.only, policy: opts.strict ? 'strict' : 'default', onProgress: onProgress(25), backend: backend.backend, store: backend.store });
      } finally {
        await backend.close();
      }
      if (opts.json) {
        const { failures, ...summary } = report;
        process.stdout.write(JSON.stringify({ ...summary, failures }, null, 2) + '\n');
      } else process.stdout.write(formatReport(report) + '\n');
      const rate = (t: { total: number; passed: number }) => (t.total ? t.passed / t.total : 1);
      if (rate(report.assertions) < 0.99 || rate(report.ranking) < 0.99) process.exitCode = 1;
    });
}
