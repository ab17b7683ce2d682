/**
 * The in-memory keyword index of a store: the postings of every live record's search tokens
 * (`memory.search_text`), loaded once and kept in step with the engine's own writes like the
 * vector index (./vectors.ts); any other change moves the store's index counter
 * (`memory_search_stats.vectors`) past what it has seen, and it is reloaded.
 *
 * One index per tenant: a tenant's statistics (N, the mean length, each term's df) are those of
 * its own live records, so another tenant's writes never move its scores (spec/retrieval.md,
 * "Tenants"). The store's index counter is shared: the engine's own writes in any tenant are
 * applied to that tenant's index (if loaded) and counted, so they reload nobody's.
 *
 * It scores BM25 (k1 1.2, b 0.75, idf ln(1 + (N − df + 0.5)/(df + 0.5)) over the tenant's live records)
 * in a few milliseconds at 100k records: the postings of the query's terms, rarest first, summed
 * into one array (with max-score pruning). The statement's filters are not known to it: search.ts
 * checks the winners in SQL and, when the filters admit too few of them, has SQL list what the
 * filters admit and scores those (`searchAmong`) (spec/retrieval.md).
 */
import { BM25, compileKeywordLoad } from '../compile/index.js';
import { DEFAULT_TENANT } from '../store/columns.js';
import type { Io, SearchStore, SqlRows } from './seam.js';
import { indexVersion, TopN, type Scored } from './vectors.js';

/** One term's postings: slots of the records holding it and its count in each (parallel, append-only). */
interface Postings {
  slots: number[];
  tf: number[];
  /** Live postings (the others belong to records that left or changed). */
  df: number;
  /** The largest count and the shortest record among its postings ever (bounds of what the term can add to a score). */
  maxTf: number;
  minLength: number;
  /**
   * The same postings by count and record length (key tf · 2^20 + length), each bucket's slots
   * ascending: built on the term's first impact-ordered search, then kept in step by `set` (null
   * until then, and after a compaction renumbers the slots).
   */
  buckets: Map<number, Bucket> | null;
}

/** The postings of one term whose count is `tf` in records of `length` tokens (dead slots are skipped when read). */
interface Bucket {
  readonly tf: number;
  readonly length: number;
  readonly slots: number[];
}

const bucketKey = (tf: number, length: number) => tf * 2 ** 20 + length;

export class KeywordIndex {
  private readonly terms = new Map<string, Postings>();
  /** Per slot: the record, its length in tokens, its distinct terms; a slot is never reused (0 id: dead). */
  private slotId: number[] = [];
  private slotLength: number[] = [];
  private slotTerms: (string[] | null)[] = [];
  /** Per slot: the count of each of its terms (parallel to slotTerms). */
  private slotTf: (number[] | null)[] = [];
  private readonly slot = new Map<number, number>();
  /**
   * Every indexed id in ascending order, the tenant's records in the order they were written (ids
   * are never reused): the neighbours of search's context (`neighbour`). Ids that left stay until
   * a compaction and are skipped.
   */
  private order: number[] = [];
  private dead = 0;
  private tokens = 0;
  // The scratch arrays start small and grow with the index (one index per tenant: a store of
  // many small tenants holds many small indexes).
  private scores = new Float64Array(64);
  /** Scratch of one search: the slots it has scored so far. */
  private touched = new Int32Array(64);
  /** Scratch of one search: 1 for the slots that may still reach the n-th best after pruning. */
  private mark = new Uint8Array(64);
  /** Per slot: BM25's length normalisation k1 · (1 − b + b · length / avg) for the mean length `normMean` (recomputed when it moves). */
  private norm = new Float64Array(64);
  private normSlots = 0;
  private normMean = -1;
  /** The store's index counter when this index was loaded. */
  version = -1;
  /**
   * A query of one term with at least this many postings reads them by impact (`searchByImpact`)
   * instead of scoring them all. Not for several common terms: there the threshold algorithm met
   * more records than summing the postings costs (×1.5–15 slower on the perf corpus at 100k).
   */
  impactFrom = 8192;

  /** Live records indexed. */
  get docs(): number {
    return this.slot.size;
  }

  /** Mean record length in tokens (BM25's avgdl). */
  get meanLength(): number {
    return this.docs ? this.tokens / this.docs : 0;
  }

  /** Live records holding `term`. */
  df(term: string): number {
    return this.terms.get(term)?.df ?? 0;
  }

  /** BM25's idf of `term` (0 when no record holds it), as the SQL index computes it. */
  idf(term: string): number {
    const df = this.df(term);
    return df ? Math.log(1 + (this.docs - df + 0.5) / (df + 0.5)) : 0;
  }

  /** Is record `id` indexed (live, with tokens)? */
  has(id: number): boolean {
    return this.slot.has(id);
  }

  /** Indexes record `id` under its search tokens (space-separated; null or empty takes it out). */
  set(id: number, searchText: string | null): void {
    const at = this.slot.get(id);
    if (at !== undefined) this.kill(id, at);
    if (!searchText) return;
    if (at === undefined) {
      // New ids come last; an id that comes back (undo) may still be in place.
      const o = this.order;
      if (!o.length || id > o[o.length - 1]) o.push(id);
      else {
        const k = lowerBound(o, id);
        if (o[k] !== id) o.splice(k, 0, id);
      }
    }
    const words = searchText.split(' ');
    const counts = new Map<string, number>();
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    const i = this.slotId.length;
    this.slotId.push(id);
    this.slotLength.push(words.length);
    this.slotTerms.push([...counts.keys()]);
    this.slotTf.push([...counts.values()]);
    this.slot.set(id, i);
    this.tokens += words.length;
    for (const [term, tf] of counts) {
      let p = this.terms.get(term);
      if (!p) this.terms.set(term, (p = { slots: [], tf: [], df: 0, maxTf: 0, minLength: Infinity, buckets: null }));
      p.slots.push(i);
      p.tf.push(tf);
      if (p.buckets) bucket(p.buckets, tf, words.length).slots.push(i);
      p.df++;
      if (tf > p.maxTf) p.maxTf = tf;
      if (words.length < p.minLength) p.minLength = words.length;
    }
    if (this.dead > 1024 && this.dead > this.slot.size) this.compact();
  }

  private kill(id: number, at: number): void {
    for (const term of this.slotTerms[at]!) this.terms.get(term)!.df--;
    this.tokens -= this.slotLength[at];
    this.slotId[at] = 0;
    this.slotTerms[at] = null;
    this.slotTf[at] = null;
    this.slot.delete(id);
    this.dead++;
  }

  /** Drops the postings of records that left or changed (they are skipped until then). */
  private compact(): void {
    const renumber = new Int32Array(this.slotId.length).fill(-1);
    const ids: number[] = [], lengths: number[] = [], terms: (string[] | null)[] = [], tfs: (number[] | null)[] = [];
    for (let i = 0; i < this.slotId.length; i++) {
      if (!this.slotId[i]) continue;
      renumber[i] = ids.length;
      this.slot.set(this.slotId[i], ids.length);
      ids.push(this.slotId[i]);
      lengths.push(this.slotLength[i]);
      terms.push(this.slotTerms[i]);
      tfs.push(this.slotTf[i]);
    }
    for (const [term, p] of this.terms) {
      if (!p.df) {
        this.terms.delete(term);
        continue;
      }
      const slots: number[] = [], tf: number[] = [];
      for (let k = 0; k < p.slots.length; k++) {
        const to = renumber[p.slots[k]];
        if (to >= 0) slots.push(to), tf.push(p.tf[k]);
      }
      p.slots = slots;
      p.tf = tf;
      p.buckets = null;
    }
    this.order = this.order.filter((id) => this.slot.has(id));
    this.slotId = ids;
    this.slotLength = lengths;
    this.slotTerms = terms;
    this.slotTf = tfs;
    this.dead = 0;
    this.normSlots = 0;
  }

  /**
   * The indexed record `steps` places after `id` in id order (before it when negative), or null:
   * the tenant's records next to it, in the order they were written.
   */
  neighbour(id: number, steps: number): number | null {
    if (!this.slot.has(id)) return null;
    const o = this.order;
    let k = lowerBound(o, id);
    const dir = steps < 0 ? -1 : 1;
    for (let left = Math.abs(steps); left > 0;) {
      k += dir;
      if (k < 0 || k >= o.length) return null;
      if (this.slot.has(o[k])) left--;
    }
    return o[k];
  }

  /**
   * The `n` best records by BM25 for the query's distinct `terms`, best first (ties by id), with
   * max-score pruning: terms are read rarest first; once the records not yet seen could not reach
   * the n-th best score even with every remaining term (each adds less than idf × (k1 + 1)), the
   * long postings of the common terms are only looked up for the records that still could.
   */
  search(terms: readonly string[], n: number): Scored[] {
    const slots = this.slotId.length;
    if (!this.docs || n <= 0) return [];
    if (this.scores.length < slots) {
      const size = Math.max(slots, 2 * this.scores.length);
      this.scores = new Float64Array(size);
      this.touched = new Int32Array(size);
      this.mark = new Uint8Array(size);
    }
    const s = this.scores;
    const { k1, b } = BM25;
    const avg = this.meanLength;
    const ids = this.slotId;
    const norm = this.normalisation(avg);
    const list = [...new Set(terms)].flatMap((t) => {
      const p = this.terms.get(t);
      return p?.df ? [{ term: t, p, idf: this.idf(t) }] : [];
    });
    list.sort((x, y) => y.idf - x.idf);
    if (list.length === 1 && list[0].p.df >= this.impactFrom && 8 * n <= this.docs) return this.searchByImpact(list, n, norm, avg);
    // rest[j]: the most terms j… can add to a record's score (a term adds at most its weight at its
    // largest count in its shortest record; the margin covers the order of the float additions).
    const rest = new Array<number>(list.length + 1).fill(0);
    for (let j = list.length - 1; j >= 0; j--) {
      const { p, idf } = list[j];
      rest[j] = rest[j + 1] + idf * ((p.maxTf * (k1 + 1)) / (p.maxTf + k1 * (1 - b + (b * p.minLength) / avg)));
    }
    for (let j = 0; j < list.length; j++) rest[j] *= 1 + 1e-9;
    const touched = this.touched;
    let count = 0;
    let j = 0;
    let floor = 0;
    for (; j < list.length; j++) {
      if (j > 0 && count >= n && rest[j] < (floor = nthBest(s, touched, count, n))) break;
      const { p, idf } = list[j];
      const { slots: at, tf } = p;
      // A record first met here that could not reach the floor even with every later term is left
      // out (it cannot be among the best n; if a later term meets it, its score there is lower
      // than its own, which is below the floor too).
      const later = rest[j + 1];
      for (let k = 0; k < at.length; k++) {
        const i = at[k];
        if (!ids[i]) continue;
        const t = tf[k];
        const x = idf * ((t * (k1 + 1)) / (t + norm[i]));
        if (s[i] === 0) {
          if (x + later < floor) continue;
          touched[count++] = i;
        }
        s[i] += x;
      }
    }
    const top = new TopN(n);
    if (j === list.length) {
      for (let c = 0; c < count; c++) {
        const i = touched[c];
        if (s[i] >= top.floor) top.push(ids[i], s[i]);
        s[i] = 0;
      }
      return top.sorted();
    }
    // Pruned: only the records that could still reach the n-th best get the remaining terms (in
    // term order, as above), each term by binary search of its postings (in slot order) for each
    // of them, or by one pass over its postings when that is cheaper.
    const mark = this.mark;
    // The open records, moved to the front of `touched` (the others' scores are cleared now).
    let open = 0;
    for (let c = 0; c < count; c++) {
      const i = touched[c];
      if (s[i] + rest[j] >= floor) {
        mark[i] = 1;
        touched[open++] = i;
      } else s[i] = 0;
    }
    for (let r = j; r < list.length; r++) {
      const { p, idf } = list[r];
      const { slots: at, tf } = p;
      if (open * Math.log2(at.length + 1) < at.length) {
        for (let c = 0; c < open; c++) {
          const i = touched[c];
          const k = find(at, i);
          if (k >= 0) s[i] += idf * ((tf[k] * (k1 + 1)) / (tf[k] + norm[i]));
        }
      } else {
        for (let k = 0; k < at.length; k++) {
          const i = at[k];
          if (mark[i]) s[i] += idf * ((tf[k] * (k1 + 1)) / (tf[k] + norm[i]));
        }
      }
    }
    for (let c = 0; c < open; c++) {
      const i = touched[c];
      top.push(ids[i], s[i]);
      mark[i] = 0;
      s[i] = 0;
    }
    return top.sorted();
  }

  /**
   * `search` for one common term (exact, the same ids and scores): the threshold algorithm
   * over each term's postings read by impact — its buckets (count, length) in descending order of
   * the weight they give, the stream with the highest next weight first — each record met scored
   * whole from its own terms (in the order `search` sums them, so the same float), until the n-th
   * best score exceeds the most a record not yet met could have (the sum of each term's next weight).
   */
  private searchByImpact(list: readonly { term: string; p: Postings; idf: number }[], n: number, norm: Float64Array, avg: number): Scored[] {
    const { k1, b } = BM25;
    const ids = this.slotId;
    const streams = list.map(({ p, idf }) => {
      const buckets = [...(p.buckets ??= this.bucketsOf(p)).values()].map((x) => ({ slots: x.slots, bound: idf * ((x.tf * (k1 + 1)) / (x.tf + k1 * (1 - b + (b * x.length) / avg))) }));
      buckets.sort((x, y) => y.bound - x.bound);
      return { buckets, at: 0 };
    });
    // The margin covers the order of the float additions (a record's score sums its terms in list order).
    const ceiling = () => {
      let sum = 0;
      for (const st of streams) if (st.at < st.buckets.length) sum += st.buckets[st.at].bound;
      return sum * (1 + 1e-9);
    };
    const seen = this.mark, met = this.touched;
    let count = 0;
    const top = new TopN(n);
    let most = ceiling();
    for (;;) {
      let next = -1;
      for (let k = 0; k < streams.length; k++) {
        const st = streams[k];
        if (st.at < st.buckets.length && (next < 0 || st.buckets[st.at].bound > streams[next].buckets[streams[next].at].bound)) next = k;
      }
      if (next < 0) break;
      const slots = streams[next].buckets[streams[next].at].slots;
      let done = false;
      for (let c = 0; c < slots.length; c++) {
        const i = slots[c];
        if (!ids[i] || seen[i]) continue;
        seen[i] = 1;
        met[count++] = i;
        const own = this.slotTerms[i]!, tf = this.slotTf[i]!;
        let score = 0;
        for (let t = 0; t < list.length; t++) {
          const at = own.indexOf(list[t].term);
          if (at >= 0) score += list[t].idf * ((tf[at] * (k1 + 1)) / (tf[at] + norm[i]));
        }
        top.push(ids[i], score);
        if (top.full && most < top.floor) {
          done = true;
          break;
        }
      }
      if (done) break;
      streams[next].at++;
      most = ceiling();
      if (top.full && most < top.floor) break;
    }
    for (let c = 0; c < count; c++) seen[met[c]] = 0;
    return top.sorted();
  }

  /** A term's live postings by (count, length). */
  private bucketsOf(p: Postings): Map<number, Bucket> {
    const buckets = new Map<number, Bucket>();
    const ids = this.slotId, lengths = this.slotLength;
    for (let k = 0; k < p.slots.length; k++) {
      const i = p.slots[k];
      if (ids[i]) bucket(buckets, p.tf[k], lengths[i]).slots.push(i);
    }
    return buckets;
  }

  /** k1 · (1 − b + b · length / avg) per slot, for the mean length `avg` (the same operations as BM25's weight inline). */
  private normalisation(avg: number): Float64Array {
    const slots = this.slotId.length;
    if (this.norm.length < slots) {
      const wider = new Float64Array(Math.max(slots, 2 * this.norm.length));
      wider.set(this.norm);
      this.norm = wider;
    }
    if (avg !== this.normMean) this.normSlots = 0;
    const { k1, b } = BM25;
    const norm = this.norm, lengths = this.slotLength;
    for (let i = this.normSlots; i < slots; i++) norm[i] = k1 * (1 - b + (b * lengths[i]) / avg);
    this.normSlots = slots;
    this.normMean = avg;
    return norm;
  }

  /** The `n` best by BM25 among the records `ids` (those a selective filter admits), best first (ties by id). */
  searchAmong(terms: readonly string[], ids: Iterable<number>, n: number): Scored[] {
    if (!this.docs || n <= 0) return [];
    const { k1, b } = BM25;
    const avg = this.meanLength;
    const idf = new Map([...new Set(terms)].map((t) => [t, this.idf(t)]));
    const top = new TopN(n);
    for (const id of ids) {
      const i = this.slot.get(id);
      if (i === undefined) continue;
      const own = this.slotTerms[i]!, tf = this.slotTf[i]!;
      let score = 0;
      for (let k = 0; k < own.length; k++) {
        const w = idf.get(own[k]);
        if (w) score += (w * tf[k] * (k1 + 1)) / (tf[k] + k1 * (1 - b + (b * this.slotLength[i]) / avg));
      }
      if (score > 0) top.push(id, score);
    }
    return top.sorted();
  }
}

/** The bucket of (tf, length), made when missing. */
function bucket(buckets: Map<number, Bucket>, tf: number, length: number): Bucket {
  const key = bucketKey(tf, length);
  let x = buckets.get(key);
  if (!x) buckets.set(key, (x = { tf, length, slots: [] }));
  return x;
}

/** Scratch of nthBest (a search allocates little: fewer GC pauses). */
let buffer = new Float64Array(256);

/** The n-th largest of `s` over at[0 … count) (count ≥ n): a buffer of 4n values, cut back to the best n when full. */
function nthBest(s: Float64Array, at: Int32Array, count: number, n: number): number {
  if (buffer.length < 4 * n) buffer = new Float64Array(4 * n);
  const best = buffer;
  let held = 0;
  let floor = -Infinity;
  for (let c = 0; c < count; c++) {
    const x = s[at[c]];
    if (x <= floor) continue;
    best[held++] = x;
    if (held >= 4 * n) {
      // Descending: a typed array sorts ascending, so the best n are the last n.
      best.subarray(0, held).sort();
      best.copyWithin(0, held - n, held);
      held = n;
      floor = best[0];
    }
  }
  const kept = best.subarray(0, held).sort();
  return kept[held - n];
}

/** The first index of the ascending `xs` whose value is not below `x` (xs.length when none). */
function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0, hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where `slot` is in the ascending `slots`, or -1. */
function find(slots: readonly number[], slot: number): number {
  let lo = 0, hi = slots.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (slots[mid] < slot) lo = mid + 1;
    else if (slots[mid] > slot) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** A store's keyword indexes, one per tenant loaded, and the store's index counter they reflect with the engine writes applied since. */
interface TenantIndexes {
  version: number;
  pending: number;
  readonly tenants: Map<string, KeywordIndex>;
}

const indexes = new WeakMap<SearchStore, TenantIndexes>();

/**
 * The keyword index of `tenant`'s live records, (re)loaded when the store changed in a way the
 * indexes have not seen (then every tenant's is dropped; each is loaded again when searched).
 */
export function* keywordIndex(store: SearchStore, version?: number, tenant: string = DEFAULT_TENANT): Io<KeywordIndex> {
  version ??= yield* indexVersion();
  let held = indexes.get(store);
  if (held && held.version + held.pending === version) {
    held.version = version;
    held.pending = 0;
  } else indexes.set(store, (held = { version, pending: 0, tenants: new Map() }));
  let index = held.tenants.get(tenant);
  if (index) return index;
  index = new KeywordIndex();
  const load = compileKeywordLoad(store.dialect, tenant);
  for (const r of (yield { kind: 'all', sql: load.sql, params: load.params }) as SqlRows) index.set(Number(r.id), typeof r.search_text === 'string' ? r.search_text : null);
  index.version = version;
  held.tenants.set(tenant, index);
  return index;
}

/**
 * Tells the store's keyword index of `tenant` (if loaded) about one engine write that moved the
 * index counter: the record's tokens now (null: not live). Without a tenant, the record's own
 * index is found by its id; a new record of unknown tenant drops the indexes (reloaded when searched).
 */
export function noteKeywordWrite(store: SearchStore, id: number, searchText: unknown, tenant?: unknown): void {
  const held = indexes.get(store);
  if (!held) return;
  held.pending++;
  const text = typeof searchText === 'string' ? searchText : null;
  if (typeof tenant === 'string') {
    held.tenants.get(tenant)?.set(id, text);
    return;
  }
  for (const index of held.tenants.values()) {
    if (index.has(id)) {
      index.set(id, text);
      return;
    }
  }
  if (text !== null) indexes.delete(store);
}

/** Drops the store's keyword indexes (they are reloaded by the next search). */
export function forgetKeywordIndex(store: SearchStore): void {
  indexes.delete(store);
}
