/** How a host hands the engine its sql.js: a ready module, or where to find the wasm (the browser's way). */
import { resolve } from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { createStore, openStore } from '../../src/dialect/sqlite/store.js';

const WASM_DIR = resolve(import.meta.dirname, '../../node_modules/sql.js/dist');

describe('createStore options', () => {
  // First: sql.js initialises once per process (or page), so only the first load sees locateFile.
  it('loads the wasm through locateFile', async () => {
    const asked: string[] = [];
    const store = await createStore({ locateFile: (file) => (asked.push(file), resolve(WASM_DIR, file)) });
    expect(asked).toContain('sql-wasm.wasm');
    expect(store.all({ sql: 'SELECT COUNT(*) AS n FROM memory', params: [] })).toEqual([{ n: 0 }]);
  });

  it('uses a caller-supplied sql.js module', async () => {
    const SQL = await initSqlJs();
    const store = await createStore({ sqlJs: SQL });
    expect(run(store, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' } } }], { now: '2025-10-21T00:00:00Z' }).ok).toBe(true);
  });

  it('opens store bytes, and refuses foreign bytes with a diagnostic instead of throwing', async () => {
    const store = await createStore();
    run(store, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'kept' } } }], { now: '2025-10-21T00:00:00Z' });
    const reopened = await openStore({ data: store.export() });
    expect(reopened.ok && reopened.store.all({ sql: 'SELECT text FROM memory', params: [] })).toEqual([{ text: 'kept' }]);
    const foreign = await openStore({ data: new TextEncoder().encode('hello'.repeat(200)) });
    expect(foreign).toMatchObject({ ok: false, diagnostics: [{ code: 'bad-store-file' }] });
    await expect(createStore({ data: new TextEncoder().encode('hello'.repeat(200)) })).rejects.toThrow(/not an SQLite database/);
  });
});
