/**
 * The in-memory vector index of a store (SQLite has no vector index): the packed Float32 vectors
 * of one embedding model, loaded once from `memory.embedding_f32` and kept in step with the
 * engine's own writes; any other change (another connection, a sweep, a rolled-back script) moves
 * the keyword index's `vectors` counter past what the index has seen, and it is reloaded.
 *
 * Search is exact cosine (vectors are unit length, so a dot product) over every vector up to
 * EXACT_SCAN_MAX; above it a 1-bit sign sketch of every vector is scanned first (Hamming distance
 * by popcount, 32 dimensions per word) and the RERANK best are rescored exactly. perf/retrieval.ts
 * measures the time and the sketch's recall against the exact scan.
 */
import { compileVectorLoad, compileVectorVersion, unpackVector } from '../compile/index.js';
import type { AnySqlDriver } from './driver.js';
import { all, type Io } from './io.js';
import type { Store } from './store.js';

/** Up to this many vectors a search scans them all exactly. */
export const EXACT_SCAN_MAX = 20_000;
/** Above it, how many sketch neighbours (at least; ×8 the asked number) are rescored exactly. */
export const RERANK = 2_000;

export interface Scored {
  readonly id: number;
  readonly score: number;
}

export class VectorIndex {
  private ids: number[] = [];
  private data: Float32Array;
  private sketch: Int32Array;
  private readonly slot = new Map<number, number>();
  private readonly words: number;
  /** The store's `vectors` counter this index reflects, and the engine writes applied since it was read. */
  version = -1;
  pending = 0;

  constructor(readonly model: string, readonly dimensions: number, capacity = 1024) {
    this.words = Math.ceil(dimensions / 32);
    this.data = new Float32Array(capacity * dimensions);
    this.sketch = new Int32Array(capacity * this.words);
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
      if ((i + 1) * this.dimensions > this.data.length) this.grow();
      this.ids.push(id);
      this.slot.set(id, i);
    }
    const d = this.dimensions;
    this.data.set(v, i * d);
    const w = this.words;
    this.sketch.fill(0, i * w, i * w + w);
    for (let j = 0; j < d; j++) if (v[j] > 0) this.sketch[i * w + (j >> 5)] |= 1 << (j & 31);
  }

  private removeAt(id: number, at: number): void {
    const last = this.ids.length - 1;
    if (at !== last) {
      const moved = this.ids[last];
      this.ids[at] = moved;
      this.slot.set(moved, at);
      this.data.copyWithin(at * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.sketch.copyWithin(at * this.words, last * this.words, (last + 1) * this.words);
    }
    this.ids.pop();
    this.slot.delete(id);
  }

  private grow(): void {
    const data = new Float32Array(this.data.length * 2);
    data.set(this.data);
    this.data = data;
    const sketch = new Int32Array(this.sketch.length * 2);
    sketch.set(this.sketch);
    this.sketch = sketch;
  }

  /** The `n` nearest vectors to the unit vector `q`, best first (cosine > 0 only); `exact` never uses the sketch. */
  nearest(q: Float32Array, n: number, exact = false): Scored[] {
    const count = this.ids.length;
    if (!count || q.length !== this.dimensions) return [];
    const slots = exact || count <= EXACT_SCAN_MAX ? null : this.sketchCandidates(q, Math.max(RERANK, 8 * n));
    const d = this.dimensions;
    const top = new TopN(n);
    const data = this.data;
    const m = slots ? slots.length : count;
    for (let k = 0; k < m; k++) {
      const i = slots ? slots[k] : k;
      let s = 0;
      for (let j = 0, o = i * d; j < d; j++, o++) s += data[o] * q[j];
      if (s > 0) top.push(this.ids[i], s);
    }
    return top.sorted();
  }

  /** Slots of the `n` vectors whose sign sketch is nearest the query's (by Hamming distance; a histogram, no sort). */
  private sketchCandidates(q: Float32Array, n: number): Int32Array {
    const w = this.words;
    const qs = new Int32Array(w);
    for (let j = 0; j < this.dimensions; j++) if (q[j] > 0) qs[j >> 5] |= 1 << (j & 31);
    const count = this.ids.length;
    const dist = new Uint16Array(count);
    const hist = new Uint32Array(w * 32 + 1);
    const sk = this.sketch;
    for (let i = 0, o = 0; i < count; i++) {
      let h = 0;
      for (let k = 0; k < w; k++, o++) h += popcount(sk[o] ^ qs[k]);
      dist[i] = h;
      hist[h]++;
    }
    let cut = 0;
    for (let seen = 0; cut < hist.length; cut++) if ((seen += hist[cut]) >= n) break;
    const out: number[] = [];
    for (let i = 0; i < count; i++) if (dist[i] <= cut) out.push(i);
    return Int32Array.from(out);
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The n best (id, score) pairs seen, by a min-heap. */
class TopN {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];
  constructor(private readonly n: number) {}
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

function* currentVersion(store: Store<AnySqlDriver>): Io<number> {
  return Number((yield* all(compileVectorVersion().sql, compileVectorVersion().params))[0]?.vectors ?? 0);
}

/** The store's vector index for `model`, (re)loaded when the store changed in a way it has not seen. */
export function* vectorIndex(store: Store<AnySqlDriver>, model: string, dimensions: number): Io<VectorIndex> {
  const version = yield* currentVersion(store);
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
 * counter: the record's new vector under `model`, or null when it left (deleted, re-embedded by
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
