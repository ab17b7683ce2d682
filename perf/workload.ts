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
 * `queryOf(r)` is 2–4 consecutive words of a text stored so far. With `common`, every text ends
 * with that word, and `commonQueryOf(r)` is two consecutive words of a stored text plus it (the
 * query of a few topic words and one word every record holds); `queryOf` never takes it.
 */
export function searchCorpus(timed = true, common?: string): { encodeIr(i: number, r: () => number): unknown; queryOf(r: () => number): string; commonQueryOf(r: () => number): string } {
  const vocabulary = zipfVocabulary();
  const texts: string[] = [];
  return {
    encodeIr(i, r) {
      const words = vocabulary.text(r, 8 + Math.floor(r() * 18));
      texts[i] = words;
      const text = common ? `${words} ${common}` : words;
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
    commonQueryOf(r) {
      const words = texts[Math.floor(r() * texts.length)].split(' ');
      const start = Math.floor(r() * (words.length - 1));
      return `${words.slice(start, start + 2).join(' ')} ${common ?? ''}`.trim();
    },
  };
}
