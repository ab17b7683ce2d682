/**
 * One JSON POST to a model server (remote embeddings, a reranker): a bearer key when given, a
 * timeout, and what came back — a reply, no reply in time, or no connection — as a value, never
 * a throw, so each client words its own diagnostics.
 */

export interface PostOptions {
  readonly apiKey?: string;
  readonly timeoutMs: number;
  /** For tests and custom transports; default the global fetch. */
  readonly fetch?: typeof fetch;
}

export type PostOutcome =
  | { readonly kind: 'reply'; readonly ok: boolean; readonly status: string; readonly text: string }
  | { readonly kind: 'timeout'; readonly message: string }
  | { readonly kind: 'unreachable'; readonly message: string };

const MAX_ERROR_TEXT = 300;

export async function postJson(url: string, body: unknown, options: PostOptions): Promise<PostOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  try {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const response = await (options.fetch ?? globalThis.fetch)(url, { method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal });
    const text = await response.text();
    return { kind: 'reply', ok: response.ok, status: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, text };
  } catch (e) {
    if (timedOut) return { kind: 'timeout', message: `POST ${url}: no reply within ${options.timeoutMs} ms` };
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const cause = err.cause?.code ?? err.cause?.message;
    return { kind: 'unreachable', message: `POST ${url}: ${err.message}${cause ? ` (${cause})` : ''}` };
  } finally {
    clearTimeout(timer);
  }
}

/** `: <the server's error message>` from an error body (OpenAI's `{error: {message}}`, or its text). */
export function errorDetail(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string };
    const message = typeof json.error === 'string' ? json.error : json.error?.message;
    if (typeof message === 'string') return `: ${message.slice(0, MAX_ERROR_TEXT)}`;
  } catch {
    // not JSON
  }
  return text.trim() ? `: ${text.trim().slice(0, MAX_ERROR_TEXT)}` : '';
}
