/**
 * The Ask box's planner run (loaded with `import()` on the first Ask, so the planner, the OpenAI
 * client and the language card stay out of the entry chunk): `plan()` from src/agents with
 * `openAIProvider`, on the page's own store (on the main thread, where the store lives: its
 * vocabulary and related memories go into the prompt and every draft is dry-run against it).
 * Nothing is executed: the caller only puts the checked draft into the editor.
 */
import { formatDiagnostics } from '../../src/diagnostics/codeFrame.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { Session, type Store } from '../../src/engine/index.js';
import { textToIr } from '../../src/pipeline.js';
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
  /** The quick fix applied to the model's last draft to make it valid (not ok after the last round otherwise). */
  readonly fixed?: string;
}

/** `text` with one fix's edits applied (from the end, so earlier offsets stay right). */
function applyEdits(text: string, fix: NonNullable<Diagnostic['fix']>): string {
  const edits = [...fix.edits].sort((a, b) => b.range.start.offset - a.range.start.offset);
  for (const e of edits) text = text.slice(0, e.range.start.offset) + e.newText + text.slice(e.range.end.offset);
  return text;
}

/**
 * The last draft after the last answer, made valid by one of its diagnostics' quick fixes (the
 * same checks the planner makes: the front end, then a dry run on the store), if one does.
 */
function quickFixed(dsl: string, diagnostics: readonly Diagnostic[], options: DraftOptions): { dsl: string; fix: string; diagnostics: Diagnostic[] } | undefined {
  for (const d of errorsOf(diagnostics)) {
    if (!d.fix || !d.fix.edits.length) continue;
    const text = applyEdits(dsl, d.fix);
    const r = textToIr(text);
    if (errorsOf(r.diagnostics).length || !r.checked || !r.irs.length) continue;
    let found = r.diagnostics;
    if (options.store) {
      const dry = new Session(options.store, { now: options.now, impersonate: true }).explain(r.checked);
      if (errorsOf(dry.diagnostics).length) continue;
      found = [...found, ...dry.diagnostics];
    }
    return { dsl: text, fix: d.fix.message, diagnostics: found };
  }
  return undefined;
}

/**
 * A fetch that failed before any answer (`TypeError: Failed to fetch`) is a server down or one that
 * does not allow this page's origin (CORS): a no-cors request, which needs no permission, tells them apart.
 */
async function unreachableHint(baseUrl: string): Promise<string> {
  const origin = globalThis.location?.origin ?? 'this page';
  try {
    await globalThis.fetch(baseUrl, { mode: 'no-cors', cache: 'no-store' });
    return `The endpoint answers, but not to this page: it does not allow cross-origin requests (CORS) from ${origin}. Let the server send Access-Control-Allow-Origin (for ${origin} or *) and answer the OPTIONS preflight, or put a proxy that does in front of it.`;
  } catch {
    return `The endpoint could not be reached from this page: check the base URL and that the server is running (and, once it is, that it allows cross-origin requests from ${origin}).`;
  }
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
  if (result.dsl && result.attempts >= options.maxRounds) {
    const fixed = quickFixed(result.dsl, result.diagnostics, options);
    if (fixed) {
      const fixedReport = fixed.diagnostics.length ? formatDiagnostics(fixed.diagnostics, { path: 'ask.t2m', text: fixed.dsl }) : '';
      const n = textToIr(fixed.dsl).irs.length;
      return {
        ok: true, dsl: fixed.dsl, statements: n, attempts: result.attempts, fixed: fixed.fix,
        report: `The last draft had errors after ${answers}; one quick fix made it valid: ${fixed.fix}.${fixedReport ? `\n${fixedReport}` : ''}`,
        summary: `Ask: drafted ${n} statement${n === 1 ? '' : 's'} (${answers}, then the quick fix “${fixed.fix}”) into the editor: review it, then Run`,
      };
    }
  }
  const errors = errorsOf(result.diagnostics);
  const unreachable = errors.find((d) => d.code === 'llm-unreachable');
  if (unreachable && /Failed to fetch|NetworkError|Load failed/i.test(unreachable.message)) {
    const hint = await unreachableHint(options.endpoint.baseUrl);
    return {
      ok: false, dsl: '', statements: 0, attempts: result.attempts, report: `${hint}\n\n${report}`,
      summary: `Ask failed: ${hint.split(':')[0]}`,
    };
  }
  const first = errors.find((d) => d.code !== 'plan-unrepaired') ?? errors[0];
  const why = first ? `${first.code}: ${first.message}` : 'no script';
  return {
    ok: false, dsl: result.dsl, statements, attempts: result.attempts, report,
    summary: result.dsl
      ? `Ask failed: the draft still has errors after ${answers} (${why})`
      : `Ask failed: ${why}`,
  };
}
