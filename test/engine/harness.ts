/**
 * Small helpers for engine tests: a fresh store, IR builders, and running that must succeed.
 * The store's driver is sql.js (in memory) unless a suite calls `useDriver('native')`
 * (test/store/native-suite.test.ts runs the engine and execute suites again on store files).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { run, type RunOptions, type RunResult, type Store } from '../../src/engine/index.js';
import { createStore, openStore } from '../../src/dialect/sqlite/store.js';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';
import { postgres, postgresVector } from '../../src/dialect/postgres/dialect.js';
import { Store as StoreClass } from '../../src/store/store.js';
import { SchemaDriver, type SyncBridgeDriver } from '../support/sync-bridge.js';

export const NOW = '2025-10-21T00:00:00Z';

export type DriverName = 'sql.js' | 'native' | 'pglite' | 'postgres';
let driver: DriverName = 'sql.js';

/** Which driver `freshStore` and `reopen` use from now on in this test file. */
export function useDriver(name: DriverName): void {
  driver = name;
}

export const currentDriver = (): DriverName => driver;

/** A fresh temporary directory. */
export const tempDir = (): string => mkdtempSync(join(tmpdir(), 't2m-store-'));

function fileStore(path: string): Store {
  const opened = openStoreFile(path);
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return opened.store;
}

/** PostgreSQL (test/store/pglite-suite.test.ts, postgres-suite.test.ts): one connection per file, a fresh schema per store. */
let bridge: SyncBridgeDriver | undefined;
let schemas = 0;
export function usePostgres(b: SyncBridgeDriver): void {
  bridge = b;
}

function schemaStore(schema: string): Store {
  const problems = bridge!.prepare(schema);
  if (problems.length) throw new Error(problems.map((d) => d.message).join('; '));
  const d = new SchemaDriver(bridge!, schema);
  // With pgvector (PGlite), the dialect that ranks vectors in SQL, as postgresDialectOf picks it.
  const pgvector = Number(d.all(`SELECT to_regtype('vector') IS NOT NULL AS ok`)[0]?.ok) === 1;
  const store = new StoreClass(d, { dialect: pgvector ? postgresVector : postgres });
  return store;
}

export const freshStore = (): Promise<Store> =>
  driver === 'native' ? Promise.resolve(fileStore(join(tempDir(), 'store.sqlite')))
    : driver === 'pglite' || driver === 'postgres' ? Promise.resolve(schemaStore(`t2m_suite_${process.pid}_${++schemas}`))
    : createStore();

/** The same store opened again (sql.js: from its exported bytes; native: its file), through the checks and migrations of opening. */
export async function reopen(store: Store): Promise<Store> {
  if (store.exportable) {
    const opened = await openStore({ data: store.export() });
    if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
    return opened.store;
  }
  store.close();
  if (store.driver instanceof SchemaDriver) return schemaStore(store.driver.schema);
  return fileStore(store.location);
}

export function encode(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { meta, ...args } = extra;
  return { stage: 'ENC', op: 'Encode', args: { payload: { text }, ...args }, ...(meta ? { meta } : {}) };
}

export function op(opName: string, target: Record<string, unknown> | undefined, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) {
  const stage = opName === 'Retrieve' || opName === 'Summarize' ? 'RET' : opName === 'Encode' ? 'ENC' : 'STO';
  return { stage, op: opName, ...(target ? { target } : {}), args, ...(meta ? { meta } : {}) };
}

export function runOk(store: Store, irs: unknown[], options: RunOptions = {}): RunResult {
  const r = run(store, irs, { now: NOW, ...options });
  expect(r.diagnostics.filter((d) => d.severity === 'error'), JSON.stringify(r.diagnostics)).toEqual([]);
  expect(r.ok).toBe(true);
  return r;
}

export function rows(store: Store, sql = 'SELECT * FROM memory ORDER BY id'): Record<string, any>[] {
  return store.query(sql);
}

export function row(store: Store, id: number): Record<string, any> {
  const r = rows(store, `SELECT * FROM memory WHERE id = ${Number(id)}`)[0];
  if (!r) throw new Error(`no row ${id}`);
  return { ...r, tags: r.tags && JSON.parse(r.tags), facets: r.facets && JSON.parse(r.facets) };
}
