/**
 * A ChatProvider for OpenAI-compatible chat completions (OpenAI, Ollama's /v1, vLLM, llama.cpp's
 * server, LM Studio…): POST `{baseUrl}/chat/completions`, plain JSON or `stream: true` with
 * server-sent events (`data: {chunk}` lines, ended by `data: [DONE]`). Only global `fetch`: no
 * Node import, so browsers can use it. HTTP errors, bodies that are not completions, network
 * failures and timeouts come back as diagnostics (spec/planning.md#provider-diagnostics).
 */
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { ChatMessage, ChatProvider, CompleteOptions, Completion } from './provider.js';

export interface OpenAIOptions {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` (Ollama), `http://127.0.0.1:8080/v1` (llama.cpp). */
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as `Authorization: Bearer …` when given. */
  readonly apiKey?: string;
  /** The whole request, streamed body included (default 120 s). */
  readonly timeoutMs?: number;
  /** Stream replies by default (each call may override it). */
  readonly stream?: boolean;
  readonly temperature?: number;
  /** Extra request-body fields (e.g. `{ top_p: 0.9 }`). */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** For tests and custom transports; default the global fetch. */
  readonly fetch?: typeof fetch;
}

const MAX_ERROR_TEXT = 500;

export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

/** The request body of a chat completion (exported for tests and for callers that log requests). */
export function completionBody(model: string, messages: readonly ChatMessage[], options: CompleteOptions & { extraBody?: Readonly<Record<string, unknown>> }): Record<string, unknown> {
  return {
    ...options.extraBody,
    model,
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    stream: options.stream === true,
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
    ...(options.responseFormat ? { response_format: options.responseFormat } : {}),
    ...(options.grammar !== undefined ? { grammar: options.grammar } : {}),
  };
}

export function openAIProvider(config: OpenAIOptions): ChatProvider {
  const url = chatCompletionsUrl(config.baseUrl);
  const doFetch = config.fetch ?? globalThis.fetch;
  return {
    async complete(messages, options = {}) {
      const stream = options.stream ?? config.stream ?? false;
      const body = completionBody(config.model, messages, { temperature: config.temperature, ...options, stream, extraBody: config.extraBody });
      const timeoutMs = config.timeoutMs ?? 120_000;
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      const onAbort = () => controller.abort();
      options.signal?.addEventListener('abort', onAbort);
      const fail = (code: Parameters<typeof diagnostic>[0], message: string): Completion => ({ ok: false, diagnostics: [diagnostic(code, message)] });
      try {
        const headers: Record<string, string> = { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' };
        if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
        const response = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal });
        if (!response.ok) {
          const text = await response.text().catch(() => '');
          return fail('llm-http-error', `POST ${url}: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${errorDetail(text)}`);
        }
        const type = response.headers.get('content-type') ?? '';
        // A server may ignore `stream` (or stream when not asked): read what it sent.
        if (type.includes('text/event-stream')) return await readEventStream(response, url);
        return parseCompletion(await response.text(), url);
      } catch (e) {
        if (timedOut) return fail('llm-timeout', `POST ${url}: no complete reply within ${timeoutMs} ms`);
        if (options.signal?.aborted) return fail('llm-timeout', `POST ${url}: cancelled`);
        const err = e as Error & { cause?: { code?: string; message?: string } };
        const cause = err.cause?.code ?? err.cause?.message;
        return fail('llm-unreachable', `POST ${url}: ${err.message}${cause ? ` (${cause})` : ''}`);
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

/** `: <the server's error message>` from an error body (OpenAI's `{error: {message}}` or text). */
function errorDetail(text: string): string {
  if (!text.trim()) return '';
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof json.error === 'string' ? json.error : json.error?.message ?? json.message;
    if (typeof message === 'string') return `: ${message.slice(0, MAX_ERROR_TEXT)}`;
  } catch {
    // not JSON: show the text
  }
  return `: ${text.trim().slice(0, MAX_ERROR_TEXT)}`;
}

/** The assistant's text of a non-streamed completion body. */
export function parseCompletion(text: string, url = 'the server'): Completion {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, diagnostics: [diagnostic('llm-bad-response', `${url} answered with a body that is not JSON: ${JSON.stringify(text.slice(0, 120))}`)] };
  }
  const choice = (json as { choices?: unknown })?.choices;
  const first = Array.isArray(choice) ? (choice[0] as { message?: { content?: unknown; refusal?: unknown } } | undefined) : undefined;
  const content = first?.message?.content;
  if (typeof first?.message?.refusal === 'string' && first.message.refusal) {
    return { ok: false, diagnostics: [diagnostic('llm-bad-response', `the model refused: ${first.message.refusal.slice(0, MAX_ERROR_TEXT)}`)] };
  }
  if (typeof content !== 'string') {
    const error = (json as { error?: { message?: string } })?.error?.message;
    return { ok: false, diagnostics: [diagnostic('llm-bad-response', error ? `${url}: ${error}` : `${url} answered with JSON that is not a chat completion (no choices[0].message.content)`)] };
  }
  return { ok: true, text: content };
}

/**
 * Reads a server-sent event stream of completion chunks: each event's `data:` lines (joined by
 * newlines) hold one JSON chunk whose `choices[0].delta.content` is appended; `data: [DONE]`
 * ends it. Comments (`:`) and other fields are skipped. A chunk with an `error` is a diagnostic.
 */
async function readEventStream(response: Response, url: string): Promise<Completion> {
  let text = '';
  let done = false;
  let chunks = 0;
  let problem: Completion | undefined;
  const onEvent = (data: string): void => {
    if (data === '[DONE]') {
      done = true;
      return;
    }
    let json: { choices?: { delta?: { content?: unknown }; message?: { content?: unknown } }[]; error?: { message?: string } | string };
    try {
      json = JSON.parse(data);
    } catch {
      problem ??= { ok: false, diagnostics: [diagnostic('llm-bad-response', `${url} streamed an event that is not JSON: ${JSON.stringify(data.slice(0, 120))}`)] };
      return;
    }
    if (json.error) {
      const message = typeof json.error === 'string' ? json.error : json.error.message ?? JSON.stringify(json.error);
      problem ??= { ok: false, diagnostics: [diagnostic('llm-http-error', `${url} reported an error mid-stream: ${message}`)] };
      return;
    }
    chunks++;
    const delta = json.choices?.[0]?.delta?.content ?? json.choices?.[0]?.message?.content;
    if (typeof delta === 'string') text += delta;
  };
  const body = response.body;
  if (!body) return { ok: false, diagnostics: [diagnostic('llm-bad-response', `${url} sent an empty event stream`)] };
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let data: string[] = [];
  const line = (l: string) => {
    if (l === '') {
      if (data.length) onEvent(data.join('\n'));
      data = [];
      return;
    }
    if (l.startsWith(':')) return;
    const colon = l.indexOf(':');
    const field = colon < 0 ? l : l.slice(0, colon);
    const value = colon < 0 ? '' : l.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
  };
  while (!done) {
    const { value, done: ended } = await reader.read();
    buffer += value ? decoder.decode(value, { stream: true }) : decoder.decode();
    let nl: number;
    while (!done && (nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const l = buffer.slice(0, nl);
      buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
      line(l);
    }
    if (ended) {
      if (buffer) line(buffer);
      line('');
      break;
    }
  }
  if (done) await reader.cancel().catch(() => undefined);
  if (problem) return problem;
  if (!done && chunks === 0) return { ok: false, diagnostics: [diagnostic('llm-bad-response', `${url}: the event stream ended without a completion chunk or data: [DONE]`)] };
  return { ok: true, text };
}
