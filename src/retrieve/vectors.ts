/**
 * The in-memory vector indexes of a store (SQLite has no vector index), one per tenant (a
 * tenant's candidates are its own records: spec/retrieval.md, "Tenants"): the packed Float32
 * vectors of one embedding model, loaded once from `memory.embedding_f32` and kept in step with the
 * engine's own writes; any other change (another connection, a sweep, a rolled-back script) moves
 * the store's index counter (`memory_search_stats.vectors`) past what the index has seen, and it
 * is reloaded.
 *
 * Search is an exact cosine scan (vectors are unit length, so a dot product), stored by dimension
 * (one Float32Array per dimension) so that a scan reads only the dimensions where the query is
 * not zero: a query of a few words touches 25–40 of the offline embedder's 256 dimensions, so the
 * exact scan of 100k vectors costs what a scan of 15k full vectors would; an integer prescan of
 * packed pairs halves the multiply-adds and an exact rescoring of the few slots it cannot rule out
 * keeps the result that of a brute-force scan (VectorIndex, spec/retrieval.md): nothing is missed.
 */
import { compileVectorLoad, compileVectorVersion, unpackVector } from '../compile/index.js';
import { DEFAULT_TENANT } from '../store/columns.js';
import { ParamList, type Dialect, type SqlStatement } from '../store/dialect.js';
import type { Io, SearchStore, SqlRows } from './seam.js';

/** Slots (pairs of slots, in the prescan) scored together across all of a query's dimensions (their scores stay in cache). */
const BLOCK = 1024;
/** The prescan's integer grid: a coordinate x (|x| ≤ 1, vectors are unit length) is held as round(x · GRID). */
const GRID = 2048;
/** Two slots share one float64 of each dimension: slot 2p in the low lane, slot 2p + 1 times LANE. */
const LANE = 2 ** 26;
/**
 * The query's integer weights sum to at most this (+ 0.5 per dimension, ≤ 128): with |coordinate| ≤ GRID,
 * a lane's sum stays below 2^25 = LANE / 2, so both lanes come back exactly from one float64 (< 2^53).
 */
const WEIGHTS = 16000;

export interface Scored {
  readonly id: number;
  readonly score: number;
}

/**
 * Exact nearest-neighbour search in two steps (spec/retrieval.md, "Vector search"):
 *   1. a prescan in integers: every coordinate rounded to a grid of 1/GRID and two slots packed in
 *      one float64 per dimension (`packed`), the query's weights rounded to integers: each
 *      multiply-add scores two slots at once, exactly (integer sums below 2^53), so the prescan
 *      gives every slot its approximate score A with |cosine − A| ≤ E, a bound computed per query;
 *   2. an exact rescoring (the Float32 coordinates, the same operations in the same order as a
 *      plain scan, so the scores are bit for bit those of one) of the slots whose A is within 2E of
 *      the n-th best A: no slot outside can be among the n nearest. About n + 10 slots are rescored.
 */
export class VectorIndex {
  private ids: number[] = [];
  /** columns[j][i]: dimension j of the vector in slot i. */
  private columns: Float32Array[];
  /**
   * packed[j · stride + p]: round(columns[j][2p] · GRID) + round(columns[j][2p + 1] · GRID) · LANE, for
   * every slot below capacity (stride = capacity / 2). One array for all dimensions: V8 scans one
   * typed array at several offsets faster than several typed arrays (×0.75–0.85 measured).
   */
  private packed: Float64Array;
  private stride: number;
  /** The largest |coordinate| ever held in each dimension (an upper bound of the live ones). */
  private readonly maxAbs: Float64Array;
  /** Scratch of one search: the prescan's sums (per pair of slots). */
  private sums: Float64Array;
  /** Scratch of one search: the prescan's candidates (slot, A), reused so a search allocates little (fewer GC pauses). */
  private cand: Int32Array = new Int32Array(1024);
  private candA: Float64Array = new Float64Array(1024);
  private readonly slot = new Map<number, number>();
  /** The store's index counter when this index was loaded. */
  version = -1;

  /** Starts small (64 slots: 128 kB at 256 dimensions) and doubles: a store that searches a few records does not zero megabytes. */
  constructor(readonly model: string, readonly dimensions: number, capacity = 64) {
    this.columns = Array.from({ length: dimensions }, () => new Float32Array(capacity));
    this.stride = capacity / 2;
    this.packed = new Float64Array(dimensions * this.stride);
    this.maxAbs = new Float64Array(dimensions);
    this.sums = new Float64Array(capacity / 2);
  }

  get size(): number {
    return this.slot.size;
  }

  /** Does the index hold a vector of record `id`? */
  has(id: number): boolean {
    return this.slot.has(id);
  }

  /** Adds or replaces the vector of record `id` (null removes it). Vectors of another length are left out. */
  set(id: number, v: Float32Array | null): void {
    const at = this.slot.get(id);
    if (!v || v.length !== this.dimensions) {
      if (at !== undefined) this.removeAt(id, at);
      return;
    }
    let i = at;
    if (i === undefined) {
      i = this.ids.length;
      if (i >= 2 * this.sums.length) this.grow();
      this.ids.push(id);
      this.slot.set(id, i);
    }
    for (let j = 0; j < this.dimensions; j++) this.write(j, i, v[j]);
  }

  /** Sets dimension j of slot i, in the columns and the packed grid (only the slot's lane moves). */
  private write(j: number, i: number, x: number): void {
    const c = this.columns[j];
    const lane = i & 1 ? LANE : 1;
    this.packed[j * this.stride + (i >> 1)] += (Math.round(Math.fround(x) * GRID) - Math.round(c[i] * GRID)) * lane;
    c[i] = x;
    const a = Math.abs(c[i]);
    if (a > this.maxAbs[j]) this.maxAbs[j] = a;
  }

  private removeAt(id: number, at: number): void {
    const last = this.ids.length - 1;
    if (at !== last) {
      const moved = this.ids[last];
      this.ids[at] = moved;
      this.slot.set(moved, at);
      for (let j = 0; j < this.dimensions; j++) this.write(j, at, this.columns[j][last]);
    }
    this.ids.pop();
    this.slot.delete(id);
  }

  private grow(): void {
    const capacity = this.sums.length * 4;
    const wider = <T extends Float32Array | Float64Array>(c: T, make: (n: number) => T, n: number) => {
      const w = make(n);
      w.set(c);
      return w;
    };
    this.columns = this.columns.map((c) => wider(c, (k) => new Float32Array(k), capacity));
    const packed = new Float64Array(this.dimensions * (capacity / 2));
    for (let j = 0; j < this.dimensions; j++) packed.set(this.packed.subarray(j * this.stride, (j + 1) * this.stride), j * (capacity / 2));
    this.packed = packed;
    this.stride = capacity / 2;
    this.sums = new Float64Array(capacity / 2);
  }

  /** The `n` nearest vectors to the unit vector `q`, best first (cosine > 0 only): exact (a prescan in integers, then the candidates rescored). */
  nearest(q: Float32Array, n: number): Scored[] {
    const count = this.ids.length;
    if (!count || q.length !== this.dimensions || n <= 0) return [];
    const nz: number[] = [];
    for (let j = 0; j < q.length; j++) if (q[j] !== 0) nz.push(j);
    // Integer weights w = round(q · f), f as large as the lanes allow: |c| ≤ round(maxAbs · GRID) =: m,
    // so a lane's sum is at most Σ (|q| f + 0.5) m, which must stay below LANE / 2.
    let qm = 0, half = 0;
    for (const j of nz) {
      const m = Math.round(this.maxAbs[j] * GRID);
      qm += Math.abs(q[j]) * m;
      half += m / 2;
    }
    const f = (LANE / 2 - 1 - half) / qm;
    if (!(f > 0 && Number.isFinite(f))) return this.scan(q, nz, n);
    const w = nz.map((j) => Math.round(q[j] * f));
    // cosine − A = Σ (q − w/f)·x + Σ (w/f)·(x − c/GRID): at most E (plus slack for the float rounding of the exact scores).
    let e = 1e-9;
    for (let k = 0; k < nz.length; k++) e += Math.abs(q[nz[k]] - w[k] / f) * this.maxAbs[nz[k]] + (Math.abs(w[k]) / f) * (0.5 / GRID);
    const pairs = (count + 1) >> 1;
    const s = this.sums;
    s.fill(0, 0, pairs);
    // Each block of BLOCK pairs is prescanned eight dimensions per pass (its sums stay in cache),
    // then unpacked at once (in grid units: A = lane / (f · GRID)): the n-th best A so far is
    // tracked (it only rises) and the slots within 2E of it kept as candidates.
    const cols = this.packed;
    const at = nz.map((j) => j * this.stride);
    const eights = nz.length - (nz.length % 8);
    const band = 2 * e * f * GRID;
    const best: number[] = [];
    let nth = -Infinity;
    // cosine > 0 is asked, so A > −E: below −E no slot is a candidate.
    let cut = -band / 2;
    let cand: Int32Array = this.cand, candA: Float64Array = this.candA;
    let nc = 0;
    for (let from = 0; from < pairs; from += BLOCK) {
      const to = Math.min(pairs, from + BLOCK);
      let k = 0;
      for (; k < eights; k += 8) {
        const w0 = w[k], w1 = w[k + 1], w2 = w[k + 2], w3 = w[k + 3], w4 = w[k + 4], w5 = w[k + 5], w6 = w[k + 6], w7 = w[k + 7];
        const o0 = at[k], o1 = at[k + 1], o2 = at[k + 2], o3 = at[k + 3], o4 = at[k + 4], o5 = at[k + 5], o6 = at[k + 6], o7 = at[k + 7];
        for (let i = from; i < to; i++) s[i] += w0 * cols[o0 + i] + w1 * cols[o1 + i] + w2 * cols[o2 + i] + w3 * cols[o3 + i] + w4 * cols[o4 + i] + w5 * cols[o5 + i] + w6 * cols[o6 + i] + w7 * cols[o7 + i];
      }
      for (; k < nz.length; k++) {
        const wk = w[k], o = at[k];
        for (let i = from; i < to; i++) s[i] += wk * cols[o + i];
      }
      for (let p = from; p < to; p++) {
        const t = s[p];
        const hi = Math.round(t * (1 / LANE));
        const lo = t - hi * LANE;
        if (lo >= cut) {
          if (nc === cand.length) ({ cand, candA } = this.moreCandidates());
          cand[nc] = 2 * p;
          candA[nc++] = lo;
          if (lo > nth) cut = Math.max((nth = admit(best, lo, n, nth)) - band, -band / 2);
        }
        if (hi >= cut && 2 * p + 1 < count) {
          if (nc === cand.length) ({ cand, candA } = this.moreCandidates());
          cand[nc] = 2 * p + 1;
          candA[nc++] = hi;
          if (hi > nth) cut = Math.max((nth = admit(best, hi, n, nth)) - band, -band / 2);
        }
      }
    }
    if (best.length >= n) {
      best.sort((x, y) => y - x);
      nth = best[n - 1];
    }
    // A slot among the n nearest has cosine ≥ (n-th best A) − E, so A ≥ (n-th best A) − 2E; and cosine > 0, so A > −E.
    const floor = Math.max(nth - band, -band / 2);
    const top = new TopN(n);
    for (let k = 0; k < nc; k++) {
      if (candA[k] < floor) continue;
      const score = this.exact(q, nz, cand[k]);
      if (score > 0 && score >= top.floor) top.push(this.ids[cand[k]], score);
    }
    return top.sorted();
  }

  /** Doubles the candidates' scratch (keeping what it holds). */
  private moreCandidates(): { cand: Int32Array; candA: Float64Array } {
    const cand = new Int32Array(2 * this.cand.length), candA = new Float64Array(2 * this.cand.length);
    cand.set(this.cand);
    candA.set(this.candA);
    this.cand = cand;
    this.candA = candA;
    return { cand, candA };
  }

  /** The n best exact scores of all slots (when the coordinates are too large for the prescan's lanes). */
  private scan(q: Float32Array, nz: readonly number[], n: number): Scored[] {
    const top = new TopN(n);
    for (let i = 0; i < this.ids.length; i++) {
      const score = this.exact(q, nz, i);
      if (score > 0 && score >= top.floor) top.push(this.ids[i], score);
    }
    return top.sorted();
  }

  /** Slot i's cosine to q: the operations, in the order, of a scan of q's non-zero dimensions eight (then four, then one) at a time. */
  private exact(q: Float32Array, nz: readonly number[], i: number): number {
    const c = this.columns;
    const eights = nz.length - (nz.length % 8);
    const fours = eights + ((nz.length - eights) & ~3);
    let s = 0;
    let k = 0;
    for (; k < eights; k += 8) {
      const j0 = nz[k], j1 = nz[k + 1], j2 = nz[k + 2], j3 = nz[k + 3], j4 = nz[k + 4], j5 = nz[k + 5], j6 = nz[k + 6], j7 = nz[k + 7];
      s += q[j0] * c[j0][i] + q[j1] * c[j1][i] + q[j2] * c[j2][i] + q[j3] * c[j3][i] + q[j4] * c[j4][i] + q[j5] * c[j5][i] + q[j6] * c[j6][i] + q[j7] * c[j7][i];
    }
    for (; k < fours; k += 4) {
      const j0 = nz[k], j1 = nz[k + 1], j2 = nz[k + 2], j3 = nz[k + 3];
      s += q[j0] * c[j0][i] + q[j1] * c[j1][i] + q[j2] * c[j2][i] + q[j3] * c[j3][i];
    }
    for (; k < nz.length; k++) s += q[nz[k]] * c[nz[k]][i];
    return s;
  }
}

/** Adds `v` (above the n-th best `nth` so far) to `best`, a buffer of 4n values cut back to the best n when full; the n-th best now. */
function admit(best: number[], v: number, n: number, nth: number): number {
  best.push(v);
  if (best.length < 4 * n) return nth;
  best.sort((x, y) => y - x);
  best.length = n;
  return best[n - 1];
}

/**
 * The n best (id, score) pairs seen, by a min-heap (also the keyword index's), ties by the smaller
 * id: what it keeps does not depend on the order the pairs come in (so pruning cannot change it).
 */
export class TopN {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];
  constructor(private readonly n: number) {}
  /** Whether n are held. */
  get full(): boolean {
    return this.ids.length >= this.n;
  }
  /** Scores below it cannot enter (0 until n are held: the callers keep only positive scores); equal ones may (by a smaller id). */
  get floor(): number {
    return this.ids.length < this.n ? 0 : this.scores[0];
  }
  /** Whether entry a ranks below entry b (lower score, or the same score and a larger id). */
  private below(a: number, b: number): boolean {
    const { scores, ids } = this;
    return scores[a] < scores[b] || (scores[a] === scores[b] && ids[a] > ids[b]);
  }
  private swap(a: number, b: number): void {
    const { scores, ids } = this;
    const id = ids[a], score = scores[a];
    ids[a] = ids[b];
    scores[a] = scores[b];
    ids[b] = id;
    scores[b] = score;
  }
  push(id: number, score: number): void {
    const { ids, scores, n } = this;
    if (ids.length < n) {
      ids.push(id);
      scores.push(score);
      let i = ids.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.below(i, p)) break;
        this.swap(p, i);
        i = p;
      }
      return;
    }
    if (n === 0 || score < scores[0] || (score === scores[0] && id > ids[0])) return;
    ids[0] = id;
    scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < ids.length && this.below(l, m)) m = l;
      if (r < ids.length && this.below(r, m)) m = r;
      if (m === i) break;
      this.swap(m, i);
      i = m;
    }
  }
  sorted(): Scored[] {
    return this.ids.map((id, i) => ({ id, score: this.scores[i] })).sort((a, b) => b.score - a.score || a.id - b.id);
  }
}

/**
 * The candidates a dialect's own vector search found (rows `{id, v}`, `v` the packed vector),
 * scored as the engine's scan scores them: the same operations in the same order, so the scores
 * are bit for bit those of an SQLite store holding the same records, and so are the ranks
 * (pgvector computes its distance in single precision, which reorders near-ties).
 */
export function rescore(model: string, q: Float32Array, rows: readonly Record<string, unknown>[], n: number): Scored[] {
  const index = new VectorIndex(model, q.length, Math.max(64, 2 ** Math.ceil(Math.log2(rows.length + 1))));
  for (const r of rows) if (r.v instanceof Uint8Array) index.set(Number(r.id), unpackVector(r.v));
  return index.nearest(q, n);
}

/** A store's vector indexes, one per tenant loaded, and the store's index counter they reflect with the engine writes applied since. */
interface TenantIndexes {
  version: number;
  pending: number;
  readonly tenants: Map<string, VectorIndex>;
  /** Per tenant: its live records whose vectors another model made than the one its queries are embedded by (ModelCensus). */
  readonly census: Map<string, ModelCensus>;
}

/**
 * The records of one tenant whose vectors are not comparable with a query's (spec/retrieval.md,
 * "Query embeddings and the store's model"): live, with a vector, embedded by another model than
 * `model` (a caller's own vectors, model `caller`, are the caller's business). Loaded with the
 * tenant's index, kept in step with the engine's writes like it.
 */
interface ModelCensus {
  readonly model: string;
  /** id → the model of its vector. */
  readonly foreign: Map<number, string>;
}

const indexes = new WeakMap<SearchStore, TenantIndexes>();

/** The store's indexes as of index counter `version`: kept when the engine's own writes explain the move, dropped otherwise. */
function heldAt(store: SearchStore, version: number): TenantIndexes {
  let held = indexes.get(store);
  if (held && held.version + held.pending === version) {
    held.version = version;
    held.pending = 0;
  } else indexes.set(store, (held = { version, pending: 0, tenants: new Map(), census: new Map() }));
  return held;
}

/** A caller's own vectors (Encode with an embedding): of no model the store knows. */
const CALLER_MODEL = 'caller';

/** `tenant`'s live records with a vector of another model than `model` (not the caller's own): their ids and models. */
function compileOtherModels(model: string, d: Dialect, tenant: string): SqlStatement {
  const q = d.quoteIdent;
  const p = new ParamList(d);
  return {
    sql: `SELECT ${q('id')}, ${q('embedding_model')} AS m FROM ${q('memory')} WHERE ${q('tenant')} = ${p.bind(tenant)} AND ${q('deleted')} = ${p.bind(0)} AND ${q('embedding_f32')} IS NOT NULL AND ${q('embedding_model')} <> ${p.bind(model)} AND ${q('embedding_model')} <> ${p.bind(CALLER_MODEL)}`,
    params: p.values,
  };
}

/**
 * Why a query embedded by `model` cannot be compared with some of `tenant`'s records (their
 * vectors come from another model: the store was reindexed with one, or written by a session
 * configured with another), or null when every record with a vector shares the query's model.
 */
export function* modelMismatch(store: SearchStore, model: string, version: number, tenant: string = DEFAULT_TENANT): Io<string | null> {
  const held = heldAt(store, version);
  let census = held.census.get(tenant);
  if (!census || census.model !== model) {
    const load = compileOtherModels(model, store.dialect, tenant);
    const foreign = new Map<number, string>();
    for (const r of (yield { kind: 'all', sql: load.sql, params: load.params }) as SqlRows) foreign.set(Number(r.id), String(r.m));
    held.census.set(tenant, (census = { model, foreign }));
  }
  if (!census.foreign.size) return null;
  const counts = new Map<string, number>();
  for (const m of census.foreign.values()) counts.set(m, (counts.get(m) ?? 0) + 1);
  const models = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([m, n]) => `${n} by ${m}`).join(', ');
  const first = [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : 1))[0];
  return `the query is embedded by ${model}, but the tenant has records embedded by another model (${models}): their vectors are not comparable, so only keywords rank them. Search with the model they were indexed with (t2m run --embed-url <api> --embed-model ${first}; the store's embedder), or reindex the store with ${model} (t2m reindex)`;
}

/** The store's index counter (moved by every change to a record's search tokens, vector or liveness). */
export function* indexVersion(): Io<number> {
  const v = compileVectorVersion();
  return Number(((yield { kind: 'all', sql: v.sql, params: v.params }) as SqlRows)[0]?.vectors ?? 0);
}

/** The vector index of `tenant`'s records for `model`, (re)loaded when the store changed in a way the indexes have not seen. */
export function* vectorIndex(store: SearchStore, model: string, dimensions: number, version?: number, tenant: string = DEFAULT_TENANT): Io<VectorIndex> {
  version ??= yield* indexVersion();
  const held = heldAt(store, version);
  let index = held.tenants.get(tenant);
  if (index && index.model === model && index.dimensions === dimensions) return index;
  index = new VectorIndex(model, dimensions);
  const load = compileVectorLoad(model, store.dialect, tenant);
  for (const r of (yield { kind: 'all', sql: load.sql, params: load.params }) as SqlRows) {
    if (r.v instanceof Uint8Array) index.set(Number(r.id), unpackVector(r.v));
  }
  index.version = version;
  held.tenants.set(tenant, index);
  return index;
}

/**
 * Tells the store's vector index of `tenant` (if loaded) about one engine write that moved the
 * `vectors` index counter: the record's new vector under `model`, or null when it left (deleted,
 * re-embedded by another model, hard-deleted). Without a tenant, the record's own index is found
 * by its id; a new record of unknown tenant drops the indexes (reloaded when searched).
 */
export function noteVectorWrite(store: SearchStore, id: number, model: unknown, vector: Float32Array | null, tenant?: unknown): void {
  const held = indexes.get(store);
  if (!held) return;
  held.pending++;
  // The census of the record's tenant (or, when the tenant is not given, of the one that lists it).
  const census = typeof tenant === 'string' ? held.census.get(tenant) : [...held.census.values()].find((c) => c.foreign.has(id));
  if (census) {
    if (vector !== null && typeof model === 'string' && model !== census.model && model !== CALLER_MODEL) census.foreign.set(id, model);
    else census.foreign.delete(id);
  } else if (typeof tenant !== 'string' && vector !== null && held.census.size) {
    // A new vector of a record whose tenant is not known: the censuses are counted again.
    held.census.clear();
  }
  if (typeof tenant === 'string') {
    const index = held.tenants.get(tenant);
    index?.set(id, model === index.model ? vector : null);
    return;
  }
  for (const index of held.tenants.values()) {
    if (index.has(id)) {
      index.set(id, model === index.model ? vector : null);
      return;
    }
  }
  if (vector !== null) indexes.delete(store);
}

/** Drops the store's vector indexes (they are reloaded by the next search). */
export function forgetVectorIndex(store: SearchStore): void {
  indexes.delete(store);
}
