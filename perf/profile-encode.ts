/**
 * The pipeline alone, for a CPU profile: 10,000 Encodes (scripts of 1,000), 300 filtered
 * Retrieves and 300 filtered Updates on an in-memory store, with the data of perf/engine-perf.ts.
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx perf/profile-encode.ts
 */
import { createStore, run } from '../src/engine/index.js';

const NOW = '2026-01-01T00:00:00Z';
const TAGS = Array.from({ length: 100 }, (_, i) => `tag${i}`);
const WORDS = 'budget meeting launch review payment vendor hiring roadmap incident report customer design api security deadline quarter team plan risk metric'.split(' ');
let seed = 10_000;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const encodeIr = (i: number) => ({
  stage: 'ENC', op: 'Encode',
  args: {
    payload: { text: `${Array.from({ length: 12 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ')}.` }, type: 'note',
    tags: [TAGS[Math.floor(rand() * 100)], TAGS[Math.floor(rand() * 100)]],
    time: new Date(Date.UTC(2025, 0, 1) + Math.floor(rand() * 365) * 86_400_000 + (i % 86_400) * 1000).toISOString().slice(0, 19) + 'Z',
  },
});
const filter = (k: number, months = 3) => {
  const month = (k % 9) + 1;
  return { has_tags: [TAGS[k % 100]], time_range: { start: `2025-${String(month).padStart(2, '0')}-01T00:00:00Z`, end: `2025-${String(month + months).padStart(2, '0')}-01T00:00:00Z` } };
};
const store = await createStore();
const t0 = performance.now();
for (let done = 0; done < 10_000; done += 1000) run(store, Array.from({ length: 1000 }, (_, j) => encodeIr(done + j)), { now: NOW });
const t1 = performance.now();
for (let k = 0; k < 300; k++) run(store, [{ stage: 'RET', op: 'Retrieve', target: { filter: { ...filter(k), limit: 10 } }, args: { include: ['id', 'text', 'tags', 'time'] } }], { now: NOW });
const t2 = performance.now();
for (let k = 0; k < 300; k++) run(store, [{ stage: 'STO', op: 'Update', target: { filter: filter(k + 7, 1) }, args: { set: { type: 'reviewed', weight: 0.8 } } }], { now: NOW });
const t3 = performance.now();
console.log(`encode ${(t1 - t0).toFixed(0)} ms, retrieve ${(t2 - t1).toFixed(0)} ms, update ${(t3 - t2).toFixed(0)} ms`);
