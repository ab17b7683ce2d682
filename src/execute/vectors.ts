/**
 * The in-memory vector index of a store (SQLite has no vector index): the packed Float32 vectors
 * of one embedding model, loaded once from `memory.embedding_f32` and kept in step with the
 * engine's own writes; any other change (another connection, a sweep, a rolled-back script) moves
 * the store's index counter (`memory_search_stats.vectors`) past what the index has seen, and it
 * is reloaded.
 *
 * Search is an exact cosine scan (vectors are unit length, so a dot product), stored by dimension
 * (one Float32Array per dimension) so that a scan reads only the dimensions where the query is
 * not zero: a query of a few words touches 25–40 of the offline embedder's 256 dimensions, so the
 * exact scan of 100k vectors costs what a scan of 15k full vectors would (spec/retrieval.md). No
 * prefilter, so nothing is missed.
 */
import { compileVectorLoad, compileVectorVersion, unpackVector } from '../compile/index.js';
import type { AnySqlDriver } from './driver.js';
import { all, type Io } from './io.js';
import type { Store } from './store.js';

/** Slots scored together across all of a query's dimensions (their scores stay in cache). */
const BLOCK = 1024;

export interface Scored {
  readonly id: number;
  readonly score: number;
}

export class VectorIndex {
  private ids: number[] = [];
  /** columns[j][i]: dimension j of the vector in slot i. */
  private columns: Float32Array[];
  private scores: Float64Array;
  private readonly slot = new Map<number, number>();
  /** The store's index counter this index reflects, and the engine writes applied since it was read. */
  version = -1;
  pending = 0;

  constructor(readonly model: string, readonly dimensions: number, capacity = 1024) {
    this.columns = Array.from({ length: dimensions }, () => new Float32Array(capacity));
    this.scores = new Float64Array(capacity);
  }

  get size(): number {
    return this.slot.size;
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
      if (i >= this.scores.length) this.grow();
      this.ids.push(id);
      this.slot.set(id, i);
    }
    const cols = this.columns;
    for (let j = 0; j < cols.length; j++) cols[j][i] = v[j];
  }

  private removeAt(id: number, at: number): void {
    const last = this.ids.length - 1;
    if (at !== last) {
      const moved = this.ids[last];
      this.ids[at] = moved;
      this.slot.set(moved, at);
      for (const c of this.columns) c[at] = c[last];
    }
    this.ids.pop();
    this.slot.delete(id);
  }

  private grow(): void {
    const capacity = this.scores.length * 2;
    this.columns = this.columns.map((c) => {
      const wider = new Float32Array(capacity);
      wider.set(c);
      return wider;
    });
    this.scores = new Float64Array(capacity);
  }

  /** The `n` nearest vectors to the unit vector `q`, best first (cosine > 0 only): an exact scan of the query's non-zero dimensions. */
  nearest(q: Float32Array, n: number): Scored[] {
    const count = this.ids.length;
    if (!count || q.length !== this.dimensions || n <= 0) return [];
    const s = this.scores;
    s.fill(0, 0, count);
    // Eight (then four) dimensions per pass over the scores: fewer passes, less memory traffic;
    // and the slots in blocks of BLOCK, so a block's scores stay in cache across the passes
    // (the same operations per slot in the same order: the scores are bit for bit those of one pass per group).
    const nz: number[] = [];
    for (let j = 0; j < q.length; j++) if (q[j] !== 0) nz.push(j);
    const cols = this.columns;
    const eights = nz.length - (nz.length % 8);
    const fours = eights + ((nz.length - eights) & ~3);
    for (let from = 0; from < count; from += BLOCK) {
      const to = Math.min(count, from + BLOCK);
      let k = 0;
      for (; k < eights; k += 8) {
        const w0 = q[nz[k]], w1 = q[nz[k + 1]], w2 = q[nz[k + 2]], w3 = q[nz[k + 3]], w4 = q[nz[k + 4]], w5 = q[nz[k + 5]], w6 = q[nz[k + 6]], w7 = q[nz[k + 7]];
        const c0 = cols[nz[k]], c1 = cols[nz[k + 1]], c2 = cols[nz[k + 2]], c3 = cols[nz[k + 3]], c4 = cols[nz[k + 4]], c5 = cols[nz[k + 5]], c6 = cols[nz[k + 6]], c7 = cols[nz[k + 7]];
        for (let i = from; i < to; i++) s[i] += w0 * c0[i] + w1 * c1[i] + w2 * c2[i] + w3 * c3[i] + w4 * c4[i] + w5 * c5[i] + w6 * c6[i] + w7 * c7[i];
      }
      for (; k < fours; k += 4) {
        const wa = q[nz[k]], wb = q[nz[k + 1]], wc = q[nz[k + 2]], wd = q[nz[k + 3]];
        const ca = cols[nz[k]], cb = cols[nz[k + 1]], cc = cols[nz[k + 2]], cd = cols[nz[k + 3]];
        for (let i = from; i < to; i++) s[i] += wa * ca[i] + wb * cb[i] + wc * cc[i] + wd * cd[i];
      }
      for (; k < nz.length; k++) {
        const w = q[nz[k]], c = cols[nz[k]];
        for (let i = from; i < to; i++) s[i] += w * c[i];
      }
    }
    const top = new TopN(n);
    for (let i = 0; i < count; i++) if (s[i] > top.floor) top.push(this.ids[i], s[i]);
    return top.sorted();
  }
}

/** The n best (id, score) pairs seen, by a min-heap (also the keyword index's). */
export class TopN {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];
  constructor(private readonly n: number) {}
  /** Scores at or below it cannot enter (0 until n are held: only positive scores are kept by the callers). */
  get floor(): number {
    return this.ids.length < this.n ? 0 : this.scores[0];
  }
  push(id: number, score: number): void {
    const { ids, scores, n } = this;
    if (ids.length < n) {
      ids.push(id);
      scores.push(score);
      let i = ids.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (scores[p] <= scores[i]) break;
        [ids[p], ids[i]] = [ids[i], ids[p]];
        [scores[p], scores[i]] = [scores[i], scores[p]];
        i = p;
      }
      return;
    }
    if (n === 0 || score <= scores[0]) return;
    ids[0] = id;
    scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < ids.length && scores[l] < scores[m]) m = l;
      if (r < ids.length && scores[r] < scores[m]) m = r;
      if (m === i) break;
      [ids[m], ids[i]] = [ids[i], ids[m]];
      [scores[m], scores[i]] = [scores[i], scores[m]];
      i = m;
    }
  }
  sorted(): Scored[] {
    return this.ids.map((id, i) => ({ id, score: this.scores[i] })).sort((a, b) => b.score - a.score || a.id - b.id);
  }
}

const indexes = new WeakMap<Store<AnySqlDriver>, VectorIndex>();

/** The store's index counter (moved by every change to a record's search tokens, vector or liveness). */
export function* indexVersion(): Io<number> {
  const v = compileVectorVersion();
  return Number((yield* all(v.sql, v.params))[0]?.vectors ?? 0);
}

/** The store's vector index for `model`, (re)loaded when the store changed in a way it has not seen. */
export function* vectorIndex(store: Store<AnySqlDriver>, model: string, dimensions: number, version?: number): Io<VectorIndex> {
  version ??= yield* indexVersion();
  let index = indexes.get(store);
  if (index && index.model === model && index.dimensions === dimensions && index.version + index.pending === version) {
    index.version = version;
    index.pending = 0;
    return index;
  }
  index = new VectorIndex(model, dimensions);
  const load = compileVectorLoad(model, store.dialect);
  for (const r of yield* all(load.sql, load.params)) {
    if (r.v instanceof Uint8Array) index.set(Number(r.id), unpackVector(r.v));
  }
  index.version = version;
  indexes.set(store, index);
  return index;
}

/**
 * Tells the store's vector index (if loaded) about one engine write that moved the `vectors`
 * index counter: the record's new vector under `model`, or null when it left (deleted, re-embedded by
 * another model, hard-deleted).
 */
export function noteVectorWrite(store: Store<AnySqlDriver>, id: number, model: unknown, vector: Float32Array | null): void {
  const index = indexes.get(store);
  if (!index) return;
  index.pending++;
  index.set(id, model === index.model ? vector : null);
}

/** Drops the store's vector index (it is reloaded by the next search). */
export function forgetVectorIndex(store: Store<AnySqlDriver>): void {
  indexes.delete(store);
}
