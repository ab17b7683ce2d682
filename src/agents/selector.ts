/**
 * The second stage of `RETRIEVE … LEVEL` through a language model (spec/semantics.md#experience-memory):
 * `llmSelector(provider)` asks an OpenAI-compatible chat model which candidates help, and
 * `runWithSelector` runs a script with any asynchronous selector. The engine runs a script
 * synchronously in one transaction, so the choices are gathered first, on dry runs of the script
 * (one model call per two-stage retrieval, in order: a choice may change what later statements
 * see), and the script then runs once, for real, with every choice known.
 */
import { quoteData } from './prompt.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import {
  explain, run, statusReward, utilitySelector, type AnySqlDriver, type TurnScorer, type RunOptions, type RunResult, type Selector, type SelectorChoice, type SelectorInput, type Store,
} from '../engine/index.js';
import type { ChatMessage, ChatProvider } from './provider.js';

/** A selector's answer, or why there is none (the default selector then decides, with these warnings). */
export type AsyncChoice = SelectorChoice | { readonly fallback: readonly Diagnostic[] };
export type AsyncSelector = (input: SelectorInput) => Promise<AsyncChoice>;

export interface LlmSelectorOptions {
  /** Characters of each candidate's text shown to the model (default 600). */
  readonly maxText?: number;
  readonly temperature?: number;
}

const SYSTEM = [
  'You choose which past experiences an agent should see before its next step.',
  'An episode is a whole past task (request, final query, outcome); a turn is one past step (state, action, observation).',
  'You get the current request or state, and candidates found by similarity, each with its learned utility (the mean outcome when it was used; null: never used) and how many outcomes that mean has.',
  'A candidate may carry its execution status (ok, error, empty, wrong) and its stored value (the final query, or the action taken). Keep none (an empty list) when none would help.',
  'Prefer experiences that fit the situation and that led to success. Reply with JSON only: {"ids": [<candidate ids, best first, at most pick>], "why": "<one sentence>"}.',
].join(' ');

const clip = (t: string, max: number) => (t.length > max ? `${t.slice(0, max)}…` : t);

/** The messages for one selection: the situation and the candidates, as JSON. */
export function selectorMessages(input: SelectorInput, maxText = 600): ChatMessage[] {
  const situation = {
    level: input.level,
    [input.level === 'turn' ? 'state' : 'request']: input.query,
    pick: input.pick,
    candidates: input.candidates.map((c) => ({
      id: c.id, similarity: Math.round(c.similarity * 1e4) / 1e4, utility: c.utility, outcomes: c.utilityN,
      text: c.text.length > maxText ? `${c.text.slice(0, maxText)}…` : c.text,
      ...(c.status ? { status: c.status } : {}),
      ...(c.value !== undefined && c.value !== null ? { value: clip(typeof c.value === 'string' ? c.value : JSON.stringify(c.value), maxText) } : {}),
    })),
  };
  // Stored texts as data: one JSON literal, C1 and reordering characters escaped too (quoteData).
  return [{ role: 'system', content: SYSTEM }, { role: 'user', content: quoteData(situation) }];
}

/** Reads the model's reply: `{"ids": [...], "why": "..."}` naming candidates only. */
export function readSelection(text: string, input: SelectorInput): AsyncChoice {
  const fallback = (why: string): AsyncChoice => ({ fallback: [diagnostic('selector-fallback', `the model's selection was not used (${why}); the default selector chose`, { severity: 'warning' })] });
  let reply: unknown;
  try {
    // Some models wrap JSON in a fence.
    reply = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return fallback(`not JSON: ${JSON.stringify(text.slice(0, 80))}`);
  }
  const ids = (reply as { ids?: unknown })?.ids;
  if (!Array.isArray(ids)) return fallback('no "ids" list');
  const known = new Set(input.candidates.map((c) => c.id));
  const chosen = [...new Set(ids.map(Number))].filter((id) => known.has(id));
  if (chosen.length === 0 && ids.length > 0) return fallback(`it named ${ids.map(String).join(', ')}, none of them a candidate`);
  const why = (reply as { why?: unknown }).why;
  return { ids: chosen.slice(0, input.pick), why: typeof why === 'string' && why.trim() ? `model: ${why.trim()}` : 'chosen by the model' };
}

/** A selector that asks an OpenAI-compatible chat model (src/agents/openai.ts) which candidates to keep. */
export function llmSelector(provider: ChatProvider, options: LlmSelectorOptions = {}): AsyncSelector {
  return async (input) => {
    const reply = await provider.complete(selectorMessages(input, options.maxText), {
      responseFormat: { type: 'json_object' }, temperature: options.temperature ?? 0,
    });
    if (!reply.ok) {
      return { fallback: reply.diagnostics.map((d) => diagnostic('selector-fallback', `the model gave no selection (${d.code}: ${d.message}); the default selector chose`, { severity: 'warning' })) };
    }
    return readSelection(reply.text, input);
  };
}

interface Gathered {
  readonly candidates: string;
  readonly choice: SelectorChoice;
  readonly warnings: readonly Diagnostic[];
}

const candidateKey = (input: SelectorInput) => JSON.stringify(input.candidates.map((c) => c.id));

/**
 * Gathers an asynchronous selector's choices for a script: dry runs (`explain`) find the first
 * two-stage retrieval without a choice, the selector is asked, and again, in script order (a
 * choice may change what later statements see). Returns a synchronous selector that replays the
 * choices (the default selector where a statement's candidates differ from the gathered ones)
 * for `run`, and the selector's warnings (`selector-fallback`).
 */
export async function gatherSelections(
  store: Store<AnySqlDriver>, irs: readonly unknown[], options: Omit<RunOptions, 'selector' | 'dryRun'> & { readonly selector: AsyncSelector },
): Promise<{ selector: Selector; warnings: Diagnostic[] }> {
  const { selector, ...base } = options;
  const gathered: Gathered[] = [];
  const replay = () => {
    let call = 0;
    let pending: { input: SelectorInput; index: number } | undefined;
    const sync: Selector = (input) => {
      const index = call++;
      const known = gathered[index];
      if (known && known.candidates === candidateKey(input)) return known.choice;
      pending ??= { input, index };
      return utilitySelector(input);
    };
    return { sync, pending: () => pending };
  };
  // At most one model call per two-stage retrieval of the script (and a pass per call).
  for (let pass = 0; pass <= irs.length; pass++) {
    const r = replay();
    const dry = await explain(store, irs, { ...base, selector: r.sync });
    const pending = r.pending();
    if (!pending || !dry.ok) break;
    const { input, index } = pending;
    gathered.length = index;
    const answer = await selector(input);
    const choice = 'fallback' in answer ? utilitySelector(input) : answer;
    gathered[index] = { candidates: candidateKey(input), choice, warnings: 'fallback' in answer ? answer.fallback : [] };
  }
  return { selector: replay().sync, warnings: gathered.flatMap((g) => [...g.warnings]) };
}

/**
 * Runs a script with an asynchronous selector (`gatherSelections`, then one `run` with the
 * choices: one transaction). The selector's warnings are added to the result's diagnostics.
 */
export async function runWithSelector(store: Store<AnySqlDriver>, irs: readonly unknown[], options: Omit<RunOptions, 'selector'> & { readonly selector: AsyncSelector }): Promise<RunResult> {
  const { dryRun, ...rest } = options;
  // One clock for every pass, so that each sees the same records.
  const base = { ...rest, now: rest.now ?? new Date() };
  const { selector, warnings } = await gatherSelections(store, irs, base);
  const result = await (dryRun ? explain : run)(store, irs, { ...base, selector });
  return warnings.length ? { ...result, diagnostics: [...result.diagnostics, ...warnings] } : result;
}

/** A turn's reward from a rubric scorer (a process reward model) that answers later. */
export type AsyncTurnScorer = (input: Parameters<TurnScorer>[0]) => Promise<{ readonly score: number; readonly warnings: readonly Diagnostic[] }>;

const RUBRIC = [
  'You score how much one retrieved past experience helped an agent at one step of a text-to-SQL task.',
  'You get the state the agent was in, the experience it applied, the execution status that followed (ok, error, empty, wrong) and what it observed.',
  'Rubric: 1 the experience fit the state and moved the task forward; 0.5 it fit but did not change the outcome; 0 it did not fit or made things worse.',
  'Reply with JSON only: {"score": <number in [0, 1]>, "why": "<one sentence>"}.',
].join(' ');

/**
 * A rubric turn scorer over an OpenAI-compatible chat model: the dense reward of a turn. An
 * answer that is not a score in [0, 1], or none, falls back to the reward of the execution status
 * (`statusReward`) with a `selector-fallback` warning.
 */
export function llmTurnScorer(provider: ChatProvider, options: { readonly temperature?: number } = {}): AsyncTurnScorer {
  return async (input) => {
    const fallback = (why: string) => ({ score: statusReward(input.status), warnings: [diagnostic('selector-fallback', `the turn scorer's answer was not used (${why}); the status reward was given`, { severity: 'warning' })] });
    const reply = await provider.complete([{ role: 'system', content: RUBRIC }, { role: 'user', content: quoteData({ state: input.state, memory: input.memory, status: input.status, observation: input.observation ?? null }) }], {
      responseFormat: { type: 'json_object' }, temperature: options.temperature ?? 0,
    });
    if (!reply.ok) return fallback(reply.diagnostics.map((d) => d.code).join(', '));
    let score: unknown;
    try { score = (JSON.parse(reply.text.trim().replace(/^```(?:json)?\s*|\s*```$/g, '')) as { score?: unknown })?.score; } catch { return fallback('not JSON'); }
    return typeof score === 'number' && score >= 0 && score <= 1 ? { score, warnings: [] } : fallback(`score ${JSON.stringify(score)}`);
  };
}
