/** Nothing SQLite-specific outside the dialects (src/dialect/), so every other module serves PostgreSQL too. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SQLITE_ONLY = /json_each|json_extract|json_patch|json_group_array|sqlite_|PRAGMA|INSERT OR|last_insert_rowid|RETURNING|AUTOINCREMENT|\bGLOB\b|\b(MIN|MAX)\([^()]*,/; // two-argument MIN/MAX are scalar in SQLite only

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('dialect boundary', () => {
  it('keeps SQLite SQL inside src/dialect/sqlite/', () => {
    const files = ['src/lower', 'src/compile', 'src/execute', 'src/engine', 'src/store'].flatMap((d) => sources(join(ROOT, d)));
    const offenders = files
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, where: `${relative(ROOT, f)}:${i + 1}` }))
          .filter(({ line }) => !/^\s*(\/\/|\*|\/\*\*)/.test(line) && SQLITE_ONLY.test(line)),
      )
      .map((o) => `${o.where}: ${o.line.trim()}`);
    expect(files.length).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });

  it('the SQLite dialect does use them (the scan would see a leak)', () => {
    expect(SQLITE_ONLY.test(readFileSync(join(ROOT, 'src/dialect/sqlite/dialect.ts'), 'utf8'))).toBe(true);
  });
});
