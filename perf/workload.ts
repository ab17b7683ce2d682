/**
 * The synthetic workload the engine and retrieval benchmarks share: a deterministic PRNG, the
 * tags and words records are made of, an Encode IR per record and the tag + time-window filter
 * that the filtered retrieve and update measure.
 */
export const NOW = '2026-01-01T00:00:00Z';
export const TAGS = Array.from({ length: 100 }, (_, i) => `tag${i}`);
export const WORDS = 'budget meeting launch review payment vendor hiring roadmap incident report customer design api security deadline quarter team plan risk metric'.split(' ');

/** Deterministic PRNG (mulberry32) so every run measures the same data. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Record `i`: twelve words, a note, two of the hundred tags, a time in 2025. */
export function encodeIr(i: number, rand: () => number) {
  const words = Array.from({ length: 12 }, () => WORDS[Math.floor(rand() * WORDS.length)]);
  const day = Math.floor(rand() * 365);
  const time = new Date(Date.UTC(2025, 0, 1) + day * 86_400_000 + (i % 86_400) * 1000).toISOString().slice(0, 19) + 'Z';
  return {
    stage: 'ENC', op: 'Encode',
    args: { payload: { text: `${words.join(' ')}.` }, type: 'note', tags: [TAGS[Math.floor(rand() * 100)], TAGS[Math.floor(rand() * 100)]], time },
  };
}

/** What `populate` needs of an engine and a driver (any checkout's, so typed structurally). */
interface Runner {
  run(store: never, irs: unknown[], options: { now: string }): { ok: boolean; diagnostics: readonly unknown[]; results: readonly { sql: readonly { sql: string; params: unknown }[] }[] };
}
interface Replay {
  begin(): void;
  all(sql: string, params: never): unknown;
  commit(): void;
}

/**
 * Fills `store` with `size` records of the workload through `engine`, in scripts of 1,000 Encodes
 * (seeded with `size`), and replays each script's SQL on `replay` in one transaction, so both
 * stores hold the same records.
 */
export function populate(engine: Runner, store: unknown, replay: Replay, size: number): void {
  const rand = rng(size);
  for (let done = 0; done < size; done += 1000) {
    const r = engine.run(store as never, Array.from({ length: Math.min(1000, size - done) }, (_, j) => encodeIr(done + j, rand)), { now: NOW });
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
    replay.begin();
    for (const x of r.results) for (const s of x.sql) replay.all(s.sql, s.params as never);
    replay.commit();
  }
}

/** A tag + `months`-month window filter: about N × 2% × months/12 matches. */
export function filter(k: number, months = 3) {
  const month = (k % 9) + 1;
  return {
    has_tags: [TAGS[k % 100]],
    time_range: { start: `2025-${String(month).padStart(2, '0')}-01T00:00:00Z`, end: `2025-${String(month + months).padStart(2, '0')}-01T00:00:00Z` },
  };
}

/**
 * A vocabulary of `size` made-up words drawn with Zipf frequencies (s = 1), for retrieval
 * benchmarks whose texts must not all share a handful of words: `text(r, n)` is n words.
 */
export function zipfVocabulary(seed = 42, size = 5000): { readonly words: readonly string[]; text(r: () => number, n: number): string } {
  const syllables = 'ka lo mi ne ru sa ti vo be da fe gu hi jo ku la me no pi re so tu va wi xe yo za'.split(' ');
  const rand = rng(seed);
  const words = Array.from({ length: size }, (_, i) => {
    let w = '';
    for (let n = 2 + (i % 3); n > 0; n--) w += syllables[Math.floor(rand() * syllables.length)];
    return w + (i % 7 === 0 ? 'ing' : i % 5 === 0 ? 's' : '');
  });
  const cum: number[] = [];
  words.reduce((a, _, i) => (cum.push(a + 1 / (i + 1)), a + 1 / (i + 1)), 0);
  const word = (r: () => number) => {
    const x = r() * cum[cum.length - 1];
    let lo = 0, hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
  return { words, text: (r, n) => Array.from({ length: n }, () => word(r)).join(' ') };
}

/**
 * The corpus and queries of the search benchmarks (perf/retrieval*.ts): `encodeIr(i, r)` is the
 * Encode IR of memory i, a Zipf text of 8–25 words with one tag (of 100, or of `TAGS`' first 10
 * without a time when `timed` is false, as perf/retrieval-pg.ts wants) and a time in 2025;
 * `queryOf(r)` is 2–4 consecutive words of a text stored so far.
 */
export function searchCorpus(timed = true): { encodeIr(i: number, r: () => number): unknown; queryOf(r: () => number): string } {
  const vocabulary = zipfVocabulary();
  const texts: string[] = [];
  return {
    encodeIr(i, r) {
      const text = vocabulary.text(r, 8 + Math.floor(r() * 18));
      texts[i] = text;
      if (!timed) return { stage: 'ENC', op: 'Encode', args: { payload: { text }, type: 'note', tags: [TAGS[Math.floor(r() * 10)]] } };
      const day = Math.floor(r() * 365);
      return {
        stage: 'ENC', op: 'Encode',
        args: { payload: { text }, type: 'note', tags: [`tag${Math.floor(r() * 100)}`], time: new Date(Date.UTC(2025, 0, 1) + day * 86_400_000).toISOString().slice(0, 19) + 'Z' },
      };
    },
    queryOf(r) {
      const words = texts[Math.floor(r() * texts.length)].split(' ');
      const n = 2 + Math.floor(r() * 3);
      const start = Math.floor(r() * Math.max(1, words.length - n));
      return words.slice(start, start + n).join(' ');
    },
  };
}

const pct = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

/**
 * Times `a` and `b` on each query in turn, alternating which goes first (so that neither always
 * follows the other's cache traffic), skips the first `warmup` queries, and prints p50/p95 of
 * each, their ratio, and on how many queries the two returned the same (by JSON).
 */
export function alternateAB<Q>(title: string, queries: readonly Q[], warmup: number, a: (q: Q) => unknown, b: (q: Q) => unknown): void {
  const ta: number[] = [], tb: number[] = [];
  let same = 0;
  for (const [i, q] of queries.entries()) {
    const [first, second] = i % 2 ? [a, b] : [b, a];
    let t = performance.now();
    const x = first(q);
    const dx = performance.now() - t;
    t = performance.now();
    const y = second(q);
    const dy = performance.now() - t;
    if (i < warmup) continue;
    (first === a ? ta : tb).push(dx);
    (first === a ? tb : ta).push(dy);
    if (JSON.stringify(x) === JSON.stringify(y)) same++;
  }
  const n = queries.length - warmup;
  console.log(`${title}, ${n} queries after ${warmup} warm-ups`);
  console.log(`  this   p50 ${pct(ta, 0.5).toFixed(2)} ms  p95 ${pct(ta, 0.95).toFixed(2)} ms`);
  console.log(`  other  p50 ${pct(tb, 0.5).toFixed(2)} ms  p95 ${pct(tb, 0.95).toFixed(2)} ms`);
  console.log(`  ratio  p50 ×${(pct(ta, 0.5) / pct(tb, 0.5)).toFixed(2)}  p95 ×${(pct(ta, 0.95) / pct(tb, 0.95)).toFixed(2)}; same results on ${same} / ${n} queries`);
}
