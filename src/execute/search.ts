/**
 * Search: the target of `WHERE search "…"` (spec/retrieval.md). Two rankers, each over the
 * records the selection admits (filters, liveness, read permissions, all applied in SQL):
 *   - keywords: BM25 over the keyword index (compileKeywordSearch), the filters joined in;
 *   - vectors: cosine to the query's embedding (asked of the store's embedder through the seam,
 *     so a remote model is awaited by the async entry points): ranked in SQL with the filters in
 *     the same WHERE where the dialect has its own vector type (pgvector, compileVectorSearch);
 *     otherwise over the store's in-memory vector index (./vectors.ts), the nearest checked
 *     against the filters in SQL (compileAdmitted), widened until enough pass.
 * Their scores are fused linearly, BM25 normalised by the search's best (ALPHA weighs vectors
 * against keywords; on eval/retrieval.ts this beat reciprocal-rank fusion, which fell below BM25
 * alone), the record's weight is applied as a prior, and every result keeps its scores.
 */
import { compileAdmitted, compileKeywordSearch, compileVectorSearch, compileKeywordStats, compileRowsByIds, POSTINGS_PER_TERM, type SelectOptions, type SqlStatement } from '../compile/index.js';
import type { Selection } from '../lower/operation.js';
import type { AnySqlDriver } from './driver.js';
import { embed, type Io } from './io.js';
import type { Code } from '../diagnostics/codes.js';
import type { Store } from './store.js';
import { tokens } from './text.js';
import { vectorIndex } from './vectors.js';

export type Row = Record<string, unknown> & { id: number };

/** Why a search result ranks where it does. `null`: the ranker did not find the record among its candidates. */
export interface ScoreExplanation {
  /** BM25 over the keyword index, and the record's rank by it (1 = best). */
  readonly bm25: number | null;
  readonly bm25Rank: number | null;
  /** Cosine similarity of the record's vector to the query's, and its rank by it. */
  readonly vector: number | null;
  readonly vectorRank: number | null;
  /** (1 − α) · bm25 / (the search's best bm25) + α · vector, in [0, 1]. */
  readonly fused: number;
  /** The record's weight (0.5 when it has none) and the final score: fused × (0.5 + weight). */
  readonly weight: number;
  readonly score: number;
}

/** Results of a search without LIMIT. */
export const DEFAULT_SEARCH_K = 10;
/** Each ranker's candidates: at least this many, or 4× the limit. */
export const MIN_CANDIDATES = 50;

export interface SearchContext {
  readonly store: Store<AnySqlDriver>;
  /** Runs a statement (recorded in the statement's SQL log) and returns decoded rows. */
  query(stmt: SqlStatement): Io<Row[]>;
  /** Refuses the statement (the query could not be embedded). */
  refuse(code: Code, message: string): false;
}

export interface SearchResult {
  readonly rows: Row[];
  readonly scores: Record<number, number>;
  readonly explain: Record<number, ScoreExplanation>;
}

/** Keyword candidates: (id, bm25) best first. */
function* keywordRanking(x: SearchContext, sel: Selection, query: string, n: number, opts: SelectOptions): Io<{ id: number; score: number }[]> {
  const terms = [...new Set(tokens(query))];
  if (!terms.length) return [];
  const d = x.store.dialect;
  const stats = yield* x.query(compileKeywordStats(terms, d));
  const idf: Record<string, number> = {};
  let docs = 0, total = 0;
  for (const s of stats) {
    docs = Number(s.docs);
    total = Number(s.tokens);
    const df = Number(s.df);
    if (df > 0) idf[String(s.term)] = Math.log(1 + (docs - df + 0.5) / (df + 0.5));
  }
  if (!Object.keys(idf).length || docs === 0) return [];
  // A term with more postings than POSTINGS_PER_TERM is read from its highest-impact end; when the
  // filters leave fewer than n records of those, the exact statement runs.
  const long = stats.some((s) => Number(s.df) > POSTINGS_PER_TERM);
  function* ranked(pruned: boolean): Io<{ id: number; score: number }[]> {
    return (yield* x.query(compileKeywordSearch(sel, idf, total / docs, n, d, opts, pruned))).map((r) => ({ id: Number(r.id), score: Number(r.bm25) }));
  }
  if (long) {
    const top = yield* ranked(true);
    if (top.length >= n) return top;
  }
  return yield* ranked(false);
}

/** Vector candidates: (id, cosine) best first, among the records the selection admits. */
function* vectorRanking(x: SearchContext, sel: Selection, query: string, n: number, opts: SelectOptions): Io<{ id: number; score: number }[]> {
  const { embedder } = x.store;
  // Through the seam: a remote model is awaited by the async entry points.
  const embedded = yield* embed([query]);
  if (!embedded.ok) return x.refuse(embedded.diagnostics[0].code, embedded.diagnostics[0].message), [];
  const q = embedded.vectors[0];
  let norm = 0;
  for (let i = 0; i < q.length; i++) norm += q[i] * q[i];
  if (!norm) return [];
  if (Math.abs(norm - 1) > 1e-4) for (let i = 0; i < q.length; i++) q[i] /= Math.sqrt(norm);
  // A dialect with its own vectors (pgvector) ranks them in SQL, the filters in the same WHERE.
  if (x.store.dialect.vectors) {
    const rows = yield* x.query(compileVectorSearch(sel, q, embedder.model, n, x.store.dialect, opts));
    return rows.map((r) => ({ id: Number(r.id), score: Number(r.score) })).filter((s) => s.score > 0);
  }
  const index = yield* vectorIndex(x.store, embedder.model, q.length);
  if (!index.size) return [];
  // Nearest first; the filters are checked in SQL on them, widening until n pass or none are left.
  for (let m = n * 4; ; m *= 8) {
    const near = index.nearest(q, Math.min(m, index.size));
    const admitted = new Set((yield* x.query(compileAdmitted(sel, near.map((s) => s.id), x.store.dialect, opts))).map((r) => Number(r.id)));
    const kept = near.filter((s) => admitted.has(s.id));
    if (kept.length >= n || near.length < m || m >= index.size) return kept.slice(0, n);
  }
}

const ORDER: Record<Exclude<Selection['orderBy'], 'relevance'>, (a: Row, b: Row) => number> = {
  time_desc: (a, b) => nullsLast(a.time, b.time, -1) || b.id - a.id,
  time_asc: (a, b) => nullsLast(a.time, b.time, 1) || a.id - b.id,
  weight_desc: (a, b) => nullsLast(a.weight, b.weight, -1) || a.id - b.id,
};

function nullsLast(a: unknown, b: unknown, dir: 1 | -1): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return (a < b ? -1 : 1) * dir;
}

const round = (v: number) => Math.round(v * 1e4) / 1e4;

/**
 * The records a search selects: the `limit` (default 10) best by fused score × weight prior, in
 * relevance order, or re-ordered by the selection's ORDER BY.
 */
export function* searchTarget(x: SearchContext, sel: Selection, opts: SelectOptions): Io<SearchResult> {
  const search = sel.search!;
  const k = sel.limit ?? DEFAULT_SEARCH_K;
  const n = Math.max(MIN_CANDIDATES, 4 * k);
  const alpha = search.alpha;
  const keyword = alpha < 1 ? yield* keywordRanking(x, sel, search.query, n, opts) : [];
  const vector = alpha > 0 ? yield* vectorRanking(x, sel, search.query, n, opts) : [];
  const parts = new Map<number, { bm25: number | null; bm25Rank: number | null; vector: number | null; vectorRank: number | null; fused: number }>();
  const entry = (id: number) => {
    let e = parts.get(id);
    if (!e) parts.set(id, (e = { bm25: null, bm25Rank: null, vector: null, vectorRank: null, fused: 0 }));
    return e;
  };
  // Normalised linear fusion: BM25 scaled by the best BM25 of this search, cosine as it is (both in [0, 1]).
  const top = keyword[0]?.score || 1;
  keyword.forEach((s, i) => {
    const e = entry(s.id);
    e.bm25 = s.score;
    e.bm25Rank = i + 1;
    e.fused += (1 - alpha) * (s.score / top);
  });
  vector.forEach((s, i) => {
    const e = entry(s.id);
    e.vector = s.score;
    e.vectorRank = i + 1;
    e.fused += alpha * s.score;
  });
  if (!parts.size) return { rows: [], scores: {}, explain: {} };
  const rows = yield* x.query(compileRowsByIds([...parts.keys()], x.store.dialect, opts.tenant));
  const explain: Record<number, ScoreExplanation> = {};
  const ranked = rows.map((row) => {
    const e = parts.get(row.id)!;
    const weight = typeof row.weight === 'number' ? row.weight : 0.5;
    const score = e.fused * (0.5 + weight);
    explain[row.id] = {
      bm25: e.bm25 === null ? null : round(e.bm25), bm25Rank: e.bm25Rank,
      vector: e.vector === null ? null : round(e.vector), vectorRank: e.vectorRank,
      fused: round(e.fused), weight, score: round(score),
    };
    return { row, score };
  });
  ranked.sort((a, b) => b.score - a.score || a.row.id - b.row.id);
  const kept = ranked.slice(0, k).map((r) => r.row);
  if (sel.orderBy !== 'relevance') kept.sort(ORDER[sel.orderBy]);
  return {
    rows: kept,
    scores: Object.fromEntries(kept.map((r) => [r.id, explain[r.id].score])),
    explain: Object.fromEntries(kept.map((r) => [r.id, explain[r.id]])),
  };
}
