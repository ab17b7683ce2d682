/**
 * The native driver opens its databases on better-sqlite3's addon found where its install builds
 * it (src/dialect/sqlite/native.ts `nativeBinding`), so the `bindings` package, which looks for the
 * addon by trial and error at every start, is never loaded. Each case runs in a child process,
 * whose module cache starts empty.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SQLITE_FILE = resolve(import.meta.dirname, '../../src/dialect/sqlite/native.ts');
const dir = mkdtempSync(join(tmpdir(), 't2m-native-binding-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `body` (with `m`, the module, and `req`, a require) in a child; returns what it printed. */
function child(body: string): string {
  const script = `import { createRequire } from 'node:module';\nconst m = await import(${JSON.stringify(SQLITE_FILE)});\nconst req = createRequire(import.meta.url);\n${body}\nconst loaded = Object.keys(req.cache).filter((k) => /[\\\\/]node_modules[\\\\/]bindings[\\\\/]/.test(k));\nconsole.log(JSON.stringify({ out, bindings: loaded.length }));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: resolve(import.meta.dirname, '../..') });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

describe('the native driver loads its addon without `bindings`', () => {
  it('an in-memory store', () => {
    const out = child("const s = m.openMemoryStore(); const out = s.driver.all('SELECT COUNT(*) AS n FROM memory')[0].n; s.close();");
    expect(JSON.parse(out)).toEqual({ out: 0, bindings: 0 });
  });

  it('a store file, and a scratch database beside it', () => {
    const file = join(dir, 'a.t2m');
    const out = child(`const o = m.openStoreFile(${JSON.stringify(file)}); if (!o.ok) throw new Error(o.diagnostics[0].message); const x = o.store.driver.scratch(); x.exec('CREATE TABLE t (a)'); const out = [o.store.driver.all('PRAGMA journal_mode')[0].journal_mode, x.all('SELECT COUNT(*) AS n FROM t')[0].n]; x.close(); o.store.close();`);
    expect(JSON.parse(out)).toEqual({ out: ['wal', 0], bindings: 0 });
  });
});
