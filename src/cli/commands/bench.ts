/**
 * `t2m bench <samples.jsonl> [--json] [--only <op>] [--strict]`: the Text2Mem benchmark against this engine;
 * with `--plan --base-url … --model …`, the planning evaluation (SMA, ESR, EMR; spec/planning.md);
 * with `--plan --answers <file>`, the same scores for replies written elsewhere; with
 * `--plan --requests <file> --model …`, the requests a live run would send, for a batch run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
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
    .option('--answers <file>', 'with --plan: score the replies in this JSONL file ({"id": "<sample id>", "answer": "<reply>"} a line, or the OpenAI Batch API\'s output lines; DSL, or with --ir JSON IR) instead of asking a model; a sample without one is not executed')
    .option('--requests <file>', 'with --plan and --model: write, instead of asking a model, the request a live run would send first for each sample, as OpenAI Batch API input lines (custom_id = sample id) to this file, or - for standard output')
    .option('--ids <ids>', 'with --plan: only these samples: ids separated by commas, or @file (one id a line, or JSONL lines with an "id")')
    .option('--limit <n>', 'with --plan: at most n samples'))
    .action(async (file: string, opts: { json?: boolean; only?: string; strict?: boolean; plan?: boolean; limit?: string; db?: string; answers?: string; requests?: string; ids?: string } & ModelFlags) => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        process.stderr.write(`t2m bench: cannot read ${file}: ${(e as Error).message}\n`);
        process.exitCode = 2;
        return;
      }
      // Loaded on use so the other commands do not pay for the engine.
      const [{ formatReport, parseSamples, runBenchmark }, { benchBackend }] = await loaded(Promise.all([import('../../conformance/index.js'), import('../../conformance/backends.js')]));
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
      const refuse = (message: string) => {
        process.stderr.write(`t2m bench: ${message}\n`);
        process.exitCode = 2;
      };
      const planOnly = opts.answers !== undefined ? '--answers' : opts.requests !== undefined ? '--requests' : opts.ids !== undefined ? '--ids' : undefined;
      if (!opts.plan && planOnly) return refuse(`${planOnly} applies to --plan`);
      if (opts.plan) {
        const [{ GBNF }, { openAIProvider }, { formatPlanReport, parseAnswers, planRequests, runPlanBenchmark }] = await loaded(Promise.all([
          import('../../agents/gbnf.js'), import('../../agents/openai.js'), import('../../agents/plan-bench.js'),
        ]));
        const known = new Set(samples.map((s) => s.id));
        let ids: string[] | undefined;
        if (opts.ids !== undefined) {
          const listed = readIds(opts.ids);
          if (typeof listed === 'string') return refuse(listed);
          const unknown = listed.filter((id) => !known.has(id));
          if (unknown.length) return refuse(`--ids: ${unknown.length} id${unknown.length === 1 ? '' : 's'} name${unknown.length === 1 ? 's' : ''} no sample of ${file}: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''}`);
          ids = listed;
        }
        const limit = opts.limit === undefined ? undefined : Number(opts.limit);
        if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) return refuse('--limit must be a non-negative integer');
        if (opts.requests !== undefined) {
          if (opts.answers !== undefined) return refuse('--requests writes the requests for a batch run; --answers scores its replies (one or the other)');
          if (!opts.model) return refuse('--requests needs --model (the model named in each request)');
          // The same flags as a live run, with a placeholder server: only the options of the request body are used.
          const resolved = modelOptions({ ...opts, baseUrl: opts.baseUrl ?? 'http://127.0.0.1' }, { GBNF, openAIProvider });
          if (!resolved.ok) return refuse(resolved.message);
          const { mode, structured, grammar, temperature, related } = resolved.options as unknown as Parameters<typeof planRequests>[1];
          const lines = await planRequests(samples, { model: opts.model, mode, structured, grammar, temperature, related, ids, only: opts.only, limit, onProgress: onProgress(25) });
          const out = lines.map((l) => `${l}\n`).join('');
          if (opts.requests === '-') process.stdout.write(out);
          else {
            try {
              writeFileSync(opts.requests, out);
            } catch (e) {
              return refuse(`cannot write ${opts.requests}: ${(e as Error).message}`);
            }
            process.stderr.write(`t2m bench: ${lines.length} request${lines.length === 1 ? '' : 's'} written to ${opts.requests}\n`);
          }
          return;
        }
        let planOptions: Omit<Parameters<typeof runPlanBenchmark>[1], 'only' | 'limit' | 'ids' | 'onProgress'>;
        if (opts.answers !== undefined) {
          if (opts.baseUrl !== undefined || opts.model !== undefined) return refuse('--answers scores replies given in a file; --base-url and --model ask a model (use one or the other)');
          let answersText: string;
          try {
            answersText = readFileSync(opts.answers, 'utf8');
          } catch (e) {
            return refuse(`cannot read ${opts.answers}: ${(e as Error).message}`);
          }
          const { answers, problems, failed } = parseAnswers(answersText, { mode: opts.ir ? 'ir' : 'dsl', known });
          for (const p of problems) process.stderr.write(`${opts.answers}:${p.line}: error ${p.code}: ${p.message}\n`);
          if (problems.length) return refuse(`${problems.length} bad line${problems.length === 1 ? '' : 's'} in ${opts.answers}; nothing scored`);
          for (const f of failed) process.stderr.write(`${opts.answers}:${f.line}: note: ${f.id}: ${f.why}; scored as not executed\n`);
          planOptions = { answers, mode: opts.ir ? 'ir' : 'dsl' };
        } else {
          const resolved = modelOptions(opts, { GBNF, openAIProvider });
          if (!resolved.ok) return refuse(resolved.message);
          planOptions = resolved.options as unknown as typeof planOptions;
        }
        const report = await runPlanBenchmark(samples, { ...planOptions, ids, only: opts.only, limit, onProgress: onProgress(opts.answers !== undefined ? 25 : 5) });
        process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatPlanReport(report)}\n`);
        return;
      }
      // The samples run on native SQLite in memory unless --db names another backend (src/conformance/backends.ts).
      const { parseStoreUrl, isDiagnostic } = await loaded(import('../../store/url.js'));
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

/** `--ids`: ids separated by commas, or `@file` holding one id a line or JSONL lines with an `id`; a message when unusable. */
function readIds(spec: string): string[] | string {
  if (!spec.startsWith('@')) {
    const ids = spec.split(',').map((s) => s.trim()).filter(Boolean);
    return ids.length ? ids : '--ids names no sample';
  }
  const path = spec.slice(1);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return `--ids: cannot read ${path}: ${(e as Error).message}`;
  }
  const ids: string[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    if (!line.startsWith('{')) {
      ids.push(line);
      continue;
    }
    let id: unknown;
    try {
      id = (JSON.parse(line) as { id?: unknown }).id;
    } catch (e) {
      return `${path}:${i + 1}: not JSON: ${(e as Error).message}`;
    }
    if (typeof id !== 'string' || !id) return `${path}:${i + 1}: no "id" string`;
    ids.push(id);
  }
  return ids.length ? ids : `--ids: ${path} names no sample`;
}
