/**
 * Local, deterministic text processing: tokens, a hashed embedding, relevance scoring, sentence /
 * chunk / section splitting and an extractive summariser. No model, no network; `Embedder` and
 * `Summarizer` are the interfaces a real model can implement later.
 */

export interface Embedder {
  readonly model: string;
  embed(text: string): number[];
}

export interface Summarizer {
  summarize(texts: readonly { id: number; text: string }[], options: { focus?: string; maxTokens: number }): string;
}

const STOPWORDS = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were will with we our you your i me my all any about after before into than then there these those their them they what which who whom how when where why not no do does did can could should would may might must'.split(' '),
);

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;

/** Crude English stemming: enough for "meetings" to meet "meeting". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.length > 4 && word.endsWith('es') && /(sh|ch|x|s)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  return word;
}

/** Lower-cased, stemmed word tokens without stopwords, plus overlapping bigrams of CJK runs. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if (CJK.test(w)) {
      const chars = [...w].filter((c) => CJK.test(c));
      if (chars.length === 1) out.push(chars[0]);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
      const rest = w.replace(new RegExp(CJK.source, 'g'), ' ').trim();
      if (rest) out.push(...rest.split(/\s+/).map(stem));
    } else if (!STOPWORDS.has(w)) out.push(stem(w));
  }
  return out;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Feature hashing of tokens into a small dense unit vector (signed, so collisions cancel out on average). */
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

export function cosine(a: readonly number[], b: readonly number[]): number {
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

/** Sentence split on Western and CJK terminators; the terminator stays with its sentence. */
export function splitSentences(text: string): string[] {
  const parts = text.match(/[^.!?。！？；;\n]+(?:[.!?。！？；;]+["'”’」』)]*|\n|$)/g) ?? [];
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
