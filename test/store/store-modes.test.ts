/**
 * A new store is its owner's alone: a store file 0600 (and the -wal and -shm files SQLite makes
 * beside it, which take its mode), a PGlite data directory 0700 (as PostgreSQL's initdb makes
 * one). An existing file or database directory keeps the mode its owner gave it.
 */
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';
import { PgliteDriver } from '../../src/dialect/postgres/pglite-driver.js';
import { openStoreUrl } from '../../src/dialect/open-url.js';
import { encode, runOk, tempDir } from '../engine/harness.js';

const mode = (path: string): number => statSync(path).mode & 0o777;

describe.skipIf(process.platform === 'win32')('modes of new stores (POSIX)', () => {
  it('a new store file is 0600, and so are its -wal and -shm files', () => {
    const path = join(tempDir(), 'new.sqlite');
    const opened = openStoreFile(path);
    if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
    runOk(opened.store, [encode('private note')]);
    expect(mode(path)).toBe(0o600);
    for (const sibling of [`${path}-wal`, `${path}-shm`]) {
      expect(existsSync(sibling), sibling).toBe(true);
      expect(mode(sibling), sibling).toBe(0o600);
    }
    opened.store.close();
    expect(mode(path)).toBe(0o600);
  });

  it('--db names make the same: a file through openStoreUrl is 0600', async () => {
    const path = join(tempDir(), 'by-name.sqlite');
    const opened = await openStoreUrl(path);
    if (!opened.ok) throw new Error('open');
    expect(opened.created).toBe(true);
    expect(mode(path)).toBe(0o600);
    await opened.store.close();
  });

  it('an existing store file keeps its mode', () => {
    const path = join(tempDir(), 'shared.sqlite');
    const first = openStoreFile(path);
    if (!first.ok) throw new Error('open');
    first.store.close();
    chmodSync(path, 0o640);
    const again = openStoreFile(path);
    if (!again.ok) throw new Error('reopen');
    runOk(again.store, [encode('a note')]);
    again.store.close();
    expect(mode(path)).toBe(0o640);
  });

  it('a read-only open creates nothing', () => {
    const path = join(tempDir(), 'missing.sqlite');
    expect(openStoreFile(path, { readOnly: true }).ok).toBe(false);
    expect(existsSync(path)).toBe(false);
  });

  it('a new PGlite directory is 0700; an empty one PGlite initialises is made 0700; one holding a database keeps its mode', async () => {
    const root = tempDir();
    const fresh = join(root, 'fresh');
    const a = await PgliteDriver.open({ dataDir: fresh });
    await a.close();
    expect(mode(fresh)).toBe(0o700);

    const empty = join(root, 'empty');
    mkdirSync(empty, { mode: 0o777 });
    chmodSync(empty, 0o777);
    const b = await PgliteDriver.open({ dataDir: empty });
    await b.close();
    expect(mode(empty)).toBe(0o700);

    chmodSync(fresh, 0o750);
    const c = await PgliteDriver.open({ dataDir: fresh });
    await c.close();
    expect(mode(fresh)).toBe(0o750);
  });

  it('a directory that is not empty and holds no database is not touched', async () => {
    const dir = join(tempDir(), 'notes');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'README'), 'mine');
    await PgliteDriver.open({ dataDir: dir }).then((d) => d.close(), () => undefined);
    expect(mode(dir)).toBe(0o755);
  });
});
