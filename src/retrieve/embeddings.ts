/**
 * Embedding models over the network: a client for the OpenAI-compatible embeddings protocol
 * (`POST {baseUrl}/embeddings` with `{model, input: [texts]}` → `{data: [{index, embedding}]}`),
 * which OpenAI, Ollama's /v1, vLLM and llama.cpp's server speak. Only global `fetch` (no Node
 * import). Texts go in batches; HTTP errors, bad bodies, network failures and timeouts come back
 * as diagnostics, never thrown. `reindexStore` (src/execute/reindex.ts) re-embeds a store with it
 * or with the offline default (spec/retrieval.md).
 */
import { type Code } from '../diagnostics/codes.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { EmbedResult, RemoteEmbedder } from '../text/text.js';
import { errorDetail, postJson } from './http.js';

export type { EmbedResult, RemoteEmbedder } from '../text/text.js';

export interface OpenAIEmbedderOptions {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` (Ollama), `http://127.0.0.1:8080/v1` (llama.cpp). */
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as `Authorization: Bearer …` when given. */
  readonly apiKey?: string;
  /** Texts per request (default 64). */
  readonly batchSize?: number;
  /** Per request (default 60 s). */
  readonly timeoutMs?: number;
  /** For tests and custom transports; default the global fetch. */
  readonly fetch?: typeof fetch;
}

export function embeddingsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/embeddings`;
}

/** The vectors of an embeddings response body, in input order, or why it is not one. */
export function parseEmbeddings(text: string, count: number, url = 'the server'): EmbedResult {
  const bad = (why: string): EmbedResult => ({ ok: false, diagnostics: [diagnostic('embeddings-bad-response', `${url} ${why}`)] });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return bad(`answered with a body that is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
  }
  const data = (json as { data?: unknown })?.data;
  if (!Array.isArray(data)) return bad('answered with JSON that is not an embeddings list (no data array)');
  if (data.length !== count) return bad(`returned ${data.length} embeddings for ${count} texts`);
  const out: Float32Array[] = new Array(count);
  for (const [i, item] of data.entries()) {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    const at = typeof index === 'number' ? index : i;
    if (!Array.isArray(embedding) || !embedding.every((x) => typeof x === 'number') || at < 0 || at >= count) return bad(`returned an item ${i} that is not {index, embedding: number[]}`);
    out[at] = unit(Float32Array.from(embedding as number[]));
  }
  if (out.some((v) => !v) || out.some((v) => v.length !== out[0].length)) return bad('returned embeddings of different lengths, or not one per text');
  return { ok: true, vectors: out };
}

function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

export function openAIEmbedder(config: OpenAIEmbedderOptions): RemoteEmbedder {
  const url = embeddingsUrl(config.baseUrl);
  const batchSize = Math.max(1, config.batchSize ?? 64);
  const timeoutMs = config.timeoutMs ?? 60_000;
  const fail = (code: Code, message: string): EmbedResult => ({ ok: false, diagnostics: [diagnostic(code, message)] });
  async function batch(input: readonly string[]): Promise<EmbedResult> {
    const r = await postJson(url, { model: config.model, input }, { apiKey: config.apiKey, timeoutMs, fetch: config.fetch });
    if (r.kind === 'timeout') return fail('embeddings-timeout', r.message);
    if (r.kind === 'unreachable') return fail('embeddings-unreachable', r.message);
    if (!r.ok) return fail('embeddings-http-error', `POST ${url}: ${r.status}${errorDetail(r.text)}`);
    return parseEmbeddings(r.text, input.length, url);
  }
  return {
    model: config.model,
    async embedMany(texts) {
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const r = await batch(texts.slice(i, i + batchSize));
        if (!r.ok) return r;
        vectors.push(...r.vectors);
      }
      return { ok: true, vectors };
    },
  };
}
