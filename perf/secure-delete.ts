/**
 * The cost of erasure at rest (PRAGMA secure_delete, which the SQLite stores turn on): encode 2,000
 * records, then hard-delete them all, on a native store file and on sql.js, with secure_delete on
 * (as opened) and off, the two interleaved round by round; medians of the rounds, in CPU ms.
 *
 *   npx tsx perf/secure-delete.ts [--rounds 5] [--records 2000] [--durable]
 *
 * The records are ephemeral (their hard deletion is an erasure: audit images blanked too), or
 * durable with --durable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type Store } from '../src/engine/index.js';
import { openStoreFile } from '../src/dialect/sqlite/native.js';
import { createStore } from '../src/dialect/sqlite/store.js';
import { textToIr } from '../src/pipeline.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg('rounds', 5);
const RECORDS = arg('records', 2000);
const NOW = '2026-06-10T00:00:00Z';

const encodes = textToIr(Array.from({ length: RECORDS }, (_, i) => `ENCODE "note ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(4)}" TAGS "t${i % 10}" RETENTION ${process.argv.includes('--durable') ? 'durable' : 'ephemeral'};`).join('\n'));
const erase = textToIr('DELETE ALL HARD CONFIRM;');

async function open(kind: 'native' | 'sql.js', dir: string): Promise<Store> {
  if (kind === 'sql.js') return createStore();
  const opened = openStoreFile(join(dir, 'store.sqlite'));
  if (!opened.ok) throw new Error(opened.diagnostics[0].message);
  return opened.store;
}

async function once(kind: 'native' | 'sql.js', secure: boolean): Promise<{ encode: number; erase: number }> {
  const dir = mkdtempSync(join(tmpdir(), 't2m-secure-delete-'));
  const store = await open(kind, dir);
  store.query(`PRAGMA secure_delete = ${secure ? 'ON' : 'OFF'}`);
  // CPU time (user + system) of this process, where SQLite runs too: on a loaded machine it moves
  // less than wall time.
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const t0 = cpu();
  const a = run(store, encodes.irs, { now: NOW });
  const t1 = cpu();
  const b = run(store, erase.irs, { now: NOW });
  const t2 = cpu();
  if (!a.ok || !b.ok) throw new Error(JSON.stringify([...a.diagnostics, ...b.diagnostics].slice(0, 2)));
  store.close();
  rmSync(dir, { recursive: true, force: true });
  return { encode: t1 - t0, erase: t2 - t1 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const kind of ['native', 'sql.js'] as const) {
  const on: { encode: number; erase: number }[] = [];
  const off: { encode: number; erase: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Each side goes first every other round: neither gets the warmer start.
    for (const secure of r % 2 ? [true, false] : [false, true]) (secure ? on : off).push(await once(kind, secure));
  }
  const row = (label: string, xs: typeof on) => `${label}: encode ${median(xs.map((x) => x.encode)).toFixed(0)} CPU ms, hard delete ${median(xs.map((x) => x.erase)).toFixed(0)} CPU ms`;
  console.log(`${kind} (${RECORDS} ${process.argv.includes('--durable') ? 'durable' : 'ephemeral'} records, ${ROUNDS} rounds)`);
  console.log(`  ${row('secure_delete off', off)}`);
  console.log(`  ${row('secure_delete on ', on)}`);
  console.log(`  ratio on/off: encode ×${(median(on.map((x) => x.encode)) / median(off.map((x) => x.encode))).toFixed(2)}, hard delete ×${(median(on.map((x) => x.erase)) / median(off.map((x) => x.erase))).toFixed(2)}`);
}
