/**
 * Embedding models over the network: a client for the OpenAI-compatible embeddings protocol
 * (`POST {baseUrl}/embeddings` with `{model, input: [texts]}` → `{data: [{index, embedding}]}`),
 * which OpenAI, Ollama's /v1, vLLM and llama.cpp's server speak. Only global `fetch` (no Node
 * import). Texts go in batches; HTTP errors, bad bodies, network failures and timeouts come back
 * as diagnostics, never thrown. `reindexStore` re-embeds a store with it or with the offline
 * default (spec/retrieval.md).
 */
import { DEFAULT_TENANT } from '../store/columns.js';
import { compileUpdateById, decodeRow } from '../compile/index.js';
import { compileSetMeta } from '../compile/meta.js';
import { diagnostic, type Code } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { AnySqlDriver } from '../store/driver.js';
import { all, run } from '../store/io.js';
import type { Store } from '../store/store.js';
import { TOKENS_META_KEY } from './retokenize.js';
import { isRemoteEmbedder, searchedText, searchTextOf, TOKENS_VERSION, type AnyEmbedder, type EmbedResult, type RemoteEmbedder } from './text.js';
import { forgetKeywordIndex } from './keywords.js';
import { forgetVectorIndex } from './vectors.js';

export type { EmbedResult, RemoteEmbedder } from './text.js';

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

const MAX_ERROR_TEXT = 300;

function errorDetail(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string };
    const message = typeof json.error === 'string' ? json.error : json.error?.message;
    if (typeof message === 'string') return `: ${message.slice(0, MAX_ERROR_TEXT)}`;
  } catch {
    // not JSON
  }
  return text.trim() ? `: ${text.trim().slice(0, MAX_ERROR_TEXT)}` : '';
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
  const doFetch = config.fetch ?? globalThis.fetch;
  const batchSize = Math.max(1, config.batchSize ?? 64);
  const timeoutMs = config.timeoutMs ?? 60_000;
  const fail = (code: Code, message: string): EmbedResult => ({ ok: false, diagnostics: [diagnostic(code, message)] });
  async function batch(input: readonly string[]): Promise<EmbedResult> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
      const response = await doFetch(url, { method: 'POST', headers, body: JSON.stringify({ model: config.model, input }), signal: controller.signal });
      const text = await response.text();
      if (!response.ok) return fail('embeddings-http-error', `POST ${url}: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${errorDetail(text)}`);
      return parseEmbeddings(text, input.length, url);
    } catch (e) {
      if (timedOut) return fail('embeddings-timeout', `POST ${url}: no reply within ${timeoutMs} ms`);
      const err = e as Error & { cause?: { code?: string; message?: string } };
      const cause = err.cause?.code ?? err.cause?.message;
      return fail('embeddings-unreachable', `POST ${url}: ${err.message}${cause ? ` (${cause})` : ''}`);
    } finally {
      clearTimeout(timer);
    }
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

export interface ReindexOptions {
  /** The model; default the store's own embedder (the offline default unless the store was given another). */
  readonly embedder?: AnyEmbedder;
  /** Called after each batch with the records done and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  readonly batchSize?: number;
}

export type ReindexResult = { readonly ok: true; readonly records: number; readonly model: string } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * Re-derives every record's search tokens and re-embeds its text (records carrying a caller's
 * own vector keep it), then writes them all in one transaction: a failure part-way (a server
 * error) changes nothing. Soft-deleted records are re-embedded too, so an undo finds them ready.
 * Any store: an SQLite one or a PostgreSQL one (its asynchronous driver is awaited).
 */
export async function reindexStore(store: Store<AnySqlDriver>, options: ReindexOptions = {}): Promise<ReindexResult> {
  const read = { sql: 'SELECT id, tenant, text, tags, subject, topic, embedding_model FROM memory ORDER BY id', params: [] };
  const rows = (await store.driveAsync(all(read.sql, read.params))).map(decodeRow);
  const embedder: AnyEmbedder = options.embedder ?? store.embedder;
  const model = embedder.model;
  const batchSize = options.batchSize ?? 64;
  const updates: { id: number; tenant: string; set: Record<string, unknown> }[] = [];
  for (let i = 0; i < rows.length; i += batchSize) {
    const part = rows.slice(i, i + batchSize);
    const embed = part.filter((r) => r.embedding_model !== 'caller');
    const texts = embed.map((row) => searchedText({ text: row.text }));
    let vectors: Float32Array[];
    if (isRemoteEmbedder(embedder)) {
      const r: EmbedResult = await embedder.embedMany(texts).catch((e: unknown) => ({ ok: false, diagnostics: [diagnostic('embeddings-unreachable', `the embedding model ${model} failed: ${(e as Error)?.message ?? String(e)}`)] }));
      if (!r.ok) return r;
      vectors = r.vectors;
    } else vectors = texts.map((t) => Float32Array.from(embedder.embed(t)));
    const byId = new Map(embed.map((row, k) => [row.id, vectors[k]]));
    for (const row of part) {
      const set: Record<string, unknown> = { search_text: searchTextOf(row) };
      const v = byId.get(row.id);
      if (v) Object.assign(set, { embedding: null, embedding_f32: v, embedding_model: model });
      updates.push({ id: Number(row.id), tenant: String(row.tenant ?? DEFAULT_TENANT), set });
    }
    options.onProgress?.(Math.min(i + batchSize, rows.length), rows.length);
  }
  await store.driveAsync(store.transactionIo(function* () {
    for (const u of updates) {
      const stmt = compileUpdateById(u.id, u.set, store.dialect, u.tenant);
      yield* run(stmt.sql, stmt.params);
    }
    const meta = compileSetMeta(TOKENS_META_KEY, String(TOKENS_VERSION), store.dialect);
    yield* run(meta.sql, meta.params);
    return { commit: true, value: undefined };
  }));
  forgetVectorIndex(store);
  forgetKeywordIndex(store);
  return { ok: true, records: rows.length, model };
}
