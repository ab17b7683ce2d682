/**
 * The ASCII fast paths of `tokens` and `NgramEmbedder.embed` (a scan over character codes, each
 * word's features looked up) against the pattern-matching reference they replace, written out
 * here: the same tokens, and embeddings equal bit for bit (the store's vectors must not move).
 */
import { describe, expect, it } from 'vitest';
import { stemmer } from 'stemmer';
import { NgramEmbedder, STOPWORDS, searchedText, searchTextOf, tokens } from '../../src/text/text.js';
import { WORDS, rng } from '../../perf/workload.js';

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;
const stem = (w: string) => (w.length <= 2 || /\d/.test(w) ? w : stemmer(w));
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The reference for ASCII text (no CJK there): words of `[\p{L}\p{N}]+`, stop words out, stemmed. */
function referenceTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) if (!STOPWORDS.has(m[0])) out.push(stem(m[0]));
  return out;
}

/** The reference embedding (the embedder before its fast path), for text without CJK. */
function referenceEmbed(text: string, dims = 256): Float32Array {
  const v = new Float32Array(dims);
  const add = (feature: string, w: number) => {
    const h = fnv1a(feature);
    v[h % dims] += h & 0x80000000 ? -w : w;
  };
  const words: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) if (!STOPWORDS.has(m[0])) words.push(m[0]);
  let prev = '';
  for (const w of words) {
    const s = stem(w);
    add(s, 1);
    if (prev) add(prev + ' ' + s, 0.5);
    prev = s;
    const marked = `<${w}>`;
    for (let i = 0; i + 3 <= marked.length; i++) add(marked.slice(i, i + 3), 0.35);
  }
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}

const bits = (v: Float32Array) => [...new Uint32Array(v.buffer, v.byteOffset, v.length)];

/** ASCII texts: benchmark-like sentences, odd punctuation, digits, capitals, stop words, control characters, empties. */
function asciiTexts(): string[] {
  const r = rng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const extra = ['The', 'AND', 'of', 'Q2', 'x', 'ab', '2025-01-01', 'e-mail', "don't", 'API_v2', 'a1b2', '', '...', '\t', '\n', '~', '\u007f', 'Payments', 'PAYING', 'repaid'];
  const out = ['', ' ', '.', 'a', 'the', 'the the', 'budget', 'Budget review.', 'quarterly budget review', 'budgeting for the quarter', 'x'.repeat(300), 'ab cd ef'];
  for (let n = 0; n < 400; n++) {
    const len = Math.floor(r() * 30);
    const words = Array.from({ length: len }, () => (r() < 0.6 ? pick(WORDS) : pick(extra)));
    const seps = [' ', ' ', ' ', ', ', '. ', '-', '_', '/', '  ', '\n'];
    out.push(words.map((w, i) => (i ? pick(seps) : '') + (r() < 0.2 ? w.toUpperCase() : w)).join(''));
  }
  // Random printable and control ASCII.
  for (let n = 0; n < 200; n++) out.push(String.fromCharCode(...Array.from({ length: Math.floor(r() * 60) }, () => Math.floor(r() * 128))));
  return out;
}

describe('ASCII fast paths of the search tokens and the n-gram embedder', () => {
  const texts = asciiTexts();

  it('finds the same tokens as the pattern', () => {
    for (const t of texts) expect(tokens(t), JSON.stringify(t)).toEqual(referenceTokens(t));
  });

  it('writes the same search text as the tokens of the searched fields, joined', () => {
    const r = rng(11);
    const pick = (xs: readonly string[]) => xs[Math.floor(r() * xs.length)];
    for (const [k, t] of texts.entries()) {
      const row = {
        text: r() < 0.9 ? t : null, tags: r() < 0.7 ? [pick(texts), 'Tag-One', '', pick(texts)] : r() < 0.5 ? 'not a list' : undefined,
        subject: r() < 0.3 ? pick(texts) : null, topic: r() < 0.3 ? 'café budget' : undefined,
      };
      const reference = [row.text, ...(Array.isArray(row.tags) ? row.tags : []), row.subject, row.topic].filter((v) => typeof v === 'string' && v).join(' ');
      expect(searchedText(row), String(k)).toBe(reference);
      const words = tokens(reference);
      expect(searchTextOf(row), String(k)).toBe(words.length ? words.join(' ') : null);
    }
  });

  it('embeds bit for bit as the reference, twice (the second time from the per-word cache)', () => {
    for (const dims of [256, 64, 7]) {
      const e = new NgramEmbedder(dims);
      for (let round = 0; round < 2; round++) {
        for (const t of texts) {
          const ref = referenceEmbed(t, dims);
          expect(bits(e.embed(t)), JSON.stringify(t)).toEqual(bits(ref));
        }
      }
    }
  });

  it('takes text with any non-ASCII character the general way (same tokens and vectors as before)', () => {
    const e = new NgramEmbedder();
    // Non-ASCII letters are word characters; CJK keeps its own features.
    expect(tokens('café naïve budget')).toEqual(referenceTokens('café naïve budget'));
    expect(bits(e.embed('café naïve budget'))).toEqual(bits(referenceEmbed('café naïve budget')));
    expect(tokens('İstanbul meeting')).toEqual(referenceTokens('İstanbul meeting'));
    expect(bits(e.embed('İstanbul meeting'))).toEqual(bits(referenceEmbed('İstanbul meeting')));
  });
});
