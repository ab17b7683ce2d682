/**
 * A/B of two checkouts of the engine in one process (load from other processes hits both alike):
 *   npx tsx perf/seam-ab.ts <dir A> <dir B> [rounds]
 * Each round runs, on each side, 2,000 Encodes (scripts of 500), 200 filtered Retrieves and
 * 200 filtered Updates, alternating A and B (ABBA); prints the median time per side and B/A.
 */
export {};

const [dirA, dirB] = [process.argv[2], process.argv[3]];
const ROUNDS = Number(process.argv[4] ?? 5);
const NOW = '2026-01-01T00:00:00Z';
const TAGS = Array.from({ length: 50 }, (_, i) => `tag${i}`);
type Engine = typeof import('../src/index.js');
const load = async (dir: string): Promise<Engine> => import(`${dir}/src/index.ts`);
const A = await load(dirA);
const B = await load(dirB);

const enc = (i: number) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: `note ${i} about budget meeting ${i % 17}` }, tags: [TAGS[i % 50]], time: `2025-${String((i % 12) + 1).padStart(2, '0')}-10T00:00:00Z` } });
const filter = (k: number) => ({ has_tags: [TAGS[k % 50]], time_range: { start: '2025-01-01T00:00:00Z', end: '2025-07-01T00:00:00Z' } });

async function round(E: Engine): Promise<[number, number, number]> {
  const store = await E.createStore();
  const t0 = performance.now();
  for (let s = 0; s < 2000; s += 500) {
    const r = E.run(store, Array.from({ length: 500 }, (_, j) => enc(s + j)), { now: NOW });
    if (!r.ok) throw new Error('encode failed');
  }
  const t1 = performance.now();
  for (let k = 0; k < 200; k++) E.run(store, [{ stage: 'RET', op: 'Retrieve', target: { filter: { ...filter(k), limit: 10 } }, args: { include: ['id', 'text'] } }], { now: NOW });
  const t2 = performance.now();
  for (let k = 0; k < 200; k++) E.run(store, [{ stage: 'STO', op: 'Update', target: { filter: { ...filter(k), limit: 20 } }, args: { set: { weight: 0.8 } } }], { now: NOW });
  const t3 = performance.now();
  store.close();
  return [t1 - t0, t2 - t1, t3 - t2];
}

const times: Record<'A' | 'B', number[][]> = { A: [], B: [] };
await round(A); await round(B); // warm-up
for (let i = 0; i < ROUNDS; i++) {
  // ABBA order, so neither side always runs second (after the other's garbage).
  if (i % 2 === 0) {
    times.A.push(await round(A));
    times.B.push(await round(B));
  } else {
    times.B.push(await round(B));
    times.A.push(await round(A));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [k, name] of ['encode 2,000', 'retrieve 200', 'update 200'].entries()) {
  const a = median(times.A.map((t) => t[k]));
  const b = median(times.B.map((t) => t[k]));
  console.log(`${name.padEnd(14)} A ${a.toFixed(0).padStart(6)} ms   B ${b.toFixed(0).padStart(6)} ms   B/A ${(b / a).toFixed(3)}`);
}
