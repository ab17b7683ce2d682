/** `t2m plan "<request>" --base-url … --model …`: natural language → a checked script through a model (spec/planning.md). */
import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loaded } from '../startup.js';
import { terminalDiagnostics } from '../input.js';
import { escapeControls, oneLine } from '../../diagnostics/escape.js';

export interface ModelFlags {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  ir?: boolean;
  grammar?: string;
  structured?: boolean;
  maxRounds?: string;
  stream?: boolean;
  timeout?: string;
  temperature?: string;
  related?: string;
}

interface PlanFlags extends ModelFlags {
  db?: string;
  run?: boolean;
  json?: boolean;
  now?: string;
  actor?: string;
  tenant?: string;
}

/** The model options shared by `t2m plan` and `t2m bench --plan`. */
export function addModelOptions(command: Command): Command {
  return command
    .option('--base-url <url>', 'OpenAI-compatible API base, e.g. http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8080/v1 (llama.cpp), https://api.openai.com/v1')
    .option('--model <name>', 'the model name the server knows')
    .option('--api-key <key>', 'bearer token (default: $OPENAI_API_KEY)')
    .option('--ir', 'ask for JSON IR (with response_format json_schema) instead of DSL text')
    .option('--no-structured', 'with --ir: do not send response_format (for servers that reject it)')
    .option('--grammar <gbnf|file>', 'DSL mode: send a GBNF grammar in the request (llama.cpp): "gbnf" for the DSL\'s, or a file')
    .option('--max-rounds <n>', 'answers asked of the model in all, repairs included', '3')
    .option('--stream', 'stream the replies (server-sent events)')
    .option('--timeout <seconds>', 'per request', '120')
    .option('--temperature <t>', 'sampling temperature (default: the server\'s)')
    .option('--related <n>', 'related memories shown to the model (a RETRIEVE search for the request)', '5');
}

type Resolved = { ok: true; options: Record<string, unknown> } | { ok: false; message: string };

export interface AgentModules {
  readonly GBNF: string;
  readonly openAIProvider: typeof import('../../agents/openai.js').openAIProvider;
}

/** Flags → provider and planner options (without a store), or why they are unusable. */
export function modelOptions(flags: ModelFlags, { GBNF, openAIProvider }: AgentModules): Resolved {
  if (!flags.baseUrl) return { ok: false, message: '--base-url is required (an OpenAI-compatible API base such as http://127.0.0.1:11434/v1)' };
  if (!flags.model) return { ok: false, message: '--model is required' };
  const int = (v: string | undefined, name: string, min: number) => {
    const n = Number(v);
    return Number.isInteger(n) && n >= min ? n : `${name} must be an integer ≥ ${min}`;
  };
  const maxRounds = int(flags.maxRounds, '--max-rounds', 1);
  const related = int(flags.related, '--related', 0);
  const timeout = Number(flags.timeout);
  const temperature = flags.temperature === undefined ? undefined : Number(flags.temperature);
  for (const v of [maxRounds, related]) if (typeof v === 'string') return { ok: false, message: v };
  if (!(timeout > 0)) return { ok: false, message: '--timeout must be a positive number of seconds' };
  if (temperature !== undefined && !Number.isFinite(temperature)) return { ok: false, message: '--temperature must be a number' };
  let grammar: string | undefined;
  if (flags.grammar !== undefined) {
    if (flags.ir) return { ok: false, message: '--grammar applies to DSL mode; with --ir the IR schema is sent as response_format' };
    if (flags.grammar === 'gbnf') grammar = GBNF;
    else if (existsSync(flags.grammar)) grammar = readFileSync(flags.grammar, 'utf8');
    else return { ok: false, message: `--grammar: "${flags.grammar}" is neither "gbnf" nor a file` };
  }
  const provider = openAIProvider({ baseUrl: flags.baseUrl, model: flags.model, apiKey: flags.apiKey ?? process.env.OPENAI_API_KEY, timeoutMs: timeout * 1000, stream: flags.stream === true });
  return {
    ok: true,
    options: { provider, mode: flags.ir ? 'ir' : 'dsl', grammar, structured: flags.structured !== false, maxRounds, related, temperature, stream: flags.stream === true },
  };
}

export function planCommand(program: Command): void {
  addModelOptions(
    program
      .command('plan')
      .description('turn a natural-language request into a checked Text2Mem script with an LLM (OpenAI-compatible chat completions), repair it from the checker\'s diagnostics, and dry-run it')
      .argument('<request>', 'what to do, in natural language'),
  )
    .option('--db <store>', "the store: a file, ':memory:', 'pglite:', 'pglite:./dir' or 'postgres://user@host/db' (its vocabulary and related memories go into the prompt; the plan is dry-run and, with --run, run on it); default: an empty in-memory store")
    .option('--run', 'run the checked script (one transaction); without it nothing changes')
    .option('--actor <name>', 'the acting actor (read permissions for the prompt, locks and permissions for the run)')
    .option('--now <iso>', 'privileged: the clock for the dry run and the run')
    .option('--tenant <name>', 'the tenant the command acts in (default: default); a script cannot name another')
    .option('--json', 'print {dsl, irs, attempts, diagnostics, dryRun, run} as JSON')
    .addHelpText('after', '\nExit codes: 0 planned (and run), 1 no script that checks (or the run was refused), 2 bad flags, an unreadable store, or the model server failed.')
    .action(async (request: string, flags: PlanFlags) => {
      const fail = (message: string, code = 2) => {
        process.stderr.write(`t2m plan: ${oneLine(message)}\n`);
        process.exitCode = code;
      };
      const [{ GBNF }, { openAIProvider }, { plan }, { openStoreUrl, storeError }, { formatStatement }, { formatDiagnostics }] = await loaded(Promise.all([
        import('../../agents/gbnf.js'), import('../../agents/openai.js'), import('../../agents/planner.js'), import('../../dialect/open-url.js'),
        import('../engine-output.js'), import('../../diagnostics/codeFrame.js'),
      ]));
      const resolved = modelOptions(flags, { GBNF, openAIProvider });
      if (!resolved.ok) return fail(resolved.message);
      // Any store (spec/storage.md "Naming a store"); without --run a missing store file is not
      // created: the plan is made on an empty in-memory store.
      const opened = await openStoreUrl(flags.db ?? ':memory:', { noCreate: !flags.run });
      if (!opened.ok) return fail(opened.diagnostics.map((d) => `${d.code}: ${oneLine(d.message)}`).join('; '));
      const store = opened.store;
      if (opened.created) process.stderr.write(`t2m plan: created a new store ${opened.name}\n`);
      let result;
      try {
        result = await plan(request, { ...(resolved.options as unknown as Parameters<typeof plan>[1]), store, actor: flags.actor, tenant: flags.tenant, now: flags.now, execute: flags.run === true });
      } catch (e) {
        const d = storeError(opened.name, e);
        if (!d) throw e;
        return fail(`${d.code}: ${oneLine(d.message)}`);
      } finally {
        await store.close();
      }
      const providerFailed = result.diagnostics.some((d) => d.code.startsWith('llm-'));
      if (flags.json) {
        const { dsl, irs, attempts, diagnostics, dryRun, run } = result;
        process.stdout.write(`${JSON.stringify({ ok: result.ok, dsl, irs, attempts, diagnostics, dryRun, ...(run ? { run } : {}) }, null, 2)}\n`);
      } else {
        // The model's script may copy stored text: shown with its control characters escaped.
        if (result.dsl) process.stdout.write(`${escapeControls(result.dsl.trimEnd())}\n`);
        const text = result.dsl;
        const shown = result.diagnostics;
        if (shown.length) process.stderr.write(`${terminalDiagnostics(formatDiagnostics, shown, { path: 'plan', text })}\n`);
        const out = result.run ?? result.dryRun;
        if (result.ok && out) {
          process.stdout.write(`\n${result.run ? 'ran' : 'dry run (nothing changed; --run to run it)'}:\n`);
          for (const r of out.results) process.stdout.write(`${formatStatement(r)}\n`);
        }
        process.stderr.write(`t2m plan: ${result.attempts} answer${result.attempts === 1 ? '' : 's'}${result.ok ? '' : ', no script that checks'}\n`);
      }
      if (!result.ok) process.exitCode = providerFailed ? 2 : 1;
    });
}
