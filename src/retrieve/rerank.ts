/**
 * The reranking hook (spec/retrieval.md, "Reranking"): an optional second stage over the first
 * `top` results of a search (fused BM25 and vectors, weight prior). The caller configures it
 * (`RunOptions.rerank`, `t2m run --rerank-url`), never the script: any function scoring
 * (query, documents), or a server speaking the rerank protocol of llama.cpp's server, Jina,
 * Cohere, vLLM and others (`POST {baseUrl}/rerank` with `{model, query, documents, top_n}` →
 * `{results: [{index, relevance_score}]}`). Only global `fetch` (browser-safe).
 *
 * The call goes through the engine's seam (a `call` request), so a server is awaited by the
 * asynchronous entry points. A reranker that fails — an HTTP error, a timeout, a body that is not
 * a rerank list, a function that throws, a promise on a synchronous drive — never fails the
 * statement: the first stage's order stands and the statement carries a `rerank-failed` warning.
 */
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Code } from '../diagnostics/codes.js';
import type { Io, Row } from './seam.js';
import { errorDetail, postJson } from './http.js';

/** A relevance score per document, in the documents' order (higher is better), or why there is none. */
export type RerankResult = { readonly ok: true; readonly scores: readonly number[] } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Any scoring function: one number per document (higher is more relevant), at once or as a promise. */
export type RerankFunction = (query: string, documents: readonly string[]) => ArrayLike<number> | Promise<ArrayLike<number>>;

export interface Reranker {
  /** Named in explanations and warnings (a model name, or the function's). */
  readonly name: string;
  /** How many first-stage results it reorders (default DEFAULT_RERANK_TOP, at least the search's limit). */
  readonly top?: number;
  /** Answers asynchronously (a server): a `Session` then drives its operations asynchronously, as for a remote embedding model. */
  readonly remote?: boolean;
  rerank(query: string, documents: readonly string[]): RerankResult | Promise<RerankResult>;
}

/** First-stage results a reranker reorders when it does not say. */
export const DEFAULT_RERANK_TOP = 20;

/** A reranker from any scoring function (a cross-encoder in process, a test's scorer…). */
export function functionReranker(fn: RerankFunction, options: { readonly name?: string; readonly top?: number; readonly remote?: boolean } = {}): Reranker {
  const name = options.name ?? (fn.name || 'function');
  const check = (out: ArrayLike<number>, count: number): RerankResult => {
    // Any array of numbers, typed arrays too.
    const scores = Array.isArray(out) || ArrayBuffer.isView(out) ? Array.from(out) : null;
    return scores && scores.length === count && scores.every((s) => typeof s === 'number' && Number.isFinite(s))
      ? { ok: true, scores }
      : fail('rerank-bad-response', `the reranker ${name} did not return one finite number per document (${count})`);
  };
  return {
    name,
    top: options.top,
    remote: options.remote,
    rerank(query, documents) {
      const out = fn(query, documents);
      return isThenable(out) ? Promise.resolve(out).then((s) => check(s, documents.length)) : check(out, documents.length);
    },
  };
}

export interface HttpRerankerOptions {
  /** The API base, e.g. `http://127.0.0.1:8080/v1` (llama.cpp's server), `https://api.jina.ai/v1`; `/rerank` is appended. */
  readonly baseUrl: string;
  /** Sent as `model` (llama.cpp answers with the model it loaded, whatever the name). */
  readonly model: string;
  /** Sent as `Authorization: Bearer …` when given. */
  readonly apiKey?: string;
  /** First-stage results reordered (default DEFAULT_RERANK_TOP). */
  readonly top?: number;
  /** Per request (default 10 s: a search waits for it). */
  readonly timeoutMs?: number;
  /** For tests and custom transports; default the global fetch. */
  readonly fetch?: typeof fetch;
}

export function rerankUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/rerank`;
}

const fail = (code: Code, message: string): RerankResult => ({ ok: false, diagnostics: [diagnostic(code, message, { severity: 'warning' })] });

/** The scores of a rerank response body, in document order, or why it is not one. */
export function parseRerank(text: string, count: number, url = 'the server'): RerankResult {
  const bad = (why: string) => fail('rerank-bad-response', `${url} ${why}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return bad(`answered with a body that is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
  }
  const results = (json as { results?: unknown })?.results;
  if (!Array.isArray(results)) return bad('answered with JSON that is not a rerank list (no results array)');
  // Servers may answer fewer than asked (top_n ignored either way), in any order: a document
  // without a score ranks after those with one, in first-stage order.
  const scores = new Array<number>(count).fill(-Infinity);
  const seen = new Set<number>();
  for (const [i, item] of results.entries()) {
    const { index, relevance_score: score } = (item ?? {}) as { index?: unknown; relevance_score?: unknown };
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || seen.has(index) || typeof score !== 'number' || !Number.isFinite(score)) {
      return bad(`returned a result ${i} that is not {index (one of the ${count} documents, once), relevance_score: number}`);
    }
    seen.add(index);
    scores[index] = score;
  }
  if (!seen.size && count) return bad('returned no results');
  return { ok: true, scores };
}

/** A reranker reached over HTTP: llama.cpp's server (`--rerank`), Jina, Cohere, vLLM, Infinity, TEI's /rerank-compatible routes. */
export function httpReranker(config: HttpRerankerOptions): Reranker {
  const url = rerankUrl(config.baseUrl);
  const timeoutMs = config.timeoutMs ?? 10_000;
  return {
    name: config.model,
    top: config.top,
    remote: true,
    async rerank(query, documents) {
      const r = await postJson(url, { model: config.model, query, documents, top_n: documents.length }, { apiKey: config.apiKey, timeoutMs, fetch: config.fetch });
      if (r.kind !== 'reply') return fail('rerank-failed', r.message);
      if (!r.ok) return fail('rerank-failed', `POST ${url}: ${r.status}${errorDetail(r.text)}`);
      return parseRerank(r.text, documents.length, url);
    },
  };
}

export const isRemoteReranker = (r: Reranker | undefined): boolean => r?.remote === true;

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as PromiseLike<unknown> | null)?.then === 'function';
}

/** The text a reranker reads of a record: its text (a record without one reads as empty). */
export const rerankDocument = (row: Row): string => (typeof row.text === 'string' ? row.text : '');

/** How many first-stage results a search with limit `k` hands to `reranker`. */
export const rerankPool = (reranker: Reranker, k: number): number => Math.max(k, Math.max(1, Math.floor(reranker.top ?? DEFAULT_RERANK_TOP)));

/** What the second stage did to one result: its relevance score and rank by it (1 = best). */
export interface RerankPlace {
  readonly score: number;
  readonly rank: number;
}

/**
 * Reorders `rows` (the first stage's best, best first) by the reranker's scores, ties (and
 * documents it left without a score) in first-stage order. The call goes through the seam
 * (`call`), answered at once on a synchronous drive (a promise there is a failure: the store
 * is driven synchronously) and awaited on an asynchronous one. On any failure: `rows` as they
 * were, and the warning.
 */
export function* rerankRows(reranker: Reranker, query: string, rows: readonly Row[]): Io<{ rows: Row[]; places: Map<number, RerankPlace> } | { warning: Diagnostic }> {
  const documents = rows.map(rerankDocument);
  const answer = (yield {
    kind: 'call',
    call: (canWait: boolean): RerankResult | Promise<RerankResult> => {
      let out: RerankResult | Promise<RerankResult>;
      try {
        out = reranker.rerank(query, documents);
      } catch (e) {
        return fail('rerank-failed', `the reranker ${reranker.name} failed: ${(e as Error)?.message ?? String(e)}`);
      }
      if (!isThenable(out)) return out;
      const settled = Promise.resolve(out).catch((e: unknown) => fail('rerank-failed', `the reranker ${reranker.name} failed: ${(e as Error)?.message ?? String(e)}`));
      return canWait ? settled : fail('rerank-failed', `the reranker ${reranker.name} answers asynchronously and the store is driven synchronously (mark it remote, or run the session asynchronously)`);
    },
  }) as RerankResult;
  if (!answer.ok) {
    const d = answer.diagnostics[0];
    return { warning: diagnostic(d.code, `${d.message}; the first-stage order is kept`, { severity: 'warning' }) };
  }
  const order = rows.map((row, i) => ({ row, i, score: answer.scores[i] }));
  order.sort((a, b) => b.score - a.score || a.i - b.i);
  const places = new Map<number, RerankPlace>();
  order.forEach((o, r) => {
    if (o.score !== -Infinity) places.set(o.row.id, { score: o.score, rank: r + 1 });
  });
  return { rows: order.map((o) => o.row), places };
}

/**
 * The second stage of a search (src/retrieve/search.ts): `rows` reordered by the reranker, each
 * explained with its relevance score and place; on failure, as they were, with the warning on
 * the statement.
 */
export function* reranked(
  x: { warn(code: Code, message: string): void }, reranker: Reranker, query: string, rows: Row[],
  explain: Record<number, { rerank?: number; rerankRank?: number }>,
): Io<Row[]> {
  const r = yield* rerankRows(reranker, query, rows);
  if ('warning' in r) {
    x.warn(r.warning.code, r.warning.message);
    return rows;
  }
  for (const [id, place] of r.places) explain[id] = { ...explain[id], rerank: Math.round(place.score * 1e4) / 1e4, rerankRank: place.rank };
  return r.rows;
}
