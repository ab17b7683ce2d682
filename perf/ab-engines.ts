/**
 * The set-up of the one-process A/B scripts (perf/ru-ab.ts, perf/situ-ab.ts): this checkout's
 * engine (or T2M_ENGINE_A's) as "a" and T2M_ENGINE_B's as "b", the `--db <path>` flag (store
 * files on each engine's own better-sqlite3 driver, else sql.js in memory), the positional
 * [size] [rounds], and the stores each side opens (files removed by `removeStores`).
 */
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { populate } from './workload.js';

type Engine = typeof import('../src/index.js');
type FileStores = typeof import('../src/dialect/sqlite/native.js');
/** A checkout's native store-file driver, from its entry (…/src/index.ts): where it is now, or where it was before src/dialect/. */
const nativeOf = (entry: string): string => [resolve(entry, '../dialect/sqlite/native.ts'), resolve(entry, '../node/sqlite-file.ts')].find((f) => existsSync(f)) ?? resolve(entry, '../dialect/sqlite/native.ts');

const other = process.env.T2M_ENGINE_B;
if (!other) {
  console.error('set T2M_ENGINE_B to the other engine (…/src/index.ts)');
  process.exit(2);
}
const first = process.env.T2M_ENGINE_A;
export const engines: Record<'a' | 'b', Engine> = {
  a: first ? await import(pathToFileURL(resolve(first)).href) : await import('../src/index.js'),
  b: await import(pathToFileURL(resolve(other)).href),
};
const dbAt = process.argv.indexOf('--db');
const DB = dbAt > 0 ? process.argv[dbAt + 1] : undefined;
const positional = process.argv.slice(2).filter((_, i, all) => all[i] !== '--db' && all[i - 1] !== '--db');
export const SIZE = Number(positional[0] ?? 10_000);
/** The rounds asked for, or the script's default. */
export const roundsOr = (fallback: number): number => Number(positional[1] ?? fallback);
export const files: Record<'a' | 'b', FileStores> | undefined = DB
  ? {
    a: first ? await import(pathToFileURL(nativeOf(first)).href) : await import('../src/dialect/sqlite/native.js'),
    b: await import(pathToFileURL(nativeOf(other)).href),
  }
  : undefined;
const created: string[] = [];

/** A fresh store of side `name` (`suffix` tells a side's stores apart). */
export async function storeOf(name: 'a' | 'b', suffix: string): Promise<any> {
  if (!files) return engines[name].createStore();
  const path = `${DB}.${name}${suffix}`;
  if (existsSync(path)) throw new Error(`${path} exists; give --db a path whose files may be created`);
  created.push(path);
  const opened = files[name].openStoreFile(path);
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return opened.store;
}

/** Side `name`'s engine and two stores holding the workload's SIZE records: the pipeline's, and the replay's (its driver). */
export async function openSide(name: 'a' | 'b'): Promise<{ engine: Engine; store: any; replayStore: any; replay: any }> {
  const engine = engines[name];
  const store = await storeOf(name, '');
  const replayStore = await storeOf(name, '.direct');
  const replay = replayStore.driver;
  populate(engine, store, replay, SIZE);
  return { engine, store, replayStore, replay };
}

/** Closes the sides' stores and removes the files `storeOf` created (store files only). */
export function removeStores(sides: Iterable<{ store: { close(): unknown }; replayStore: { close(): unknown } }>): void {
  if (!files) return;
  for (const s of sides) {
    s.store.close();
    s.replayStore.close();
  }
  for (const path of created) for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
}
