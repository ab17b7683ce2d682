import { describe, expect, it } from 'vitest';
import { KeywordIndex } from '../../src/retrieve/keywords.js';

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('KeywordIndex', () => {
  it('prunes without changing the best n: the same ids and scores as scoring every record (ties by id), through updates and deletes', () => {
    const r = rng(9);
    // Zipf-like words: a few in most records (long postings, where pruning starts), many rare ones.
    const word = () => `w${Math.floor(1 / (r() + 0.002))}`;
    const doc = () => Array.from({ length: 3 + Math.floor(r() * 12) }, word).join(' ');
    const index = new KeywordIndex();
    const docs = Array.from({ length: 4000 }, doc);
    docs.forEach((d, i) => index.set(i + 1, d));
    // Duplicates make exact ties at the cut.
    for (let id = 4001; id <= 4300; id++) index.set(id, docs[id % 50]);
    for (let k = 0; k < 600; k++) index.set(1 + Math.floor(r() * 4300), k % 2 ? null : doc());
    let pruned = 0;
    for (let k = 0; k < 300; k++) {
      const terms = Array.from({ length: 1 + (k % 4) }, word);
      for (const n of [1, 10, 50]) {
        const got = index.search(terms, n);
        const all = index.search(terms, 1e9);
        expect(got).toEqual(all.slice(0, n));
        if (all.length > n) pruned++;
      }
    }
    expect(pruned).toBeGreaterThan(300);
  });
});

describe('KeywordIndex, a query of one common term (postings read by impact)', () => {
  it('gives the same ids and scores as scoring every record, with writes, deletes and compactions between searches', () => {
    const r = rng(21);
    const word = () => `w${Math.floor(1 / (r() + 0.01))}`;
    const doc = () => Array.from({ length: 2 + Math.floor(r() * 20) }, word).join(' ');
    const index = new KeywordIndex();
    index.impactFrom = 100;
    const docs = Array.from({ length: 3000 }, doc);
    docs.forEach((d, i) => index.set(i + 1, d));
    for (let id = 3001; id <= 3200; id++) index.set(id, docs[id % 40]); // exact ties
    let compared = 0;
    for (let round = 0; round < 12; round++) {
      for (let k = 0; k < 40; k++) {
        const term = word();
        if (index.df(term) < index.impactFrom) continue;
        for (const n of [1, 10, 50]) {
          const got = index.search([term], n);
          expect(got).toEqual(index.search([term], 1e9).slice(0, n));
          compared++;
        }
      }
      // Writes after the buckets were built: updates, deletes (round 6 deletes most, so the index compacts), inserts.
      const writes = round === 6 ? 2500 : 300;
      for (let k = 0; k < writes; k++) {
        const id = 1 + Math.floor(r() * 3400);
        index.set(id, round === 6 || k % 3 === 0 ? null : doc());
      }
    }
    expect(compared).toBeGreaterThan(200);
  });
});
