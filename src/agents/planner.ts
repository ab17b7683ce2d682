/**
 * The planner: natural language → a checked Text2Mem script, through a ChatProvider.
 *
 * 1. The system prompt is the language card, the answer format, and (given a store) the store's
 *    vocabulary and the memories most related to the request, every stored value quoted as data
 *    (./prompt.ts).
 * 2. The model answers with DSL text (optionally constrained by a GBNF grammar) or with JSON IR
 *    (`response_format: json_schema` of the IR schema).
 * 3. The answer goes through the same front end as `t2m check` and, given a store, a dry run
 *    (`explain`). Errors, formatted with code frames, go back to the model as a user message, up
 *    to `maxRounds` answers in all.
 * 4. The checked script is dry-run (the ids it would touch) and, with `execute`, run as one
 *    transaction.
 * No Node imports: the playground can plan with it in the browser.
 */
import * as z from 'zod';
import type { Policy } from '../check/index.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import { formatDiagnostics } from '../diagnostics/codeFrame.js';
import { type Diagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import type { SourceMap } from '../diagnostics/sourceMap.js';
import { Session, type AnySqlDriver, type RunResult, type Store } from '../engine/index.js';
import { IR } from '../ir/schema.js';
import { irsToText, readInput, textToIr, type CheckedScript } from '../pipeline.js';
import { languageCard } from './card.js';
import { relatedMemories, relatedMemoriesAsync, storeVocabulary, storeVocabularyAsync, type RelatedMemory, type Vocabulary } from './context.js';
import { answerFormat, clockSection, extractScript, oneLineDiagnostic, type PlanMode, repairMessage, storeSection } from './prompt.js';
import type { ChatMessage, ChatProvider, CompleteOptions, ResponseFormat } from './provider.js';

export type { PlanMode };

export interface PlanOptions {
  readonly provider: ChatProvider;
  /**
   * The store the plan is for: its vocabulary and related memories go into the prompt, the plan
   * is dry-run (and run) on it. Any store: one on PostgreSQL is answered after an await.
   */
  readonly store?: Store<AnySqlDriver>;
  /** What the model writes: DSL text (default) or JSON IR. */
  readonly mode?: PlanMode;
  /** DSL mode: a GBNF grammar sent in the request's `grammar` field (llama.cpp). */
  readonly grammar?: string;
  /** IR mode: ask for `response_format: json_schema` with the IR schema (default true). */
  readonly structured?: boolean;
  /** Answers asked of the model in all, the first included (default 3). */
  readonly maxRounds?: number;
  /** How many related memories (a RETRIEVE search for the request) to show the model (default 5; 0: none). */
  readonly related?: number;
  /** Show the store's tags, types and subjects (default true when there is a store). */
  readonly vocabulary?: boolean;
  /** The language card (default: `languageCard()`, or `languageCard({ ir: true })` in IR mode). */
  readonly card?: string;
  /** The caller's actor (the run's identity, whose read permissions shape the prompt). */
  readonly actor?: string;
  /** The caller's tenant (default `default`): the prompt's vocabulary, the dry run and the run stay in it. */
  readonly tenant?: string;
  /** Privileged: let statements' `AS` act as that actor (trusted replays only, e.g. the benchmark). */
  readonly impersonate?: boolean;
  /** The clock for the dry run and the run. */
  readonly now?: Date | string;
  readonly policy?: Policy;
  /** Run the checked script on the store as one transaction. */
  readonly execute?: boolean;
  readonly stream?: boolean;
  readonly temperature?: number;
}

export interface PlanAttempt {
  readonly reply: string;
  readonly diagnostics: readonly Diagnostic[];
}

export interface PlanResult {
  /** The script checked and its dry run (and run, with `execute`) succeeded. */
  readonly ok: boolean;
  /** The script (DSL; in IR mode printed from the IR); empty when there is none. */
  readonly dsl: string;
  readonly irs: readonly IR[];
  /** How many answers the model gave. */
  readonly attempts: number;
  /** The last attempt's diagnostics (provider errors, checker errors and warnings, dry-run refusals). */
  readonly diagnostics: readonly Diagnostic[];
  readonly dryRun?: RunResult;
  readonly run?: RunResult;
  /** The conversation, system prompt first. */
  readonly messages: readonly ChatMessage[];
  readonly history: readonly PlanAttempt[];
}

let irJsonSchema: unknown;

/** The JSON schema the model's IR answer must match: `{schema_list: [IR, ...]}`. */
export function planJsonSchema(): unknown {
  if (!irJsonSchema) {
    const { $schema: _, ...item } = z.toJSONSchema(IR, { unrepresentable: 'any' }) as Record<string, unknown>;
    irJsonSchema = { type: 'object', properties: { schema_list: { type: 'array', items: item, minItems: 1 } }, required: ['schema_list'], additionalProperties: false };
  }
  return irJsonSchema;
}

export function planResponseFormat(): ResponseFormat {
  return { type: 'json_schema', json_schema: { name: 'text2mem_plan', schema: planJsonSchema() } };
}

/** The system prompt for a request (a synchronous store: SQLite; `plan` takes any store). */
export function systemPrompt(request: string, options: Omit<PlanOptions, 'provider' | 'store'> & { readonly store?: Store } = {}): string {
  const store = options.store;
  if (!store) return promptOf(options);
  const vocabulary = options.vocabulary === false ? undefined : storeVocabulary(store, { actor: options.actor, now: nowText(options.now), tenant: options.tenant });
  const related = relatedMemories(store, request, options.related ?? 5, { actor: options.actor, now: options.now, tenant: options.tenant });
  return promptOf(options, vocabulary, related);
}

/** `systemPrompt` on any store. */
async function systemPromptAsync(request: string, options: Omit<PlanOptions, 'provider'>): Promise<string> {
  const store = options.store;
  if (!store) return promptOf(options);
  const vocabulary = options.vocabulary === false ? undefined : await storeVocabularyAsync(store, { actor: options.actor, now: nowText(options.now), tenant: options.tenant });
  const related = await relatedMemoriesAsync(store, request, options.related ?? 5, { actor: options.actor, now: options.now, tenant: options.tenant });
  return promptOf(options, vocabulary, related);
}

const nowText = (now: Date | string | undefined) => (now instanceof Date ? now.toISOString().replace(/\.\d+Z$/, 'Z') : now);

function promptOf(options: Omit<PlanOptions, 'provider' | 'store'>, vocabulary?: Vocabulary, related?: RelatedMemory[]): string {
  const mode = options.mode ?? 'dsl';
  const parts = [options.card ?? languageCard({ ir: mode === 'ir' }), answerFormat(mode)];
  const now = nowText(options.now);
  if (now !== undefined) parts.push(clockSection(now));
  if (related) {
    const described = storeSection(vocabulary, related);
    if (described) parts.push(described);
  }
  return parts.join('\n\n');
}

interface Analysis {
  readonly text: string;
  readonly path: string;
  readonly irs: IR[];
  readonly sourceMaps: SourceMap[];
  readonly diagnostics: Diagnostic[];
  /** The script the engine runs, when the front end found no error. */
  readonly checked?: CheckedScript;
}

/** The model's answer through the front end: DSL text, or JSON (`{schema_list}`, an array, one IR). */
function analyse(reply: string, mode: PlanMode, policy: Policy | undefined): Analysis {
  const script = extractScript(reply, mode);
  if (mode === 'dsl') {
    const r = textToIr(script, { policy });
    const diagnostics = [...r.diagnostics];
    if (!r.statements && !hasErrors(diagnostics)) diagnostics.push(diagnostic('plan-empty', 'the answer holds no statement'));
    return { text: script, path: 'plan.t2m', irs: r.irs, sourceMaps: r.sourceMaps, diagnostics, checked: r.checked };
  }
  let value: unknown;
  try {
    value = JSON.parse(script);
  } catch {
    // readInput reports the JSON syntax error with its position.
    const r = readInput(script.startsWith('{') || script.startsWith('[') ? script : `{${script}`, { policy });
    const diagnostics = hasErrors(r.diagnostics) ? r.diagnostics : [diagnostic('json-syntax', 'the answer is not JSON')];
    return { text: script, path: 'plan.json', irs: [], sourceMaps: [], diagnostics };
  }
  const list = Array.isArray(value) ? value
    : value && typeof value === 'object' && Array.isArray((value as { schema_list?: unknown }).schema_list) ? (value as { schema_list: unknown[] }).schema_list
    : [value];
  // Re-serialised so that code frames point into what the model is shown.
  const text = JSON.stringify(list, null, 2);
  const r = readInput(text, { policy });
  const diagnostics = [...r.diagnostics];
  if (!list.length) diagnostics.push(diagnostic('plan-empty', 'the answer holds no statement'));
  return { text, path: 'plan.json', irs: r.irs, sourceMaps: r.sourceMaps, diagnostics, checked: r.checked };
}

/** The first request `plan` sends: the system prompt (card, answer format, store) and the user's request, and the completion options. */
export async function planRequest(request: string, options: Omit<PlanOptions, 'provider'>): Promise<{ messages: ChatMessage[]; complete: CompleteOptions }> {
  const mode = options.mode ?? 'dsl';
  return {
    messages: [{ role: 'system', content: await systemPromptAsync(request, options) }, { role: 'user', content: request }],
    complete: {
      stream: options.stream,
      temperature: options.temperature,
      ...(mode === 'ir' && options.structured !== false ? { responseFormat: planResponseFormat() } : {}),
      ...(mode === 'dsl' && options.grammar !== undefined ? { grammar: options.grammar } : {}),
    },
  };
}

/** Natural language → a checked script (and its dry run, and its run with `execute`). */
export async function plan(request: string, given: PlanOptions): Promise<PlanResult> {
  // One clock for the prompt, the dry run and the run: the caller's, else this moment.
  const options = { ...given, now: given.now ?? new Date() };
  const mode = options.mode ?? 'dsl';
  const maxRounds = Math.max(1, options.maxRounds ?? 3);
  const { messages, complete } = await planRequest(request, options);
  const runOptions = { now: options.now, actor: options.actor, tenant: options.tenant, impersonate: options.impersonate, policy: options.policy };
  const history: PlanAttempt[] = [];
  const result = (fields: Omit<PlanResult, 'messages' | 'history' | 'attempts'>): PlanResult => ({ ...fields, attempts: history.length, messages, history });
  for (let round = 1; ; round++) {
    const completion = await options.provider.complete(messages, complete);
    if (!completion.ok) {
      // The server failed, not the model: no repair round (the caller may retry).
      history.push({ reply: '', diagnostics: completion.diagnostics });
      return result({ ok: false, dsl: '', irs: [], diagnostics: [...completion.diagnostics] });
    }
    const reply = completion.text;
    const a = analyse(reply, mode, options.policy);
    let diagnostics = a.diagnostics;
    let dryRun: RunResult | undefined;
    const session = options.store ? new Session(options.store, runOptions) : undefined;
    if (!hasErrors(diagnostics) && session && a.checked) {
      dryRun = await session.explain(a.checked);
      // The engine repeats the checker's warnings: keep each once.
      const seen = new Set(diagnostics.map(key));
      diagnostics = [...diagnostics, ...dryRun.diagnostics.filter((d) => !seen.has(key(d)))];
    }
    history.push({ reply, diagnostics });
    messages.push({ role: 'assistant', content: reply });
    const dsl = mode === 'dsl' ? a.text : a.irs.length ? irsToText(a.irs) : '';
    if (!hasErrors(diagnostics)) {
      if (!options.execute || !session || !a.checked) return result({ ok: true, dsl, irs: a.irs, diagnostics, dryRun });
      const ran = await session.run(a.checked);
      const seen = new Set(diagnostics.map(key));
      return result({ ok: ran.ok, dsl, irs: a.irs, diagnostics: [...diagnostics, ...ran.diagnostics.filter((d) => !seen.has(key(d)))], dryRun, run: ran });
    }
    if (round >= maxRounds) {
      const last = diagnostic('plan-unrepaired', `the script still has errors after ${round} answer${round === 1 ? '' : 's'} (--max-rounds ${maxRounds})`);
      return result({ ok: false, dsl, irs: a.irs, diagnostics: [...diagnostics, last], dryRun });
    }
    // A refusal may quote the store (a lock's reason): one line per message, inside a fence.
    messages.push({ role: 'user', content: repairMessage(mode, formatDiagnostics(diagnostics.map(oneLineDiagnostic), { path: a.path, text: a.text })) });
  }
}

const key = (d: Diagnostic): string => `${d.statement}\u0000${d.code}\u0000${d.path ?? ''}`;
