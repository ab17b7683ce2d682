import { describe, expect, it } from 'vitest';
import { VectorIndex } from '../../src/retrieve/vectors.js';

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A unit vector of `dims` floats, `nonZero` of them non-zero (like the offline embedder's, or a query's). */
function unit(r: () => number, dims: number, nonZero = dims, scale = 1): Float32Array {
  const v = new Float32Array(dims);
  for (let k = 0; k < nonZero; k++) v[Math.floor(r() * dims)] += r() * 2 - 1;
  const norm = Math.hypot(...v);
  for (let j = 0; j < dims; j++) v[j] = (v[j] / norm) * scale;
  return v;
}

/** The n nearest by a plain dot product over every dimension (positive scores only), best first, ties by id. */
function brute(vectors: Map<number, Float32Array>, q: Float32Array, n: number) {
  const all = [...vectors].map(([id, v]) => ({ id, score: v.reduce((a, x, j) => a + x * q[j], 0) })).filter((s) => s.score > 0);
  return all.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, n);
}

function expectSame(got: { id: number; score: number }[], want: { id: number; score: number }[]) {
  expect(got.map((s) => s.id)).toEqual(want.map((s) => s.id));
  got.forEach((s, i) => expect(s.score).toBeCloseTo(want[i].score, 9));
}

describe('VectorIndex', () => {
  it('finds exactly the nearest, through inserts, updates and removals (the packed prescan stays in step)', () => {
    const r = rng(11);
    const dims = 64;
    const index = new VectorIndex('m', dims);
    const held = new Map<number, Float32Array>();
    for (let id = 1; id <= 3000; id++) {
      const v = unit(r, dims, 40);
      index.set(id, v);
      held.set(id, v);
    }
    // Replace some, remove some (a removal moves the last slot into the hole), add more.
    for (let k = 0; k < 500; k++) {
      const id = 1 + Math.floor(r() * 3000);
      if (k % 3 === 0) {
        index.set(id, null);
        held.delete(id);
      } else {
        const v = unit(r, dims, 40);
        index.set(id, v);
        held.set(id, v);
      }
    }
    for (let id = 3001; id <= 3300; id++) {
      const v = unit(r, dims, 40);
      index.set(id, v);
      held.set(id, v);
    }
    expect(index.size).toBe(held.size);
    for (let k = 0; k < 60; k++) {
      const q = unit(r, dims, 3 + (k % 20));
      for (const n of [1, 10, 50, 200]) expectSame(index.nearest(q, n), brute(held, q, n));
    }
  });

  it('keeps ties and tiny margins exact (many equal vectors, near-duplicates)', () => {
    const r = rng(5);
    const dims = 32;
    const index = new VectorIndex('m', dims);
    const held = new Map<number, Float32Array>();
    const base = unit(r, dims);
    for (let id = 1; id <= 2000; id++) {
      const v = id % 4 === 0 ? base : Float32Array.from(base, (x) => x + (r() - 0.5) * 1e-4);
      index.set(id, v);
      held.set(id, v);
    }
    for (const n of [10, 100, 600]) expectSame(index.nearest(base, n), brute(held, base, n));
  });

  it('falls back to a full exact scan when coordinates are too large for the prescan', () => {
    const r = rng(3);
    const dims = 16;
    const index = new VectorIndex('m', dims);
    const held = new Map<number, Float32Array>();
    for (let id = 1; id <= 500; id++) {
      const v = unit(r, dims, dims, id === 7 ? 1e9 : 1);
      index.set(id, v);
      held.set(id, v);
    }
    const q = unit(r, dims);
    expectSame(index.nearest(q, 25), brute(held, q, 25));
  });
});
