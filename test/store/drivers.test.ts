/** The two SQLite drivers' own behaviour: rows as objects, the statement cache, exec of one statement or several. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type SqlDriver } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';

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
    const { openStore } = await import('../../src/dialect/sqlite/store.js');
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
    const { openStore } = await import('../../src/dialect/sqlite/store.js');
    const reopened = await openStore({ data: d.export!() });
    expect(reopened.ok && reopened.store.driver.all(`SELECT value FROM t2m_meta WHERE key = 'x'`)).toEqual([{ value: '1' }]);
    d.close();
  });
});

describe('native driver rows (arrays from better-sqlite3, objects made per column list)', () => {
  const script = [
    { stage: 'ENC', op: 'Encode', args: { payload: { text: 'a note' }, tags: ['x', 'y'], facets: { status: 'open' }, time: '2025-10-20T00:00:00Z' } },
    { stage: 'ENC', op: 'Encode', args: { payload: { text: "it's done" }, type: 'event', subject: 'me', weight: 0.25, time: '2025-10-19T00:00:00Z' } },
    { stage: 'STO', op: 'Lock', target: { ids: ['1'] }, args: { mode: 'read_only' } },
    { stage: 'STO', op: 'Delete', target: { ids: ['2'] }, args: { soft: true } },
  ];
  const queries = [
    'SELECT * FROM memory ORDER BY id',
    'SELECT * FROM audit_log ORDER BY id',
    'SELECT id, tags, 1 AS one, 2.5 AS half, NULL AS missing, x\'00ff\' AS bytes FROM memory ORDER BY id',
  ];
  /** Blobs as plain bytes (sql.js gives Uint8Array, better-sqlite3 Buffer), for comparing the two drivers' values. */
  const plain = (rows: readonly Record<string, unknown>[]) => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Uint8Array ? [...v] : v])));

  it('equal better-sqlite3\'s own row objects (keys in order, values and their types, Buffers for blobs) and sql.js\'s rows for the same store', async () => {
    const { run } = await import('../../src/engine/index.js');
    const { openMemoryStore } = await import('../../src/dialect/sqlite/native.js');
    const now = '2025-10-21T00:00:00Z';
    const sqljs = await createStore();
    const native = openMemoryStore();
    for (const s of [sqljs, native]) expect(run(s, script, { now, traceId: 'run-1' }).ok).toBe(true);
    const db = (native.driver as import('../../src/dialect/sqlite/native.js').NativeDriver).db;
    for (const sql of queries) {
      const rows = native.driver.all(sql);
      const own = db.prepare(sql).all() as Record<string, unknown>[];
      expect(rows.length).toBeGreaterThan(0);
      rows.forEach((row, i) => {
        expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
        expect(Object.keys(row)).toEqual(Object.keys(own[i]));
        for (const k of Object.keys(row)) {
          expect(typeof row[k]).toBe(typeof own[i][k]);
          expect(Buffer.isBuffer(row[k])).toBe(Buffer.isBuffer(own[i][k]));
        }
      });
      expect(rows).toEqual(own);
      const theirs = sqljs.driver.all(sql);
      expect(rows.map((r) => Object.keys(r))).toEqual(theirs.map((r) => Object.keys(r)));
      // The stores were written by the same script at the same time, under the same trace id.
      expect(plain(rows)).toEqual(plain(theirs));
    }
    expect(native.driver.all('SELECT * FROM memory WHERE id = ?', [99])).toEqual([]);
    sqljs.driver.close();
    native.driver.close();
  });

  it('keep better-sqlite3\'s rules for odd column lists: a repeated name keeps its first place and its last value; numeric names; a column named __proto__ as better-sqlite3 treats it', async () => {
    const { openMemoryStore } = await import('../../src/dialect/sqlite/native.js');
    const native = openMemoryStore();
    const db = (native.driver as import('../../src/dialect/sqlite/native.js').NativeDriver).db;
    for (const sql of ['SELECT 1 AS a, 2 AS b, 3 AS a', 'SELECT 1, 2 AS "0", \'x\' AS "a""b"', 'SELECT 1 AS "__proto__", 2 AS b', 'SELECT x\'0001\' AS "__proto__", 2 AS b', 'SELECT 9007199254740993 AS big, -0.0 AS z']) {
      const rows = native.driver.all(sql);
      const own = db.prepare(sql).all() as Record<string, unknown>[];
      expect(Object.entries(rows[0])).toEqual(Object.entries(own[0]));
      // A blob named __proto__ becomes better-sqlite3's row's prototype (a Buffer); so it must here.
      const proto = (r: object) => Object.getPrototypeOf(r) as object;
      expect(Buffer.isBuffer(proto(rows[0]))).toBe(Buffer.isBuffer(proto(own[0])));
      if (Buffer.isBuffer(proto(own[0]))) expect([...(proto(rows[0]) as Buffer)]).toEqual([...(proto(own[0]) as Buffer)]);
      else expect(proto(rows[0])).toBe(Object.prototype);
    }
    expect(native.driver.all('SELECT 1 AS a, 2 AS b, 3 AS a')).toEqual([{ a: 3, b: 2 }]);
    native.driver.close();
  });

  it('follow a schema change: a cached SELECT * after a column is added or renamed here, or added by another connection to the file', async () => {
    const { openMemoryStore } = await import('../../src/dialect/sqlite/native.js');
    const d = openMemoryStore().driver;
    d.exec('CREATE TABLE t (a INTEGER, b TEXT)');
    d.run('INSERT INTO t VALUES (?, ?)', [1, 'x']);
    expect(d.all('SELECT * FROM t')).toEqual([{ a: 1, b: 'x' }]);
    d.exec('ALTER TABLE t ADD COLUMN c REAL DEFAULT 0.5');
    expect(d.all('SELECT * FROM t')).toEqual([{ a: 1, b: 'x', c: 0.5 }]);
    d.run('ALTER TABLE t RENAME COLUMN b TO bee');
    expect(Object.keys(d.all('SELECT * FROM t')[0])).toEqual(['a', 'bee', 'c']);
    d.exec('ALTER TABLE t RENAME COLUMN bee TO b; ALTER TABLE t DROP COLUMN c');
    expect(d.all('SELECT * FROM t')).toEqual([{ a: 1, b: 'x' }]);
    d.close();

    const path = join(dir, 'schema-change.t2m');
    const one = openStoreFile(path);
    const two = openStoreFile(path);
    if (!one.ok || !two.ok) throw new Error('cannot open the store twice');
    one.store.driver.exec('CREATE TABLE t (a INTEGER)');
    one.store.driver.run('INSERT INTO t VALUES (?)', [1]);
    expect(one.store.driver.all('SELECT * FROM t')).toEqual([{ a: 1 }]);
    two.store.driver.exec('ALTER TABLE t ADD COLUMN z TEXT DEFAULT \'new\'');
    expect(one.store.driver.all('SELECT * FROM t')).toEqual([{ a: 1, z: 'new' }]);
    one.store.driver.close();
    two.store.driver.close();
  });
});
