/**
 * Local, deterministic text processing: search tokens, the offline embedders, sentence / chunk /
 * section splitting and an extractive summariser. No model, no network; `Embedder` and
 * `Summarizer` are the interfaces a real model implements (src/retrieve/embeddings.ts).
 */

import { stemmer } from 'stemmer';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

/**
 * Turns text into a vector, at once: the offline embedders here, usable by every entry point. A
 * model reached over the network is a `RemoteEmbedder` (src/retrieve/embeddings.ts). The engine
 * asks for embeddings through its seam (an `embed` request, src/store/io.ts), so a store may have
 * either; a remote one works through the asynchronous entry points (runAsync …). Vectors of
 * different `model`s are never compared.
 */
export interface Embedder {
  readonly model: string;
  embed(text: string): ArrayLike<number>;
}

export type EmbedResult = { readonly ok: true; readonly vectors: Float32Array[] } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** An embedding model reached asynchronously (an OpenAI-compatible server: `openAIEmbedder`). Failures are results, never rejections. */
export interface RemoteEmbedder {
  readonly model: string;
  embedMany(texts: readonly string[]): Promise<EmbedResult>;
}

export type AnyEmbedder = Embedder | RemoteEmbedder;

export const isRemoteEmbedder = (e: AnyEmbedder): e is RemoteEmbedder => typeof (e as Embedder).embed !== 'function';

export interface Summarizer {
  summarize(texts: readonly { id: number; text: string }[], options: { focus?: string; maxTokens: number }): string;
}

/** English stop words: function words that carry no topic (kept out of the index and the query). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  ('a about above after again against all also am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each either else ever few for from further get got had has have having he her here hers ' +
    'herself him himself his how i if in into is it its itself just let me might more most must my myself no nor not now of off ' +
    'on once only or other ought our ours ourselves out over own per same shall she should so some such than that the their theirs ' +
    'them themselves then there these they this those through to too under until up upon us very was we were what when where ' +
    'which while who whom whose why will with within without would yet you your yours yourself yourselves').split(' '),
);

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;
const CJK_ALL = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+/g;

/** Stems already computed: the index, the embedder and every query stem the same words again and again. */
const stems = new Map<string, string>();
const STEM_CACHE = 50_000;

/** Porter stemming (the `stemmer` package) of a lower-cased word; numbers and very short words stay as they are. */
function stem(word: string): string {
  if (word.length <= 2) return word;
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= STEM_CACHE) stems.clear();
    s = /\d/.test(word) ? word : stemmer(word);
    stems.set(word, s);
  }
  return s;
}

/** An ASCII word's search token by word: its stem, or null for a stop word (one lookup where there were two). */
const searchTokens = new Map<string, string | null>();

/** The search token of a lower-cased ASCII word: null for a stop word, else its stem. */
function searchToken(w: string): string | null {
  let t = searchTokens.get(w);
  if (t === undefined) {
    if (searchTokens.size >= STEM_CACHE) searchTokens.clear();
    t = STOPWORDS.has(w) ? null : stem(w);
    searchTokens.set(w, t);
  }
  return t;
}

/** How a run of CJK characters becomes search tokens (e.g. `cjkBigrams`; eval/segmentation.ts compares others). */
export type CjkSegmenter = (run: string) => string[];

/** Overlapping character bigrams of a CJK run (`预算会议` → `预算 算会 会议`); a lone character as itself. */
export function cjkBigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

/** The characters of a CJK run, then its overlapping bigrams (`预算会` → `预 算 会 预算 算会`): the engine's CJK tokens. */
export function cjkUnigramsBigrams(run: string): string[] {
  const chars = [...run];
  return chars.length === 1 ? chars : [...chars, ...cjkBigrams(run)];
}

/**
 * The version of `tokens` a store's `search_text` was written with, kept in `t2m_meta` under
 * `tokens`; a store of another version is re-tokenized when opened writable (./retokenize.ts).
 * 1: CJK as character bigrams; 2: CJK as characters and bigrams (spec/retrieval.md#tokens).
 */
export const TOKENS_VERSION = 2;

/**
 * The search tokens of a text, the same for the index and the query: lower-cased words without
 * stop words, Porter-stemmed; runs of Chinese / Japanese / Korean characters as their characters
 * and overlapping character bigrams (`segment` replaces this, for measuring other segmentations).
 * Every token matches `[\p{L}\p{N}]+`.
 */
export function tokens(text: string, segment: CjkSegmenter = cjkUnigramsBigrams): string[] {
  const out: string[] = [];
  if (isAscii(text)) {
    // The same words as the pattern below finds, without a match object per word (./text.ts `isAscii`).
    const lower = text.toLowerCase();
    for (let i = 0, n = lower.length; i < n;) {
      if (!isAsciiWordChar(lower.charCodeAt(i))) { i++; continue; }
      let j = i + 1;
      while (j < n && isAsciiWordChar(lower.charCodeAt(j))) j++;
      const w = lower.slice(i, j);
      if (!STOPWORDS.has(w)) out.push(stem(w));
      i = j;
    }
    return out;
  }
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if (CJK.test(w)) {
      for (const run of w.match(CJK_ALL) ?? []) out.push(...segment(run));
      for (const rest of w.split(CJK_ALL)) if (rest && !STOPWORDS.has(rest)) out.push(stem(rest));
    } else if (!STOPWORDS.has(w)) out.push(stem(w));
  }
  return out;
}

/** The fields of a record the keyword index and the embedding cover. */
export const SEARCHED_FIELDS = ['text', 'tags', 'subject', 'topic'] as const;

/** The text a record is searched by: its text, tags, subject and topic. */
export function searchedText(row: Readonly<Record<string, unknown>>): string {
  // The non-empty strings of text, tags (each as a string; holes skipped), subject and topic, space-separated.
  let out = joined('', row.text);
  const tags = row.tags;
  if (Array.isArray(tags)) for (let k = 0; k < tags.length; k++) if (Object.hasOwn(tags, k)) out = joined(out, String(tags[k]));
  out = joined(out, row.subject);
  return joined(out, row.topic);
}

/** `out` and `v` joined by a space when `v` is a non-empty string (`out` alone otherwise). */
const joined = (out: string, v: unknown): string => (typeof v === 'string' && v ? (out ? `${out} ${v}` : v) : out);

/** What the engine stores in `search_text`: the record's search tokens, space-separated (null when it has none). */
export function searchTextOf(row: Readonly<Record<string, unknown>>): string | null {
  const text = searchedText(row);
  if (isAscii(text)) {
    // `tokens` of ASCII text, gathered and joined once: one flat string, where appending token by
    // token made two cons strings per token (and binding flattened them again).
    const lower = text.toLowerCase();
    const out: string[] = [];
    for (let i = 0, n = lower.length; i < n;) {
      if (!isAsciiWordChar(lower.charCodeAt(i))) { i++; continue; }
      let j = i + 1;
      while (j < n && isAsciiWordChar(lower.charCodeAt(j))) j++;
      const t = searchToken(lower.slice(i, j));
      i = j;
      if (t !== null) out.push(t);
    }
    return out.length ? out.join(' ') : null;
  }
  const t = tokens(text);
  return t.length ? t.join(' ') : null;
}

/**
 * Whether `text` is all ASCII (no code unit above 0x7f). There, the words of `[\p{L}\p{N}]+` (after
 * lower-casing, which keeps ASCII text ASCII and its length) are the runs of `a-z0-9`, none is CJK,
 * and a scan over the character codes finds them without a match object per word.
 */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** `[\p{L}\p{N}]` on lower-cased ASCII: a-z, 0-9. */
const isAsciiWordChar = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The first embedder (store versions 1–2): feature hashing of tokens into a small dense unit vector. Kept for comparison. */
export class HashEmbedder implements Embedder {
  readonly model: string;
  constructor(readonly dimensions = 64) {
    this.model = `t2m-hash-${dimensions}`;
  }
  embed(text: string): number[] {
    const v = new Array<number>(this.dimensions).fill(0);
    for (const t of tokens(text)) {
      const h = fnv1a(t);
      v[h % this.dimensions] += h & 0x80000000 ? -1 : 1;
    }
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => Math.round((x / norm) * 1000) / 1000);
  }
}

/** The weighted features a CJK run adds to an `NgramEmbedder` vector. */
export type CjkFeatures = (run: string, add: (feature: string, weight: number) => void) => void;

/** Character unigrams (weight 0.5) and bigrams (1) of a CJK run: the offline default's CJK features. */
export const cjkCharNgrams: CjkFeatures = (run, add) => {
  const chars = [...run];
  for (let i = 0; i < chars.length; i++) {
    add(chars[i], 0.5);
    if (i + 1 < chars.length) add(chars[i] + chars[i + 1], 1);
  }
};

/**
 * The offline default embedder: signed feature hashing of word unigrams (weight 1), word bigrams
 * (0.5) and character trigrams of each word, with boundary marks (0.35 each, so "payment" and
 * "payments" or "repaid" share most of their mass), into `dimensions` floats, L2-normalised. CJK
 * text contributes its character unigrams and bigrams (`cjk` replaces them, for measuring others).
 * Deterministic, no model, no network.
 */
export class NgramEmbedder implements Embedder {
  readonly model: string;
  constructor(readonly dimensions = 256, private readonly cjk: CjkFeatures = cjkCharNgrams) {
    this.model = `t2m-ngram-${dimensions}`;
  }
  embed(text: string): Float32Array {
    const v = new Float32Array(this.dimensions);
    if (isAscii(text)) return this.embedAscii(text.toLowerCase(), v);
    const add = (feature: string, w: number) => {
      const h = fnv1a(feature);
      v[h % this.dimensions] += h & 0x80000000 ? -w : w;
    };
    const words: string[] = [];
    for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
      const w = m[0];
      if (CJK.test(w)) {
        for (const run of w.match(CJK_ALL) ?? []) this.cjk(run, add);
        for (const rest of w.split(CJK_ALL)) if (rest && !STOPWORDS.has(rest)) words.push(rest);
      } else if (!STOPWORDS.has(w)) words.push(w);
    }
    let prev = '';
    for (const w of words) {
      const s = stem(w);
      add(s, 1);
      if (prev) add(prev + ' ' + s, 0.5);
      prev = s;
      // Character trigrams of <word>, hashed in place (fnv1a of the three UTF-16 units, as of the sliced string).
      const marked = `<${w}>`;
      for (let i = 0; i + 3 <= marked.length; i++) {
        let h = 0x811c9dc5;
        h = Math.imul(h ^ marked.charCodeAt(i), 0x01000193);
        h = Math.imul(h ^ marked.charCodeAt(i + 1), 0x01000193);
        h = Math.imul(h ^ marked.charCodeAt(i + 2), 0x01000193) >>> 0;
        v[h % this.dimensions] += h & 0x80000000 ? -0.35 : 0.35;
      }
    }
    return normalize(v);
  }

  /** What each word adds, by word (bounded like the stem cache): the same for every text it is in. */
  private readonly features = new Map<string, WordFeatures | null>();

  /**
   * `embed` of lower-cased ASCII text: the same additions in the same order (so the same float32
   * roundings, bit for bit), with each word's stem, stem hash and trigram slots looked up rather
   * than hashed again, and the bigram's hash continued from its first stem's (FNV-1a is a running
   * hash: fnv1a(a + ' ' + b) continues fnv1a(a) with ' ' and b), without building the strings.
   */
  private embedAscii(lower: string, v: Float32Array): Float32Array {
    const dims = this.dimensions;
    let prev: WordFeatures | null = null;
    for (let i = 0, n = lower.length; i < n;) {
      if (!isAsciiWordChar(lower.charCodeAt(i))) { i++; continue; }
      let j = i + 1;
      while (j < n && isAsciiWordChar(lower.charCodeAt(j))) j++;
      const w = lower.slice(i, j);
      i = j;
      let f = this.features.get(w);
      if (f === undefined) {
        if (this.features.size >= STEM_CACHE) this.features.clear();
        f = STOPWORDS.has(w) ? null : wordFeatures(w, dims);
        this.features.set(w, f);
      }
      if (f === null) continue;
      v[f.slot] += f.negative ? -1 : 1;
      if (prev) {
        let h = Math.imul(prev.hash ^ 0x20, 0x01000193);
        const s = f.stem;
        for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
        h >>>= 0;
        v[h % dims] += h & 0x80000000 ? -0.5 : 0.5;
      }
      prev = f;
      const t = f.trigrams;
      for (let k = 0; k < t.length; k++) {
        const x = t[k];
        v[x >> 1] += x & 1 ? -0.35 : 0.35;
      }
    }
    return normalize(v);
  }
}

/** A word's share of an `NgramEmbedder` vector: its stem's slot and sign, the stem's hash, its trigrams' slots (slot × 2 + 1 when negative). */
interface WordFeatures {
  readonly stem: string;
  readonly hash: number;
  readonly slot: number;
  readonly negative: boolean;
  readonly trigrams: Int32Array;
}

function wordFeatures(w: string, dims: number): WordFeatures {
  const s = stem(w);
  const hash = fnv1a(s);
  const marked = `<${w}>`;
  const trigrams = new Int32Array(Math.max(0, marked.length - 2));
  for (let i = 0; i + 3 <= marked.length; i++) {
    let h = 0x811c9dc5;
    h = Math.imul(h ^ marked.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ marked.charCodeAt(i + 1), 0x01000193);
    h = Math.imul(h ^ marked.charCodeAt(i + 2), 0x01000193) >>> 0;
    trigrams[i] = (h % dims) * 2 + (h & 0x80000000 ? 1 : 0);
  }
  return { stem: s, hash, slot: hash % dims, negative: (hash & 0x80000000) !== 0, trigrams };
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0, na = 0, nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Share of the query's distinct tokens found in the document tokens. */
export function keywordOverlap(query: readonly string[], doc: readonly string[]): number {
  const q = new Set(query);
  if (!q.size) return 0;
  const d = new Set(doc);
  let hit = 0;
  for (const t of q) if (d.has(t)) hit++;
  return hit / q.size;
}

/**
 * Sentence split on Western and CJK terminators (`.!?;` and `。！？；`), each closing quote or
 * bracket after them (`"'”’」』)`) staying with its sentence. The CJK characters are written as
 * escapes: esbuild copies a regular expression as it is, and one non-ASCII character in the CLI
 * bundle makes Node read the whole 1.9 MB as a two-byte string (scripts/bundle-cli.mjs).
 */
export function splitSentences(text: string): string[] {
  const parts = text.match(/[^.!?\u3002\uff01\uff1f\uff1b;\n]+(?:[.!?\u3002\uff01\uff1f\uff1b;]+["'\u201d\u2019\u300d\u300f)]*|\n|$)/g) ?? [];
  return parts.map((s) => s.trim()).filter((s) => s.length > 0 && /[\p{L}\p{N}]/u.test(s));
}

/** Chunks of at most `size` characters, cut at whitespace when one is near. */
export function splitChunks(text: string, size: number): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest.length > size) {
    let cut = rest.lastIndexOf(' ', size);
    if (cut < size / 2) cut = size;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/** `n` chunks of roughly equal length, cut at sentence ends where possible. */
export function splitInto(text: string, n: number): string[] {
  const sentences = splitSentences(text);
  if (sentences.length >= n) {
    const out: string[] = [];
    const per = Math.ceil(sentences.length / n);
    for (let i = 0; i < sentences.length; i += per) out.push(sentences.slice(i, i + per).join(' '));
    return out;
  }
  return splitChunks(text, Math.max(1, Math.ceil(text.length / n)));
}

/** Sections for `custom` splits: markdown headings first, else blank-line paragraphs, else lines. */
export function splitSections(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.some((l) => /^\s{0,3}#{1,6}\s/.test(l))) {
    const out: string[] = [];
    let cur: string[] = [];
    for (const line of lines) {
      if (/^\s{0,3}#{1,6}\s/.test(line) && cur.some((l) => l.trim())) {
        out.push(cur.join('\n').trim());
        cur = [];
      }
      cur.push(line);
    }
    if (cur.some((l) => l.trim())) out.push(cur.join('\n').trim());
    return out;
  }
  const paragraphs = text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  if (paragraphs.length > 1) return paragraphs;
  return lines.map((l) => l.trim()).filter(Boolean);
}

/** Rough token count: CJK characters count one each, other words one each. */
export function countTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)) {
    const w = m[0];
    n += CJK.test(w) ? [...w].length : 1;
  }
  return n;
}

/**
 * Extractive summary: sentences scored by focus-word overlap (when a focus is given) and by how
 * central their words are across all texts; the best are kept in original order until the
 * token budget is spent.
 */
export class ExtractiveSummarizer implements Summarizer {
  summarize(texts: readonly { id: number; text: string }[], options: { focus?: string; maxTokens: number }): string {
    const sentences = texts.flatMap((t, ti) => splitSentences(t.text).map((s, si) => ({ s, order: ti * 10_000 + si })));
    if (!sentences.length) return '';
    const freq = new Map<string, number>();
    const toks = sentences.map((x) => tokens(x.s));
    for (const ts of toks) for (const t of new Set(ts)) freq.set(t, (freq.get(t) ?? 0) + 1);
    const focus = options.focus ? tokens(options.focus) : [];
    const scored = sentences.map((x, i) => {
      const ts = toks[i];
      const centrality = ts.length ? ts.reduce((a, t) => a + (freq.get(t) ?? 0), 0) / ts.length / sentences.length : 0;
      return { ...x, score: 2 * keywordOverlap(focus, ts) + centrality - i * 1e-6 };
    });
    scored.sort((a, b) => b.score - a.score);
    const chosen: typeof scored = [];
    let used = 0;
    for (const x of scored) {
      const n = countTokens(x.s);
      if (used + n > options.maxTokens) continue;
      chosen.push(x);
      used += n;
    }
    if (!chosen.length) return truncateTokens(scored[0].s, options.maxTokens);
    return chosen.sort((a, b) => a.order - b.order).map((x) => x.s).join(' ');
  }
}

/** The longest prefix of `text` within `max` tokens. */
export function truncateTokens(text: string, max: number): string {
  let n = 0;
  let end = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)) {
    const w = m[0];
    const cost = CJK.test(w) ? [...w].length : 1;
    if (n + cost > max) {
      if (CJK.test(w)) end = m.index + Math.max(0, max - n);
      break;
    }
    n += cost;
    end = m.index + w.length;
  }
  return text.slice(0, end);
}
