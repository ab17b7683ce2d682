/** Store files on the native driver: what opening checks, versions, and what writing in place keeps. */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, lstatSync, readFileSync, readdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { run, type Store } from '../../src/engine/index.js';
import { openStore } from '../../src/dialect/sqlite/store.js';
import { STORE_FORMAT } from '../../src/store/format.js';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';
import { t2m } from '../cli/run-cli.js';
import { encode, NOW, op, rows, runOk, tempDir } from '../engine/harness.js';

/** The CLI from its sources, as test/cli/run-cli.ts runs it. */
const CLI = ['--import', 'tsx', resolve(import.meta.dirname, '../../src/cli/main.ts')];
const FIXTURE = resolve(import.meta.dirname, '../fixtures/stores/v1.sqlite');
const FIXTURE_ROWS = [
  { id: 1, text: 'Budget review. Hiring paused.', tags: '["budget","q3"]', deleted: 0 },
  { id: 2, text: 'Dentist on Friday', tags: '["personal"]', deleted: 1 },
  { id: 3, text: 'Quarterly OKR draft', tags: '["okr","q3"]', deleted: 0 },
];

function open(path: string): Store {
  const opened = openStoreFile(path);
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return opened.store;
}

/** A store file with `n` records, closed. */
function storeFile(n = 3): string {
  const path = join(tempDir(), 'store.sqlite');
  const store = open(path);
  runOk(store, Array.from({ length: n }, (_, i) => encode(`record ${i} ${'x'.repeat(200)}`, { tags: [`t${i % 7}`] })));
  store.close();
  return path;
}

/** Changes a closed store file behind the engine's back. */
function tamper(path: string, sql: string): void {
  const db = new Database(path);
  db.exec(sql);
  db.close();
}

/** Both drivers: the file, and its bytes on sql.js. */
async function openBoth(path: string) {
  const bytes = readFileSync(path);
  return { native: openStoreFile(path), sqljs: await openStore({ data: bytes }) };
}

const format = (s: Store) => String(s.query(`SELECT value FROM t2m_meta WHERE key = 'format'`)[0].value);

describe('store files written in place', () => {
  it('uses WAL with synchronous=FULL, and a script is one transaction visible to the next opener', () => {
    const path = storeFile(0);
    const store = open(path);
    expect(store.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    expect(store.query('PRAGMA synchronous')).toEqual([{ synchronous: 2 }]);
    runOk(store, [encode('a'), encode('b')]);
    const other = open(path);
    expect(rows(other).map((r) => r.text)).toEqual(['a', 'b']);
    other.close();
    store.close();
    expect(readdirSync(resolve(path, '..'))).toEqual(['store.sqlite']);
  });

  it('a writer that cannot get the lock in time prints nothing, exits 2 with store-busy and changes nothing', () => {
    const path = storeFile();
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const r = spawnSync(process.execPath, [...CLI, 'run', '-', '--db', path, '--now', NOW], { input: 'ENCODE "late";', encoding: 'utf8', env: { ...process.env, T2M_BUSY_TIMEOUT_MS: '300' } });
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/store-busy: .*store\.sqlite is busy/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const store = open(path);
    expect(rows(store)).toHaveLength(3);
    store.close();
  });

  it('a writer killed mid-script leaves the store whole: the next opener recovers, nothing half-written, no temporary file', async () => {
    const path = storeFile(0);
    // Records big enough that the transaction spills pages into the WAL before it commits.
    const script = Array.from({ length: 3000 }, (_, i) => `ENCODE "bulk ${i} ${'x'.repeat(3000)}" TAGS "bulk";`).join('\n');
    const child = spawn(process.execPath, [...CLI, 'run', '-', '--db', path, '--now', NOW]);
    child.stdin.end(script);
    // Kill it once it holds the write lock (the WAL grows), or after a while.
    const started = Date.now();
    while (Date.now() - started < 8000 && !(existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 1024 * 1024)) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    const store = open(path);
    const n = rows(store, 'SELECT COUNT(*) AS n FROM memory')[0].n;
    expect([0, 3000]).toContain(n);
    store.close();
    expect(readdirSync(resolve(path, '..'))).toEqual(['store.sqlite']);
  });

  it('keeps a 0600 mode and a symlink', () => {
    const path = storeFile();
    chmodSync(path, 0o600);
    const link = join(tempDir(), 'link.sqlite');
    symlinkSync(path, link);
    const r = t2m(['run', '-', '--db', link, '--now', NOW], 'ENCODE "through the link";');
    expect(r.status, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(realpathSync(link)).toBe(realpathSync(path));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const store = open(path);
    expect(rows(store).at(-1)!.text).toBe('through the link');
    store.close();
    expect(readdirSync(resolve(path, '..'))).toEqual(['store.sqlite']);
  });

  it('refuses a read-only file (store-read-only, exit 2) and changes nothing; audit still reads it', () => {
    const path = storeFile();
    chmodSync(path, 0o444);
    const before = readFileSync(path);
    const opened = openStoreFile(path);
    expect(opened).toMatchObject({ ok: false, diagnostics: [{ code: 'store-read-only' }] });
    const r = t2m(['run', '-', '--db', path, '--now', NOW], 'ENCODE "no";');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/store-read-only: .*store\.sqlite is read-only: nothing was changed/);
    expect(r.stdout).toBe('');
    expect(t2m(['sweep', '--db', path]).status).toBe(2);
    const audit = t2m(['audit', '--db', path, '--json']);
    expect(audit.status, audit.stderr).toBe(0);
    expect(JSON.parse(audit.stdout).map((e: any) => e.op)).toEqual(['Encode', 'Encode', 'Encode']);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a file with a corrupt page on both drivers, with a diagnostic and no change', async () => {
    const path = storeFile(200);
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    expect(bytes.length / pageSize).toBeGreaterThan(8);
    // Overwrite a page in the middle of the memory table with garbage.
    for (let i = 6 * pageSize + 8; i < 7 * pageSize; i++) bytes[i] = (i * 7919) & 0xff;
    writeFileSync(path, bytes);
    const { native, sqljs } = await openBoth(path);
    for (const opened of [native, sqljs]) {
      expect(opened.ok).toBe(false);
      if (opened.ok) continue;
      expect(opened.diagnostics[0].code).toMatch(/^(store-corrupt|bad-store-file)$/);
      expect(opened.diagnostics[0].message).toMatch(/corrupt/);
    }
    const r = t2m(['run', '-', '--db', path, '--now', NOW], 'ENCODE "no";');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/store\.sqlite is (corrupt|not an SQLite database, or a corrupt one)/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('refuses a store with a trigger text2mem did not create (it could suppress audit entries), on both drivers', async () => {
    const path = storeFile();
    tamper(path, 'CREATE TRIGGER hide AFTER INSERT ON audit_log BEGIN DELETE FROM audit_log WHERE id = NEW.id; END');
    const { native, sqljs } = await openBoth(path);
    for (const opened of [native, sqljs]) {
      expect(opened).toMatchObject({ ok: false, diagnostics: [{ code: 'store-schema' }] });
      expect(!opened.ok && opened.diagnostics[0].message).toMatch(/unexpected trigger 'hide' on table 'audit_log' that text2mem did not create/);
    }
    // An engine trigger redefined is refused too.
    const other = storeFile();
    tamper(other, `DROP TRIGGER memory_tag_insert; CREATE TRIGGER memory_tag_insert AFTER INSERT ON memory BEGIN SELECT 1; END`);
    expect(openStoreFile(other)).toMatchObject({ ok: false, diagnostics: [{ code: 'store-schema', message: expect.stringMatching(/memory_tag_insert' on table 'memory' differs/) }] });
  });

  it('refuses a store from a newer version on both drivers', async () => {
    const path = storeFile();
    tamper(path, `UPDATE t2m_meta SET value = 'text2mem-store/99' WHERE key = 'format'`);
    const { native, sqljs } = await openBoth(path);
    for (const opened of [native, sqljs]) {
      expect(opened).toMatchObject({ ok: false, diagnostics: [{ code: 'store-too-new', message: expect.stringMatching(/format 99, written by a newer text2mem; this version reads formats up to 5/) }] });
    }
    expect(t2m(['run', '-', '--db', path], 'ENCODE "no";').status).toBe(2);
  });
});

describe('store versions', () => {
  it('a v1 store file written by the first engine keeps opening on both drivers, with the same rows, and is migrated', async () => {
    const path = join(tempDir(), 'v1.sqlite');
    copyFileSync(FIXTURE, path);
    const { native, sqljs } = await openBoth(path);
    for (const opened of [native, sqljs]) {
      expect(opened.ok).toBe(true);
      if (!opened.ok) continue;
      const store = opened.store;
      expect(rows(store, 'SELECT id, text, tags, deleted FROM memory ORDER BY id')).toEqual(FIXTURE_ROWS);
      expect(format(store)).toBe(STORE_FORMAT);
      expect([...runOk(store, [op('Retrieve', { filter: { has_tags: ['q3'] } })]).results[0].ids].sort()).toEqual([1, 3]);
      expect(store.query('SELECT COUNT(*) AS n FROM audit_log')).toEqual([{ n: 5 }]);
      store.close();
    }
    // The migration was committed to the file.
    expect(String(new Database(path, { readonly: true }).prepare(`SELECT value FROM t2m_meta WHERE key = 'format'`).pluck().get())).toBe(STORE_FORMAT);
  });

  it('migrates a v3 store: its postings table goes, and the index counter moves when search tokens change', async () => {
    const path = storeFile(2);
    tamper(path, `DROP TRIGGER memory_index_insert; DROP TRIGGER memory_index_update; DROP TRIGGER memory_index_delete;
CREATE TABLE memory_term (term TEXT NOT NULL, impact INTEGER NOT NULL, memory_id INTEGER NOT NULL, tf INTEGER NOT NULL, len INTEGER NOT NULL, PRIMARY KEY (term, impact, memory_id)) WITHOUT ROWID;
CREATE TRIGGER memory_search_insert AFTER INSERT ON memory BEGIN INSERT INTO memory_term VALUES (NEW.search_text, 1, NEW.id, 1, 1); END;
CREATE TRIGGER memory_vector_update AFTER UPDATE OF embedding_f32, embedding_model, deleted ON memory BEGIN
  UPDATE memory_search_stats SET vectors = vectors + 1 WHERE id = 1;
END; UPDATE memory_search_stats SET docs = 0, tokens = 0; UPDATE t2m_meta SET value = 'text2mem-store/3' WHERE key = 'format'`);
    const { native, sqljs } = await openBoth(path);
    for (const opened of [native, sqljs]) {
      expect(opened.ok, JSON.stringify(!opened.ok && opened.diagnostics)).toBe(true);
      if (!opened.ok) continue;
      const store = opened.store;
      expect(format(store)).toBe(STORE_FORMAT);
      expect(store.query(`SELECT name FROM sqlite_master WHERE name LIKE 'memory_term%' OR name LIKE 'memory_search_%' OR name LIKE 'memory_vector%' OR name LIKE 'memory_index%' ORDER BY name`).map((r) => r.name))
        .toEqual(['memory_index_delete', 'memory_index_insert', 'memory_index_update', 'memory_search_stats']);
      expect(store.query('SELECT docs FROM memory_search_stats')).toEqual([{ docs: 2 }]);
      const search = () => runOk(store, [op('Retrieve', { search: { intent: { query: 'zebrafish' }, overrides: { alpha: 0 } } })]).results[0].ids;
      expect(search()).toEqual([]);
      // Behind the engine's back: the in-memory keyword index sees it through the counter.
      store.query(`UPDATE memory SET search_text = 'zebrafish' WHERE id = 2`);
      expect(search()).toEqual([2]);
      store.close();
    }
  });

  it('migrates an early v1 store (no tag index, an index on deleted) in one transaction', async () => {
    const path = join(tempDir(), 'early.sqlite');
    copyFileSync(FIXTURE, path);
    tamper(path, 'DROP TABLE memory_tag; DROP TRIGGER memory_tag_insert; DROP TRIGGER memory_tag_update; DROP TRIGGER memory_tag_delete; CREATE INDEX memory_deleted ON memory(deleted)');
    const { native, sqljs } = await openBoth(path);
    for (const opened of [native, sqljs]) {
      expect(opened.ok, JSON.stringify(!opened.ok && opened.diagnostics)).toBe(true);
      if (!opened.ok) continue;
      const store = opened.store;
      expect(format(store)).toBe(STORE_FORMAT);
      expect(store.query(`SELECT name FROM sqlite_master WHERE name = 'memory_deleted'`)).toEqual([]);
      expect(rows(store, 'SELECT memory_id, tag FROM memory_tag ORDER BY memory_id, tag').map((r) => `${r.memory_id}:${r.tag}`)).toEqual(['1:budget', '1:q3', '2:personal', '3:okr', '3:q3']);
      expect(run(store, [encode('new', { tags: ['q3'] })], { now: NOW }).ok).toBe(true);
      expect([...runOk(store, [op('Retrieve', { filter: { has_tags: ['q3'] } })]).results[0].ids].sort()).toEqual([1, 3, 4]);
      store.close();
    }
  });
});
