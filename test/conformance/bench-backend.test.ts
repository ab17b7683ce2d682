/**
 * `t2m bench`'s backends (src/conformance/backends.ts): native SQLite in memory by default and for a
 * file, sql.js for `:memory:`, and sql.js with a note where the native addon does not load.
 */
import { describe, expect, it, vi } from 'vitest';

const addon = vi.hoisted(() => ({ missing: false }));
vi.mock('../../src/dialect/sqlite/native.js', async (real) => {
  const mod = await real<typeof import('../../src/dialect/sqlite/native.js')>();
  return {
    ...mod,
    openMemoryStore: (...args: Parameters<typeof mod.openMemoryStore>) => {
      if (addon.missing) throw new Error('Could not locate the bindings file.\n → more lines');
      return mod.openMemoryStore(...args);
    },
  };
});

const { benchBackend } = await import('../../src/conformance/backends.js');

describe('bench backends', () => {
  it('runs on native SQLite in memory by default and for a file, on sql.js for :memory:', async () => {
    for (const url of [undefined, { kind: 'file', path: 'never-created.sqlite' } as const]) {
      const b = await benchBackend(url);
      expect('code' in b).toBe(false);
      if ('code' in b) continue;
      expect([b.store?.driver.kind, b.backend, b.note]).toEqual(['better-sqlite3', undefined, undefined]);
      b.store?.close();
    }
    const sqljs = await benchBackend({ kind: 'memory' });
    expect(Object.keys(sqljs)).toEqual(['close']);
  });

  it('falls back to sql.js, saying why in one line, when the native addon does not load', async () => {
    addon.missing = true;
    try {
      const b = await benchBackend();
      expect(Object.keys(b).sort()).toEqual(['close', 'note']);
      expect((b as { note?: string }).note).toBe('native SQLite is not available (Could not locate the bindings file.); the samples run on sql.js');
    } finally {
      addon.missing = false;
    }
  });
});
