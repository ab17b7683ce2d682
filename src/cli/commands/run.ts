/** `t2m run <file> [--db store.sqlite] [--now <iso>] [--strict] [--json]`: execute a DSL script or IR file. */
import { existsSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import { loaded } from '../startup.js';
import { oneLine } from '../../diagnostics/escape.js';
import { type Diagnostic, hasErrors } from '../../diagnostics/diagnostic.js';
import { displayName, printDiagnostics, readSource } from '../input.js';

interface RunFlags {
  db?: string;
  now?: string;
  tick?: string;
  json?: boolean;
  explain?: boolean;
  actor?: string;
  tenant?: string;
  trace?: string;
  sweep?: boolean;
  dryRun?: boolean;
  strict?: boolean;
  allowImpersonation?: boolean;
  maxStatements?: number;
  maxText?: number;
  maxRows?: number;
  maxInput?: number;
  selectorUrl?: string;
  selectorModel?: string;
  rerankUrl?: string;
  rerankModel?: string;
  rerankTop?: number;
  rerankTimeout?: number;
  embedUrl?: string;
  embedModel?: string;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

export function runCommand(program: Command): void {
  program
    .command('run')
    .description('run a DSL script or IR JSON/JSONL as one transaction and print what each statement did')
    .argument('<file>', 'input file, or - for stdin')
    .option('--db <store>', "the store: a file (created when missing; each run is one transaction, written in place), ':memory:', 'pglite:', 'pglite:./dir' or 'postgres://user@host/db'; default: a temporary in-memory store")
    .option('--now <iso>', 'privileged: the clock, e.g. 2025-10-21T00:00:00Z (default: the current time); it decides which locks and expiries are in force and stamps the audit log')
    .option('--tick <duration>', 'privileged, with --now: the clock moves on by this ISO-8601 duration before each statement after the first (statement i runs at now + i × tick), to replay statements recorded over time')
    .option('--actor <name>', 'the acting actor (for locks, permissions, private reads and the audit log); a statement\'s AS must match it')
    .option('--tenant <name>', 'the tenant the command acts in (default: default); a script cannot name another')
    .option('--trace <id>', 'the run\'s trace id, stored with what it writes (default: a new random id)')
    .option('--allow-impersonation', 'privileged: let each statement\'s AS "<actor>" act as that actor (for replaying trusted scripts only)')
    .option('--sweep', 'first apply due expiry actions (soft/hard delete, demote, anonymize)')
    .option('--dry-run', 'plan only: print the SQL and the would-be affected ids, change nothing')
    .option('--strict', 'strict policy: warnings refuse the script, the slips read as meant (no stage, filter.tags, …) included')
    .option('--json', 'print the result as JSON')
    .option('--explain', 'show what each search result\'s score is made of: BM25 and vector scores with their ranks, the fused score, the weight prior and a reranker\'s score (spec/retrieval.md)')
    .option('--max-statements <n>', 'refuse a script with more statements (default 100000)', positiveInt)
    .option('--max-text <n>', 'refuse a stored string longer than this many characters (default 16777216)', positiveInt)
    .option('--max-rows <n>', 'rows one RETRIEVE returns at most; the rest are left out with a warning (default 10000)', positiveInt)
    .option('--selector-url <url>', 'RETRIEVE … LEVEL asks this OpenAI-compatible model which candidates to keep (API base, e.g. http://127.0.0.1:11434/v1; key from OPENAI_API_KEY); default: similarity plus learned utility')
    .option('--selector-model <name>', 'the model for --selector-url', 'gpt-4o-mini')
    .option('--rerank-url <url>', 'rerank the first results of every search with this /v1/rerank server (API base, e.g. http://127.0.0.1:8080/v1 for llama.cpp\'s server, https://api.jina.ai/v1; key from RERANK_API_KEY); a failure keeps the first-stage order with a warning (spec/retrieval.md#reranking)')
    .option('--rerank-model <name>', 'the model for --rerank-url', 'reranker')
    .option('--rerank-top <n>', 'with --rerank-url: how many first-stage results it reorders (default 20, at least the search\'s LIMIT)', positiveInt)
    .option('--rerank-timeout <seconds>', 'with --rerank-url: per request (default 10)', positiveInt)
    .option('--embed-url <url>', 'embed new records and search queries with this OpenAI-compatible /v1/embeddings model (API base; key from OPENAI_API_KEY): the model a store was reindexed with (t2m reindex --base-url); default the offline embedder (spec/retrieval.md#query-embeddings-and-the-stores-model)')
    .option('--embed-model <name>', 'with --embed-url: the embedding model name')
    .option('--max-input <bytes>', 'refuse an input file larger than this (default 67108864)', positiveInt)
    .addHelpText('after', '\nExit codes: 0 done, 1 the script failed (nothing changed), 2 the input or store could not be read.')
    .action(async (file: string, flags: RunFlags) => {
      const text = readSource('run', file, flags.maxInput);
      if (text === undefined) return;
      // Loaded on use so the other commands do not pay for the front end or the engine.
      const [{ readInput }, { Session }, { openStoreUrl, storeError }, { formatStatement, jsonReplacer }] = await loaded(Promise.all([
        import('../../pipeline.js'), import('../../engine/index.js'), import('../../dialect/open-url.js'), import('../engine-output.js'),
      ]));
      // Only what the run needs is kept: the syntax tree (a few kilobytes a statement) is let go
      // before the engine runs.
      const policy = flags.strict ? 'strict' : 'default';
      const limits = { maxStatements: flags.maxStatements, maxTextLength: flags.maxText, maxRows: flags.maxRows };
      const { irs, diagnostics: inputDiagnostics, checked } = readInput(text, { policy, maxTextLength: flags.maxText });
      const input = { irs, diagnostics: inputDiagnostics };
      if (!checked || hasErrors(input.diagnostics)) {
        if (flags.json) process.stdout.write(`${JSON.stringify({ ok: false, results: [], diagnostics: input.diagnostics }, null, 2)}\n`);
        else await printDiagnostics(process.stderr, input.diagnostics, file, text);
        process.exitCode = 1;
        return;
      }
      // Any store name (spec/storage.md "Naming a store"). A mistyped --db path would otherwise
      // look like an empty store: say a new one is made. A dry run on a missing file runs on an
      // empty in-memory store and creates nothing.
      if (flags.embedUrl && !flags.embedModel) {
        process.stderr.write('t2m run: --embed-url needs --embed-model\n');
        process.exitCode = 2;
        return;
      }
      const [{ openAIEmbedder }, { httpReranker }] = flags.embedUrl || flags.rerankUrl ? await loaded(Promise.all([import('../../retrieve/embeddings.js'), import('../../retrieve/rerank.js')])) : [{}, {}];
      const embedder = flags.embedUrl ? openAIEmbedder!({ baseUrl: flags.embedUrl, model: flags.embedModel!, apiKey: process.env.OPENAI_API_KEY }) : undefined;
      const rerank = flags.rerankUrl
        ? httpReranker!({ baseUrl: flags.rerankUrl, model: flags.rerankModel ?? 'reranker', apiKey: process.env.RERANK_API_KEY, top: flags.rerankTop, timeoutMs: (flags.rerankTimeout ?? 10) * 1000 })
        : undefined;
      const opened = await openStoreUrl(flags.db ?? ':memory:', { noCreate: flags.dryRun === true, embedder });
      if (!opened.ok) {
        for (const d of opened.diagnostics) process.stderr.write(`t2m run: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      }
      const store = opened.store;
      if (opened.created) process.stderr.write(`t2m run: created a new store ${opened.name}\n`);
      const base = { now: flags.now ?? (flags.selectorUrl ? new Date().toISOString() : undefined), ...(flags.tick !== undefined ? { tick: flags.tick } : {}), actor: flags.actor, tenant: flags.tenant, traceId: flags.trace, impersonate: flags.allowImpersonation === true, limits, policy } as const;
      // A model selector answers asynchronously: its choices are gathered first, on dry runs (spec/semantics.md#experience-memory).
      let gathered: { selector: import('../../engine/index.js').Selector; warnings: Diagnostic[] } | undefined;
      if (flags.selectorUrl) {
        const [{ gatherSelections, llmSelector }, { openAIProvider }] = await loaded(Promise.all([import('../../agents/selector.js'), import('../../agents/openai.js')]));
        const provider = openAIProvider({ baseUrl: flags.selectorUrl, model: flags.selectorModel ?? 'gpt-4o-mini', apiKey: process.env.OPENAI_API_KEY });
        gathered = await gatherSelections(store, input.irs, { ...base, selector: llmSelector(provider) });
      }
      const session = new Session(store, { ...base, ...(gathered ? { selector: gathered.selector } : {}), ...(rerank ? { rerank } : {}) });
      // The sweep and the script are one transaction (one BEGIN IMMEDIATE on a store file, one
      // SERIALIZABLE transaction on PostgreSQL, rerun whole if it loses a conflict): both commit,
      // or neither does. Nothing is printed until the commit has succeeded.
      let result: import('../../engine/index.js').SessionRunResult;
      try {
        result = await session.run(checked, { sweep: flags.sweep === true, dryRun: flags.dryRun === true, traceId: flags.trace });
      } catch (e) {
        const d = storeError(opened.name, e);
        if (!d) throw e;
        process.stderr.write(`t2m run: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        await store.close();
        return;
      }
      await store.close();
      const swept = result.swept;
      const diagnostics = [...result.diagnostics, ...(gathered?.warnings ?? [])];
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ ...result, diagnostics, swept: swept?.applied }, jsonReplacer, 2)}\n`);
      } else {
        if (swept?.applied.length) process.stdout.write(`sweep: ${swept.applied.map((a) => `#${a.id} ${a.action}`).join(', ')}\n`);
        if (result.ok) for (const r of result.results) process.stdout.write(`${formatStatement(r, { explain: flags.explain })}\n`);
        await printDiagnostics(result.ok ? process.stdout : process.stderr, diagnostics, file, text);
        if (!result.ok) process.stderr.write(`${displayName(file)}: the script was rolled back; nothing changed\n`);
      }
      if (!result.ok) process.exitCode = 1;
    });
}

