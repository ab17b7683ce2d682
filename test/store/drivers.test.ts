/** The two SQLite drivers' own behaviour: rows as objects, the statement cache, exec of one statement or several. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, type SqlDriver } from '../../src/engine/index.js';
import { openStoreFile } from '../../src/node/sqlite-file.js';

const dir = mkdtempSync(join(tmpdir(), 't2m-drivers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const drivers: [string, () => Promise<SqlDriver>][] = [
  ['sql.js', async () => (await createStore()).driver],
  ['better-sqlite3', async () => {
    const opened = openStoreFile(join(dir, `s${Math.random().toString(36).slice(2)}.t2m`));
    if (!opened.ok) throw new Error(opened.diagnostics[0].message);
    return opened.store.driver;
  }],
];

describe.each(drivers)('%s driver', (_name, open) => {
  it('returns rows as objects keyed by column name, values typed, none for an empty result', async () => {
    const d = await open();
    d.exec('CREATE TABLE t (a INTEGER, b TEXT, c REAL, e BLOB)');
    d.run('INSERT INTO t VALUES (?, ?, ?, ?)', [1, 'x', 0.5, new Uint8Array([1, 2, 3])]);
    d.run('INSERT INTO t VALUES (?, ?, ?, ?)', [2, null, null, null]);
    const rows = d.all('SELECT a, b, c, e, a + 1 AS next FROM t ORDER BY a');
    expect(rows.map((r) => ({ ...r, e: r.e === null ? null : [...(r.e as Uint8Array)] }))).toEqual([
      { a: 1, b: 'x', c: 0.5, e: [1, 2, 3], next: 2 },
      { a: 2, b: null, c: null, e: null, next: 3 },
    ]);
    expect(d.all('SELECT a FROM t WHERE a > ?', [5])).toEqual([]);
    d.close();
  });

  it('answers right past the statement cache: a hot statement between hundreds of one-off ones, and evicted ones prepared again', async () => {
    const d = await open();
    d.exec('CREATE TABLE t (a INTEGER)');
    d.run('INSERT INTO t VALUES (?)', [7]);
    for (let i = 0; i < 1200; i++) {
      expect(d.all(`SELECT a + ${i} AS v FROM t`)).toEqual([{ v: 7 + i }]);
      if (i % 100 === 0) expect(d.all('SELECT a FROM t WHERE a = ?', [7])).toEqual([{ a: 7 }]);
    }
    expect(d.all('SELECT a + 0 AS v FROM t')).toEqual([{ v: 7 }]);
    d.close();
  });

  it('runs one statement or several given to exec; savepoints roll back and release', async () => {
    const d = await open();
    d.exec('CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)');
    d.begin();
    d.exec('SAVEPOINT s1');
    d.run('INSERT INTO t VALUES (?)', [2]);
    d.exec('ROLLBACK TO s1');
    d.exec('RELEASE s1');
    d.exec('SAVEPOINT s1');
    d.run('INSERT INTO t VALUES (?)', [3]);
    d.exec('RELEASE s1');
    d.commit();
    expect(d.all('SELECT a FROM t ORDER BY a')).toEqual([{ a: 1 }, { a: 3 }]);
    d.exec('');
    d.close();
  });
});

describe('sql.js driver journal', () => {
  it('keeps its rollback journal in memory (no journal file in the in-memory file system) and still rolls back transactions and savepoints', async () => {
    const store = await createStore();
    const d = store.driver;
    expect(d.all('PRAGMA journal_mode')).toEqual([{ journal_mode: 'memory' }]);
    d.exec('CREATE TABLE t (a INTEGER)');
    d.begin();
    d.run('INSERT INTO t VALUES (1)');
    d.exec('SAVEPOINT s');
    d.run('INSERT INTO t VALUES (2)');
    d.exec('ROLLBACK TO s');
    d.exec('RELEASE s');
    expect(d.all('SELECT a FROM t')).toEqual([{ a: 1 }]);
    d.rollback();
    expect(d.all('SELECT a FROM t')).toEqual([]);
    // The store's bytes still open as a store after a transaction was rolled back.
    d.exec('DROP TABLE t');
    const { openStore } = await import('../../src/execute/store.js');
    const bytes = d.export!();
    const reopened = await openStore({ data: bytes });
    expect(reopened.ok).toBe(true);
    d.close();
  });

  it('keeps its lock between transactions (locking_mode EXCLUSIVE: no other connection can reach it) and still exports and reopens', async () => {
    const store = await createStore();
    const d = store.driver;
    expect(d.all('PRAGMA locking_mode')).toEqual([{ locking_mode: 'exclusive' }]);
    d.begin();
    d.run(`INSERT INTO t2m_meta (key, value) VALUES ('x', '1')`);
    d.commit();
    d.begin();
    d.run(`UPDATE t2m_meta SET value = '2' WHERE key = 'x'`);
    d.rollback();
    expect(d.all(`SELECT value FROM t2m_meta WHERE key = 'x'`)).toEqual([{ value: '1' }]);
    const { openStore } = await import('../../src/execute/store.js');
    const reopened = await openStore({ data: d.export!() });
    expect(reopened.ok && reopened.store.driver.all(`SELECT value FROM t2m_meta WHERE key = 'x'`)).toEqual([{ value: '1' }]);
    d.close();
  });
});
