/**
 * What each statement pays before lowering IN A REAL RUN, for two checkouts in one process: each
 * checkout's src/ is copied to a scratch directory and its src/engine/index.ts given timers
 * around the prelude (`prepareScript`: clock, limits, validation, actor check, checker) and the
 * checker call inside it, then the workload of perf/engine-perf.ts runs through `run()` on an
 * sql.js store of 10k memories per side, each statement's SQL replayed on a second store right
 * after (as engine-perf.ts does, so the engine's JavaScript runs as cold as it does there):
 *   - encode: scripts of 1,000 Encodes (µs per statement);
 *   - retrieve: the filtered Retrieve, one statement per script;
 *   - update: the filtered Update, one statement per script.
 * The sides take turns in short blocks (default 120 blocks of 10 statements, an encode script
 * every tenth block), so that both see the same load; each figure is the median over the blocks. No timer is left in
 * src: the patch lives only in the scratch copies. Figures, not asserts.
 *   nice -n 5 npx tsx perf/prelude-situ.ts /work/wt/basebd1 [blocks] [statements per block] [B: another checkout]
 * (B defaults to this checkout; the same checkout as A and B shows how far two copies of one
 * code differ at the machine's load).
 */
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NOW, encodeIr, filter, rng } from './workload.js';

const other = process.argv[2];
if (!other) throw new Error('usage: perf/prelude-situ.ts <other checkout> [blocks] [statements per block] [B checkout]');
const BLOCKS = Number(process.argv[3] ?? 120);
const PER = Number(process.argv[4] ?? 10);
const root = resolve(import.meta.dirname, '..');
const here = resolve(process.argv[5] ?? root);
const scratch = join(tmpdir(), `prelude-situ-${process.pid}`);

type Engine = typeof import('../src/index.js') & { T: Record<string, number> };

/** The checkout's src/, copied and given timers (the anchors are statements of src/engine/index.ts). */
async function load(name: string, checkout: string): Promise<Engine> {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  cpSync(join(checkout, 'src'), join(dir, 'src'), { recursive: true });
  symlinkSync(resolve(root, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), readFileSync(join(checkout, 'package.json')));
  const file = join(dir, 'src/engine/index.ts');
  let text = readFileSync(file, 'utf8');
  const wrap = (pattern: RegExp, key: string): void => {
    if (!pattern.test(text)) throw new Error(`${name}: no ${key} anchor ${pattern}`);
    text = text.replace(pattern, (m) => `const __t_${key} = performance.now();\n${m}\nT.${key} += performance.now() - __t_${key};`);
  };
  wrap(/^\s*const script = prepareScript\(irs, options\);$/m, 'prepare');
  wrap(/^\s*const found = check\(valid, [^\n]*\);$/m, 'check');
  text += '\nexport const T: Record<string, number> = { prepare: 0, check: 0 };\n';
  writeFileSync(file, text);
  // The library entry (createStore, run) over the engine just given timers, and the timers.
  const { T } = (await import(pathToFileURL(file).href)) as { T: Record<string, number> };
  return { ...((await import(pathToFileURL(join(dir, 'src/index.ts')).href)) as typeof import('../src/index.js')), T };
}

const sides = { A: await load('A', resolve(other)), B: await load('B', here) };
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

const statement = (kind: string, k: number) => kind === 'retrieve'
  ? { stage: 'RET', op: 'Retrieve', target: { filter: { ...filter(k), limit: 10 } }, args: { include: ['id', 'text', 'tags', 'time'] } }
  : { stage: 'STO', op: 'Update', target: { filter: filter(k + 7, 1) }, args: { set: { type: 'reviewed', weight: 0.8 } } };

interface Side { engine: Engine; store: import('../src/engine/index.js').Store; replay: import('../src/engine/index.js').SqlDriver; next: number; rand: () => number }
async function side(engine: Engine): Promise<Side> {
  const store = await engine.createStore();
  const replay = (await engine.createStore()).driver;
  const s: Side = { engine, store, replay, next: 0, rand: rng(10_000) };
  for (let b = 0; b < 10; b++) encodeBlock(s);
  return s;
}
function replaying(s: Side, sql: readonly { sql: string; params: unknown }[]): void {
  s.replay.begin();
  for (const x of sql) s.replay.all(x.sql, x.params as never);
  s.replay.commit();
}
function encodeBlock(s: Side): number {
  const irs = Array.from({ length: 1000 }, () => encodeIr(s.next++, s.rand));
  const r = s.engine.run(s.store, irs, { now: NOW });
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
  replaying(s, r.results.flatMap((x) => x.sql));
  return irs.length;
}
const state = { A: await side(sides.A), B: await side(sides.B) };

/** One block of `kind` on side `s`: µs per statement of prepare and check. */
function block(s: Side, kind: string, offset: number): [number, number] {
  const T = s.engine.T;
  T.prepare = 0;
  T.check = 0;
  let n = 0;
  if (kind === 'encode') n = encodeBlock(s);
  else {
    for (let k = 0; k < PER; k++, n++) {
      const r = s.engine.run(s.store, [statement(kind, offset + k)], { now: NOW });
      if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
      replaying(s, r.results[0].sql);
    }
  }
  return [(T.prepare * 1000) / n, (T.check * 1000) / n];
}

const kinds = ['encode', 'retrieve', 'update'];
const figures = new Map<string, [number, number][]>();
// Warm-up: one block of each kind per side, not counted.
for (const kind of kinds) for (const name of ['A', 'B'] as const) block(state[name], kind, 900);
for (let b = 0; b < BLOCKS; b++) {
  for (const kind of kinds) {
    // An encode block is a script of 1,000: one in ten blocks, so that the stores stay near 10k.
    if (kind === 'encode' && b % 10 !== 0) continue;
    for (const name of b % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const)) {
      const key = `${kind} ${name}`;
      if (!figures.has(key)) figures.set(key, []);
      figures.get(key)!.push(block(state[name], kind, b * PER));
    }
  }
}
const median = (xs: number[]) => { const s = [...xs].sort((x, y) => x - y); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
// Load only adds time: the mean of the three fastest blocks moves less than the median on a busy machine.
const low = (xs: number[]) => [...xs].sort((x, y) => x - y).slice(0, 3).reduce((a, b) => a + b, 0) / Math.min(3, xs.length);
console.log(`µs per statement in situ (sql.js, 10k memories), ${BLOCKS} blocks; A = ${other}, B = ${here}`);
for (const [name, stat] of [['median', median], ['fastest 3', low]] as const) {
  console.log(`${name.padEnd(10)}${'prepare A'.padStart(11)}${'prepare B'.padStart(11)}${'B/A'.padStart(7)}${'check A'.padStart(11)}${'check B'.padStart(11)}${'B/A'.padStart(7)}`);
  for (const kind of kinds) {
    const a = figures.get(`${kind} A`)!;
    const bb = figures.get(`${kind} B`)!;
    const pa = stat(a.map((x) => x[0])), pb = stat(bb.map((x) => x[0]));
    const ca = stat(a.map((x) => x[1])), cb = stat(bb.map((x) => x[1]));
    console.log(`${kind.padEnd(10)}${pa.toFixed(1).padStart(11)}${pb.toFixed(1).padStart(11)}${(pb / pa).toFixed(2).padStart(7)}${ca.toFixed(1).padStart(11)}${cb.toFixed(1).padStart(11)}${(cb / ca).toFixed(2).padStart(7)}`);
  }
}
