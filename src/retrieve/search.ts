/**
 * Search: the target of `WHERE search "…"` (spec/retrieval.md). Two rankers, each over the
 * tenant's in-memory index (statistics and candidates of its own records only), their winners checked against the statement's filters (liveness,
 * tenant, read permissions, tags, time…) in SQL, widening until each has enough that pass:
 *   - keywords: BM25 over the keyword index (./keywords.ts), or in SQL where the caller opened a
 *     PostgreSQL store with `keywords=server` (the dialect's `keywords`, the same scores); when the filters admit too few of
 *     its winners, they are selective: SQL lists what they admit (compileTargetIds) and only
 *     those are scored, so the filters apply before scoring;
 *   - vectors: cosine to the query's embedding (asked of the store's embedder through the seam,
 *     so a remote model is awaited by the async entry points): ranked in SQL with the filters in
 *     the same WHERE where the dialect has its own vector type (pgvector, compileVectorSearch);
 *     otherwise an exact scan of the in-memory vector index (./vectors.ts).
 * The winners are checked in one statement (compileAdmitted), and only the results are read. Their scores
 * are fused linearly, BM25 normalised by the search's best (ALPHA weighs vectors against
 * keywords; on eval/retrieval.ts this beat reciprocal-rank fusion, which fell below BM25 alone),
 * the record's weight is applied as a prior, and every result keeps its scores.
 */
import { BM25, compileAdmitted, compileTargetIds, compileVectorSearch, type SelectOptions, type SqlStatement } from '../compile/index.js';
import { DEFAULT_TENANT } from '../store/columns.js';
import type { Selection } from '../lower/operation.js';
import type { Code } from '../diagnostics/codes.js';
import { keywordIndex } from './keywords.js';
import type { Io, KeywordRanking, Row, SearchStore } from './seam.js';
import { tokens, type EmbedResult } from '../text/text.js';
import { indexVersion, modelMismatch, rescore, vectorIndex, type Scored } from './vectors.js';
import { reranked, rerankPool, type Reranker } from './rerank.js';

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
  /**
   * Neighbour context: the fused scores of the tenant's records written just before and after
   * this one (CONTEXT_WEIGHTS by distance), summed; 0 when none of them was found.
   */
  readonly context: number;
  /** The record's weight (0.5 when it has none) and the final score: (fused + context) × (0.5 + weight). */
  readonly weight: number;
  readonly score: number;
  /** With a reranker (./rerank.ts): its relevance score and the rank by it, which is the result's order. */
  readonly rerank?: number;
  readonly rerankRank?: number;
  /** `server`: BM25 was scored by the database (a store opened with `keywords=server`); absent: by the engine's in-memory index. */
  readonly keywords?: 'server';
}

/** Results of a search without LIMIT. */
export const DEFAULT_SEARCH_K = 10;
/** Each ranker's candidates: at least this many, or 4× the limit. */
export const MIN_CANDIDATES = 50;
/** Each widening checks this many times more winners against the filters. */
export const WIDEN = 8;
/**
 * The keyword side widens once (to WIDEN × its candidates); when the filters still admit too few,
 * they are selective, and they are applied before scoring instead.
 */
export const KEYWORD_WIDENINGS = 1;
/**
 * Neighbour context: a record gains these shares of the fused scores of the tenant's records one
 * and two places before and after it in the order they were written (a conversation's adjacent
 * turns), so a short reply ("Yes, last Saturday!") is found through the turn it answers. Fitted
 * on LoCoMo's development conversations (spec/retrieval.md).
 */
export const CONTEXT_WEIGHTS: readonly number[] = [0.6, 0.3];
/** The largest prior factor (0.5 + weight, weights in [0, 1]): bounds what a record found only by its neighbours can score. */
const MAX_PRIOR = 1.5;

export interface SearchContext {
  readonly store: SearchStore;
  /** Runs a statement (recorded in the statement's SQL log) and returns decoded rows. */
  query(stmt: SqlStatement): Io<Row[]>;
  /** Refuses the statement (the query could not be embedded). */
  refuse(code: Code, message: string): false;
  /** Adds a warning to the statement (a reranker that failed, a query embedded by another model than the records'). */
  warn(code: Code, message: string): void;
  /** The caller's second stage (./rerank.ts), if any. */
  readonly rerank?: Reranker;
}

export interface SearchResult {
  readonly rows: Row[];
  readonly scores: Record<number, number>;
  readonly explain: Record<number, ScoreExplanation>;
}

/** The query's embedding as a unit vector (null when it has no features, or the store's model refused: then the statement is refused). */
function* queryVector(x: SearchContext, query: string): Io<Float32Array | null> {
  // Through the seam: a remote model is awaited by the async entry points.
  const embedded = (yield { kind: 'embed', texts: [query] }) as EmbedResult;
  if (!embedded.ok) return x.refuse(embedded.diagnostics[0].code, embedded.diagnostics[0].message), null;
  const q = embedded.vectors[0];
  let norm = 0;
  for (let i = 0; i < q.length; i++) norm += q[i] * q[i];
  if (!norm) return null;
  if (Math.abs(norm - 1) > 1e-4) for (let i = 0; i < q.length; i++) q[i] /= Math.sqrt(norm);
  return q;
}

/** One ranker's widening: its best `m` winners, of which the first `n` the filters admit are kept. */
interface Ranker {
  /** The best `m` (fewer when it has no more), best first. */
  winners(m: number): Io<Scored[]>;
  m: number;
  widenings: number;
  kept: Scored[] | null;
}

/**
 * Each ranker's `n` best records among those the selection admits, and the id and weight of
 * each admitted one. Winners are checked in SQL (once each); a ranker whose winners the filters thin out
 * below `n` widens (×WIDEN) until it has `n` or has no more; the keyword ranker, after
 * KEYWORD_WIDENINGS, scores only what the filters admit.
 */
function* candidates(x: SearchContext, sel: Selection, query: string, alpha: number, n: number, opts: SelectOptions): Io<{ keyword: Scored[]; vector: Scored[]; rows: Map<number, Row>; neighbours: Neighbours | null; check(ids: readonly number[]): Io<void> }> {
  const d = x.store.dialect;
  const rows = new Map<number, Row>();
  const checked = new Set<number>();
  function* check(ids: readonly number[]): Io<void> {
    const fresh = [...new Set(ids)].filter((id) => !checked.has(id));
    if (!fresh.length) return;
    for (const id of fresh) checked.add(id);
    for (const r of yield* x.query(compileAdmitted(sel, fresh, d, opts))) rows.set(Number(r.id), r);
  }
  const version = yield* indexVersion();
  const terms = alpha < 1 ? [...new Set(tokens(query))] : [];
  const fusedContext = alpha > 0 && alpha < 1 && CONTEXT_WEIGHTS.length > 0;
  // The caller may have the database score keywords (`keywords=server`): then no in-memory index
  // is loaded, and the neighbours of the context are asked of the database too.
  const server = d.keywords;
  // The keyword index also gives the neighbours of a fused search's context.
  const kw = !server && (terms.length || fusedContext) ? yield* keywordIndex(x.store, version, opts.tenant) : null;
  const stats = server && terms.length ? yield* serverStats(x, server, terms, version, opts.tenant) : null;
  const tenant = opts.tenant ?? DEFAULT_TENANT;
  const scoreOnServer = function* (m: number, among?: readonly number[]): Io<Scored[]> {
    if (!stats || (among && !among.length)) return [];
    const scored = (holding?: readonly string[]) => x.query(server!.score(tenant, stats.terms, stats.idf, stats.meanLength, BM25.k1, BM25.b, m, among, holding));
    const read = (rows: Row[]) => rows.map((r) => ({ id: Number(r.id), score: Number(r.score) }));
    // Max-score, as the in-memory index prunes: first only the records holding the rarest terms
    // that hold at least `m` records between them (scored with every term). A record holding none
    // of them scores at most what the other terms can add (each less than idf · (k1 + 1)); when the
    // m-th best so far is above that, these are the best m, exactly; otherwise every record holding a term is scored.
    const { terms: list, idf, df } = stats;
    let j = 0;
    for (let held = 0; j < list.length && held < m; j++) held += df[j];
    if (!among && j < list.length) {
      let rest = 0;
      for (let k = j; k < list.length; k++) rest += idf[k] * (BM25.k1 + 1);
      const first = read(yield* scored(list.slice(0, j)));
      if (first.length >= m && first[m - 1].score > rest * (1 + 1e-9)) return first;
    }
    return read(yield* scored());
  };
  const q = alpha > 0 ? yield* queryVector(x, query) : null;
  // Records whose vectors another model made are not compared with the query's: say so.
  const mismatch = q ? yield* modelMismatch(x.store, x.store.embedder.model, version, opts.tenant) : null;
  if (mismatch) x.warn('embedding-model-mismatch', mismatch);
  // A dialect with its own vectors (pgvector) ranks them in SQL, the filters in the same WHERE.
  // Its single-precision distances can swap near-ties at the n-th place, so it returns a margin
  // the engine rescores and cuts to n: the candidate set is the engine's own (the context lends
  // from every candidate, so a different boundary would change results).
  const inSql = q && d.vectors ? rescore(x.store.embedder.model, q, yield* x.query(compileVectorSearch(sel, q, x.store.embedder.model, 2 * n, d, opts)), n) : null;
  if (inSql) yield* check(inSql.map((s) => s.id));
  const vx = q && !inSql ? yield* vectorIndex(x.store, x.store.embedder.model, q.length, version, opts.tenant) : null;
  const keyword: Ranker = {
    winners: server ? (m) => scoreOnServer(m) : function* (m) { return kw!.search(terms, m); },
    m: n, widenings: 0, kept: (kw || stats) && terms.length ? null : [],
  };
  const vector: Ranker = { winners: function* (m) { return vx!.nearest(q!, m); }, m: n, widenings: 0, kept: inSql ?? (vx?.size ? null : []) };
  while (!keyword.kept || !vector.kept) {
    const open = [keyword, vector].filter((r) => !r.kept);
    const found: Scored[][] = [];
    for (const r of open) found.push(yield* r.winners(r.m));
    yield* check(found.flat().map((s) => s.id));
    for (const [i, r] of open.entries()) {
      const admitted = found[i].filter((s) => rows.has(s.id));
      if (admitted.length >= n || found[i].length < r.m) r.kept = admitted.slice(0, n);
      else if (r === keyword && r.widenings >= KEYWORD_WIDENINGS) {
        // The filters are selective: score only what they admit.
        const ids = (yield* x.query(compileTargetIds(sel, d, opts))).map((row) => Number(row.id));
        r.kept = server ? yield* scoreOnServer(n, ids) : kw!.searchAmong(terms, ids, n);
        yield* check(r.kept.map((s) => s.id));
      } else {
        r.m *= WIDEN;
        r.widenings++;
      }
    }
  }
  const neighbours: Neighbours | null = kw ? function* () { return (id, steps) => kw.neighbour(id, steps); }
    : server && fusedContext ? serverNeighbours(x, server, tenant) : null;
  return { keyword: keyword.kept, vector: vector.kept, rows, neighbours, check };
}

/** The neighbours of a fused search's context: given the candidates that lend, the record `steps` places from a record. */
type Neighbours = (lenders: readonly number[]) => Io<(id: number, steps: number) => number | null>;

/** The server ranker's statistics of a query: its terms held by some record, rarest first (as the engine sums them), their idf and the mean length. */
interface ServerStats {
  readonly terms: string[];
  readonly idf: number[];
  readonly df: number[];
  readonly meanLength: number;
}

/**
 * Each store's tenants' record count and total length, read in a transaction that had written
 * nothing, by the store's index counter then: every committed write of tokens or liveness (any
 * connection's) moves the counter, so a committed state has one counter value. A transaction
 * with writes of its own reads them afresh (its counter may equal a committed one's).
 */
const totalsSeen = new WeakMap<SearchStore, { version: number; tenants: Map<string, { docs: number; tokens: number }> }>();

/**
 * The tenant's keyword statistics from the database, turned into idf and the mean length here,
 * with the in-memory index's own operations (so the same doubles), and its order of the terms.
 */
function* serverStats(x: SearchContext, server: KeywordRanking, terms: readonly string[], version: number, tenant: string = DEFAULT_TENANT): Io<ServerStats | null> {
  const rows = yield* x.query(server.df(tenant, terms));
  const committed = rows[0]?.committed === 1 || rows[0]?.committed === true;
  let seen = totalsSeen.get(x.store);
  if (committed && (!seen || seen.version !== version)) totalsSeen.set(x.store, (seen = { version, tenants: new Map() }));
  let totals = committed ? seen!.tenants.get(tenant) : undefined;
  if (!totals) {
    const [row] = yield* x.query(server.totals(tenant));
    totals = { docs: Number(row?.docs ?? 0), tokens: Number(row?.tokens ?? 0) };
    if (committed) seen!.tenants.set(tenant, totals);
  }
  const { docs } = totals;
  if (!docs) return null;
  const meanLength = totals.tokens / docs;
  const list: { term: string; idf: number; df: number }[] = [];
  for (const r of rows) {
    const df = Number(r.df);
    if (df > 0) list.push({ term: terms[Number(r.i) - 1], idf: Math.log(1 + (docs - df + 0.5) / (df + 0.5)), df });
  }
  // A stable sort, as the index's: equal idf keep the query's order.
  list.sort((a, b) => b.idf - a.idf);
  return list.length ? { terms: list.map((t) => t.term), idf: list.map((t) => t.idf), df: list.map((t) => t.df), meanLength } : null;
}

/** The neighbours of the lending candidates, asked of the database in one statement. */
function serverNeighbours(x: SearchContext, server: KeywordRanking, tenant: string): Neighbours {
  return function* (lenders: readonly number[]): Io<(id: number, steps: number) => number | null> {
    const near = new Map<number, { before: number[]; after: number[] }>();
    if (lenders.length) {
      for (const r of yield* x.query(server.neighbours(tenant, lenders, CONTEXT_WEIGHTS.length))) {
        const ids = (v: unknown) => (typeof v === 'string' && v ? v.split(' ').map(Number) : []);
        near.set(Number(r.id), { before: ids(r.before), after: ids(r.after) });
      }
    }
    return (id, steps) => {
      const e = near.get(id);
      if (!e) return null;
      return (steps < 0 ? e.before[-steps - 1] : e.after[steps - 1]) ?? null;
    };
  };
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

/** A candidate's scores before its prior (ScoreExplanation's parts). */
export interface Parts { bm25: number | null; bm25Rank: number | null; vector: number | null; vectorRank: number | null; fused: number; context: number }

const NONE: Parts = { bm25: null, bm25Rank: null, vector: null, vectorRank: null, fused: 0, context: 0 };

/**
 * Normalised linear fusion of each ranker's candidates (best first): BM25 scaled by the best BM25
 * of this search, cosine as it is (both in [0, 1]); a ranker that did not find a record adds 0.
 */
export function fuse(keyword: readonly Scored[], vector: readonly Scored[], alpha: number): Map<number, Parts> {
  const parts = new Map<number, Parts>();
  const entry = (id: number) => {
    let e = parts.get(id);
    if (!e) parts.set(id, (e = { ...NONE }));
    return e;
  };
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
  return parts;
}

/**
 * Neighbour context: what each record gains from the candidates next to it — each candidate lends
 * `weights[d − 1]` × its fused score to the records `d` places before and after it (`neighbour`:
 * the tenant's order of writing). Records that are not candidates may gain too.
 */
export function context(parts: ReadonlyMap<number, Parts>, neighbour: (id: number, steps: number) => number | null, weights: readonly number[] = CONTEXT_WEIGHTS): Map<number, number> {
  const lent = new Map<number, number>();
  for (const [id, e] of parts) {
    if (!e.fused) continue;
    for (let d = 0; d < weights.length; d++) {
      if (!weights[d]) continue;
      for (const step of [-(d + 1), d + 1]) {
        const to = neighbour(id, step);
        if (to !== null) lent.set(to, (lent.get(to) ?? 0) + weights[d] * e.fused);
      }
    }
  }
  return lent;
}

/**
 * The records a search selects: the `limit` (default 10) best by fused score × weight prior, in
 * relevance order, or re-ordered by the selection's ORDER BY.
 */
export function* searchTarget(x: SearchContext, sel: Selection, opts: SelectOptions): Io<SearchResult> {
  const search = sel.search!;
  const k = sel.limit ?? DEFAULT_SEARCH_K;
  const n = Math.max(MIN_CANDIDATES, 4 * k);
  const alpha = search.alpha;
  const { keyword, vector, rows: admitted, neighbours, check } = yield* candidates(x, sel, search.query, alpha, n, opts);
  const parts = fuse(keyword, vector, alpha);
  if (!parts.size) return { rows: [], scores: {}, explain: {} };
  const weightOf = (row: Row) => (typeof row.weight === 'number' ? row.weight : 0.5);
  // ALPHA 0 and 1 are one ranker alone, as it ranks: the context is part of fusion. Experience
  // candidates (a LEVEL search) are ranked by their keys alone: the records written next to a key
  // are other steps of some trajectory, not evidence that it fits.
  let lent = new Map<number, number>();
  if (neighbours && alpha > 0 && alpha < 1 && !sel.level) {
    const lenders = [...parts].filter(([, e]) => e.fused).map(([id]) => id);
    lent = context(parts, yield* neighbours(lenders));
  }
  const ranked: { row: Row; weight: number; score: number }[] = [];
  for (const [id, e] of parts) {
    e.context = lent.get(id) ?? 0;
    const row = admitted.get(id)!;
    const weight = weightOf(row);
    ranked.push({ row, weight, score: (e.fused + e.context) * (0.5 + weight) });
  }
  // Records found only through their neighbours: the filters check those that could still reach
  // the best `k` (their context at the largest prior against the k-th best score so far).
  const floor = ranked.length >= k ? [...ranked].sort((a, b) => b.score - a.score)[k - 1].score : 0;
  const fresh = [...lent].filter(([id, c]) => !parts.has(id) && c * MAX_PRIOR >= floor).map(([id]) => id);
  if (fresh.length) {
    yield* check(fresh);
    for (const id of fresh) {
      const row = admitted.get(id);
      if (!row) continue;
      const e = { ...NONE, context: lent.get(id)! };
      parts.set(id, e);
      const weight = weightOf(row);
      ranked.push({ row, weight, score: e.context * (0.5 + weight) });
    }
  }
  ranked.sort((a, b) => b.score - a.score || a.row.id - b.row.id);
  // Only the results (and what a reranker reorders) are explained.
  const pool = x.rerank ? rerankPool(x.rerank, k) : k;
  const explain: Record<number, ScoreExplanation> = {};
  for (const { row, weight, score } of ranked.slice(0, pool)) {
    const e = parts.get(row.id)!;
    explain[row.id] = {
      bm25: e.bm25 === null ? null : round(e.bm25), bm25Rank: e.bm25Rank,
      vector: e.vector === null ? null : round(e.vector), vectorRank: e.vectorRank,
      fused: round(e.fused), context: round(e.context), weight, score: round(score),
      ...(x.store.dialect.keywords && alpha < 1 ? { keywords: x.store.dialect.keywords.name } : {}),
    };
  }
  const best = ranked.slice(0, pool).map((r) => r.row.id);
  // Only the results are read whole (every column but the vectors).
  const byId = new Map((yield* x.query(compileAdmitted(sel, best, x.store.dialect, opts, true))).map((r) => [Number(r.id), r]));
  let kept = best.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
  if (x.rerank && kept.length) kept = yield* reranked(x, x.rerank, search.query, kept, explain);
  kept = kept.slice(0, k);
  if (sel.orderBy !== 'relevance') kept.sort(ORDER[sel.orderBy]);
  return {
    rows: kept,
    scores: Object.fromEntries(kept.map((r) => [r.id, explain[r.id].score])),
    explain: Object.fromEntries(kept.map((r) => [r.id, explain[r.id]])),
  };
}
