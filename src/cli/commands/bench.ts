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
    .option('--answers <file>', 'with --plan: score the replies in this JSONL file ({"id": "<sample id>", "answer": "<reply>"} a line, or the OpenAI Batch API\'s output or error file; repeat for several files) instead of asking a model; DSL, or with --ir JSON IR; a sample without one is not executed', (file: string, files: string[] = []) => [...files, file])
    .option('--requests <file>', 'with --plan and --model: write, instead of asking a model, the request a live run would send first for each sample, as OpenAI Batch API input lines (custom_id = sample id) to this file, or - for standard output')
    .option('--ids <ids>', 'with --plan: only these samples: ids separated by commas, or @file (one id a line, or JSONL lines with an "id", or a Batch API file\'s "custom_id")')
    .option('--limit <n>', 'with --plan: at most n samples'))
    .action(async (file: string, opts: { json?: boolean; only?: string; strict?: boolean; plan?: boolean; limit?: string; db?: string; answers?: string[]; requests?: string; ids?: string } & ModelFlags) => {
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
          const mode = opts.ir ? 'ir' : 'dsl';
          const answers = new Map<string, string>();
          // Where each sample's line is, across the files (a batch's output and error files are two).
          const seen = new Map<string, string>();
          let bad = 0;
          for (const path of opts.answers) {
            let answersText: string;
            try {
              answersText = readFileSync(path, 'utf8');
            } catch (e) {
              return refuse(`cannot read ${path}: ${(e as Error).message}`);
            }
            const parsed = parseAnswers(answersText, { mode, known });
            const problems = [...parsed.problems];
            const lines = [...[...parsed.answers.keys()].map((id) => ({ id, line: parsed.lines.get(id)! })), ...parsed.failed];
            for (const { id, line } of lines) {
              const first = seen.get(id);
              if (first) problems.push({ line, code: 'invalid-answer', message: `a second line for ${id} (the first is ${first})` });
              else seen.set(id, `${path}:${line}`);
            }
            for (const p of problems.sort((a, b) => a.line - b.line)) process.stderr.write(`${path}:${p.line}: error ${p.code}: ${p.message}\n`);
            bad += problems.length;
            for (const f of parsed.failed) process.stderr.write(`${path}:${f.line}: note: ${f.id}: ${f.why}; scored as not executed\n`);
            for (const [id, reply] of parsed.answers) answers.set(id, reply);
          }
          if (bad) return refuse(`${bad} bad line${bad === 1 ? '' : 's'} in ${opts.answers.join(', ')}; nothing scored`);
          const notation = notationHint([...answers.values()], mode);
          if (notation) process.stderr.write(`t2m bench: note: ${notation}\n`);
          const scored = ids ?? samples.map((s) => s.id);
          const missing = scored.filter((id) => !seen.has(id)).length;
          if (missing > scored.length / 2) process.stderr.write(`t2m bench: note: ${missing} of the ${scored.length} samples scored have no answer and count as not executed${ids ? '' : ' (--ids @answers.jsonl scores only the answered ones)'}\n`);
          planOptions = { answers, mode };
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

/** A note when most answers look written in the other notation than the mode scores them in. */
function notationHint(replies: readonly string[], mode: 'dsl' | 'ir'): string | undefined {
  const json = replies.filter((r) => /^\s*(```\w*\s*)?[[{]/.test(r)).length;
  const other = mode === 'ir' ? replies.length - json : json;
  if (!replies.length || other <= replies.length / 2) return undefined;
  return mode === 'ir'
    ? `${other} of ${replies.length} answers do not look like JSON: DSL answers are scored without --ir`
    : `${other} of ${replies.length} answers look like JSON: JSON IR answers are scored with --ir`;
}

/** `--ids`: ids separated by commas, or `@file` holding one id a line or JSONL lines with an `id` (a Batch API line's `custom_id`); a message when unusable. */
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
      // A Batch API input or output line names its sample in `custom_id` (its `id` is the batch's).
      const value = JSON.parse(line) as { id?: unknown; custom_id?: unknown };
      id = value.custom_id ?? value.id;
    } catch (e) {
      return `${path}:${i + 1}: not JSON: ${(e as Error).message}`;
    }
    if (typeof id !== 'string' || !id) return `${path}:${i + 1}: no "id" (or Batch API "custom_id") string`;
    ids.push(id);
  }
  return ids.length ? ids : `--ids: ${path} names no sample`;
}
