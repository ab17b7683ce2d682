/**
 * The house's one-way order: ARCHITECTURE.md's table lists the folders of src/ from the ground up,
 * and a module may import only its own folder or one listed above it in the table — so the
 * engine and the store never reach a backend, and no two folders import each other.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The table's rooms in order: `src/x/` folders and `src/x.ts` files named in its first column. */
function rooms(): string[] {
  const table = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8').split('\n').filter((l) => l.startsWith('| `src/'));
  return table.flatMap((l) => [...l.split('|')[1].matchAll(/`(src\/[^`]+)`/g)].map((m) => m[1].replace(/\/$/, '')));
}

function roomOf(file: string, order: readonly string[]): number {
  let best = -1;
  for (const [i, r] of order.entries()) if ((file === r || file.startsWith(`${r}/`)) && (best < 0 || r.length > order[best].length)) best = i;
  return best;
}

describe('the order of the house', () => {
  const order = rooms();
  const files = sources(join(ROOT, 'src')).map((f) => relative(ROOT, f));

  it('names every module of src/ in ARCHITECTURE.md', () => {
    expect(order.length).toBeGreaterThan(20);
    expect(files.filter((f) => roomOf(f, order) < 0)).toEqual([]);
  });

  it('imports only down the table (or within a folder)', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = roomOf(file, order);
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        const target = relative(ROOT, resolve(ROOT, dirname(file), m[1])).replace(/\.js$/, '.ts');
        const to = roomOf(target, order);
        if (to > from) upward.push(`${file} (${order[from]}) imports ${target} (${order[to]})`);
      }
    }
    expect(upward).toEqual([]);
  });
});
