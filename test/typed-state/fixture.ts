/**
 * The typed-state tests' set-up: the stores each runs on (sql.js, one PGlite per file, and the
 * run's throwaway PostgreSQL server when its binaries are installed), and a tenant of its own per
 * test with the run helpers bound to it.
 */
import { afterAll, expect } from 'vitest';
import { run, type RunOptions, type Store } from '../../src/engine/index.js';
import type { AnySqlDriver } from '../../src/store/driver.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { openPostgresStore } from '../../src/dialect/postgres/store.js';
import { textToIr } from '../../src/pipeline.js';
import { freshDatabase, postgresBinaries } from '../support/postgres.js';

export type AnyStore = Store<AnySqlDriver>;
export type StoreCase = [name: string, open: () => Promise<AnyStore>];

const opened = (o: Awaited<ReturnType<typeof openPostgresStore>>): AnyStore => {
  if (!o.ok) throw new Error(o.diagnostics.map((d) => d.message).join('; '));
  return o.store as AnyStore;
};

/**
 * sql.js (a new store per call), PGlite (one per file) and, with `server` (its database's name)
 * and the binaries installed, the PostgreSQL server (one database per file). Closed after the file.
 */
export function storeCases(server?: string): StoreCase[] {
  let pglite: Promise<AnyStore> | undefined;
  let postgres: Promise<AnyStore> | undefined;
  afterAll(async () => {
    if (pglite) await (await pglite).close();
    if (postgres) await (await postgres).close();
  });
  return [
    ['sql.js', async () => (await createStore()) as AnyStore],
    ['PGlite', () => (pglite ??= openPostgresStore({ kind: 'pglite' }).then(opened))],
    ...(server !== undefined && postgresBinaries()
      ? [['PostgreSQL server', () => (postgres ??= freshDatabase(server).then((url) => openPostgresStore({ kind: 'postgres', url })).then(opened))] as StoreCase]
      : []),
  ];
}

/** Runs scripts in one tenant of a store at a clock: `exec` (any outcome), `ok` (no error), `refused` (its errors). */
export function tenantRunner(store: AnyStore, tenant: string, now: string) {
  const exec = async (text: string, options: RunOptions = {}) => {
    const parsed = textToIr(text);
    expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    return await run(store, parsed.irs, { now, tenant, sourceMaps: parsed.sourceMaps, ...options });
  };
  const ok = async (text: string, options: RunOptions = {}) => {
    const r = await exec(text, options);
    expect(r.diagnostics.filter((d) => d.severity === 'error'), JSON.stringify(r.diagnostics)).toEqual([]);
    return r;
  };
  const refused = async (text: string, options: RunOptions = {}) => {
    const r = await exec(text, options);
    expect(r.ok).toBe(false);
    return r.diagnostics.filter((d) => d.severity === 'error');
  };
  return { store, tenant, exec, ok, refused };
}
