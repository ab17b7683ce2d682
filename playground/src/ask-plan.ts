/**
 * The Ask box's planner run (loaded with `import()` on the first Ask, so the planner, the OpenAI
 * client and the language card stay out of the entry chunk): `plan()` from src/agents with
 * `openAIProvider`, on the page's own store (on the main thread, where the store lives: its
 * vocabulary and related memories go into the prompt and every draft is dry-run against it).
 * Nothing is executed: the caller only puts the checked draft into the editor.
 */
import { formatDiagnostics } from '../../src/diagnostics/codeFrame.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { Store } from '../../src/engine/index.js';
import { openAIProvider } from '../../src/agents/openai.js';
import { plan } from '../../src/agents/planner.js';
import type { ChatProvider } from '../../src/agents/provider.js';

export interface Endpoint {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
}

export interface DraftOptions {
  readonly endpoint: Endpoint;
  readonly store?: Store;
  readonly now: Date;
  /** Answers asked of the model in all, the first included. */
  readonly maxRounds: number;
  /** Progress for the status line ("asking model…", "repairing (2/3)…", bytes streamed so far). */
  progress(text: string): void;
  /** Aborts the request in flight (the planner then stops with an `llm-timeout`/`llm-unreachable` diagnostic). */
  readonly signal?: AbortSignal;
}

export interface Draft {
  readonly ok: boolean;
  /** The checked DSL (ok), or the last draft (not ok; may be empty). */
  readonly dsl: string;
  readonly statements: number;
  readonly attempts: number;
  /** One line for the status. */
  readonly summary: string;
  /** The diagnostics with code frames (errors and warnings; empty when there are none). */
  readonly report: string;
}

/** A fetch that reports how many bytes of the reply have arrived, and that `signal` aborts too. */
function progressFetch(onBytes: (n: number) => void, signal: AbortSignal | undefined): typeof fetch {
  return async (input, init) => {
    const signals = [init?.signal, signal].filter((s): s is AbortSignal => !!s);
    const response = await globalThis.fetch(input, { ...init, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] });
    if (!response.body) return response;
    let bytes = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        onBytes(bytes);
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

const errorsOf = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === 'error');

export async function draft(request: string, options: DraftOptions): Promise<Draft> {
  let phase = '';
  const say = (text: string) => {
    phase = text;
    options.progress(text);
  };
  const base = openAIProvider({
    baseUrl: options.endpoint.baseUrl,
    model: options.endpoint.model,
    apiKey: options.endpoint.apiKey || undefined,
    stream: true,
    fetch: progressFetch((n) => options.progress(`${phase} ${n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`} received`), options.signal),
  });
  let round = 0;
  // plan() has no progress callback: counting the provider's calls tells which answer is awaited.
  const provider: ChatProvider = {
    complete(messages, completeOptions) {
      round++;
      say(round === 1 ? 'Ask: asking model…' : `Ask: repairing (${round}/${options.maxRounds})…`);
      return base.complete(messages, completeOptions);
    },
  };
  const result = await plan(request, {
    provider, store: options.store, now: options.now, maxRounds: options.maxRounds, stream: true,
    // The playground lets a statement's AS act as that actor (pipeline.ts): the dry run does too.
    impersonate: true,
  });
  const report = result.diagnostics.length
    ? formatDiagnostics(result.diagnostics, { path: 'ask.t2m', text: result.dsl })
    : '';
  const statements = result.irs.length;
  const answers = `${result.attempts} answer${result.attempts === 1 ? '' : 's'}`;
  if (result.ok) {
    return {
      ok: true, dsl: result.dsl, statements, attempts: result.attempts, report,
      summary: `Ask: drafted ${statements} statement${statements === 1 ? '' : 's'} (${answers}) into the editor: review it, then Run`,
    };
  }
  const errors = errorsOf(result.diagnostics);
  const first = errors.find((d) => d.code !== 'plan-unrepaired') ?? errors[0];
  const why = first ? `${first.code}: ${first.message}` : 'no script';
  return {
    ok: false, dsl: result.dsl, statements, attempts: result.attempts, report,
    summary: result.dsl
      ? `Ask failed: the draft still has errors after ${answers} (${why})`
      : `Ask failed: ${why}`,
  };
}
