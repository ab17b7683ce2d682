/**
 * The Node-only stores stay out of the browser-safe entry: nothing src/index.ts reaches imports
 * better-sqlite3, a PostgreSQL client, a `node:` module, or the Node-only files that hold them
 * (src/dialect/sqlite/native.ts, src/dialect/postgres/, src/dialect/open-url.ts, src/conformance/backends.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE_ONLY = [/^better-sqlite3$/, /^pg$/, /^@electric-sql\/pglite/, /^node:/, /\/node\//, /\/sqlite\/native\.js$/, /\/postgres\//, /\/open-url\.js$/, /\/backends\.js$/];

function graph(entry: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (file: string) => {
    if (out.has(file)) return;
    const specs = [...readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
    out.set(file, specs);
    for (const s of specs) {
      const p = resolve(dirname(file), s.replace(/\.js$/, '.ts'));
      if (s.startsWith('.') && existsSync(p)) walk(p);
    }
  };
  walk(resolve(ROOT, entry));
  return out;
}

describe('browser-safe graph', () => {
  it('src/index.ts never reaches better-sqlite3, PostgreSQL or a Node-only store file', () => {
    const g = graph('src/index.ts');
    expect(g.size).toBeGreaterThan(20);
    const offenders = [...g].flatMap(([f, specs]) => specs.filter((s) => NODE_ONLY.some((bad) => bad.test(s))).map((s) => `${f}: ${s}`));
    expect(offenders).toEqual([]);
  });

  it('src/node.ts does reach it', () => {
    expect([...graph('src/node.ts').values()].flat()).toContain('better-sqlite3');
  });
});
