/**
 * The audit entry's images are written in one pass by ascending id (src/execute/audit.ts,
 * `imagesJson`): the stored text must be exactly what serialising the id-keyed objects gives,
 * whatever order the statement changed its records in.
 */
import { describe, expect, it } from 'vitest';
import { encode, freshStore, op, runOk } from '../engine/harness.js';

const byId = (changes: readonly { id: number; before: unknown; after: unknown }[], side: 'before' | 'after') =>
  JSON.stringify(Object.fromEntries(changes.map((c) => [c.id, c[side]])));

describe('audit images', () => {
  it('are the JSON of the images keyed by id, for ascending, descending and single changes', async () => {
    const store = await freshStore();
    const r = runOk(store, [
      encode('one', { tags: ['a'] }), encode('two', { tags: ['a'] }), encode('three', { tags: ['b'] }),
      op('Update', { filter: { has_tags: ['a'] } }, { set: { type: 'x', weight: 0.5 } }),
      // The primary (3) changes first, then its children (1, 2): ids out of order.
      op('Merge', { ids: ['1', '2', '3'] }, { primary_id: '3' }),
    ]);
    const stored = store.driver.all('SELECT before, after FROM audit_log ORDER BY id', []);
    expect(stored).toHaveLength(r.results.length);
    r.results.forEach((result, i) => {
      expect(result.changes.length).toBeGreaterThan(0);
      expect(stored[i].before).toBe(byId(result.changes, 'before'));
      expect(stored[i].after).toBe(byId(result.changes, 'after'));
    });
    expect(r.results[4].changes.map((c) => c.id)[0]).toBe(3);
  });
});

describe('audit images in any order (imagesJson through byAscendingId)', () => {
  it('match the id-keyed JSON for shuffled changes with repeated ids, and for ids that are not array keys', async () => {
    const { imagesJsonForTest } = await import('../../src/execute/audit.js');
    const r = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const rand = r(3);
    for (let n = 0; n < 300; n++) {
      const len = Math.floor(rand() * 12);
      const changes = Array.from({ length: len }, (_, k) => {
        const id = rand() < 0.05 ? [2 ** 32 - 1, 2 ** 32, 0.5, -1][Math.floor(rand() * 4)] : 1 + Math.floor(rand() * (n % 3 === 0 ? 5 : 1000));
        return { id, before: rand() < 0.3 ? null : { w: k, id }, after: rand() < 0.2 ? null : { t: `x${k}` } };
      });
      const { before, after } = imagesJsonForTest(changes);
      expect(before).toBe(byId(changes, 'before'));
      expect(after).toBe(byId(changes, 'after'));
    }
  });

  it('match it for ids that descend (written from the end), descend with a repeat, or end lower without descending', async () => {
    const { imagesJsonForTest } = await import('../../src/execute/audit.js');
    const change = (id: number, k: number) => ({ id, before: { w: k }, after: k % 3 ? { t: `x${k}` } : null });
    const cases = [
      [9, 7, 4, 2, 1], [30, 20], [5, 5], [9, 7, 7, 2], [9, 3, 12, 2], [8, 9, 1], [2 ** 32 - 1, 5, 1], [4, 0.5, 1], [3, 2, -1],
      [2 ** 32 - 2, 3, 2 ** 32 - 2, 2 ** 32 - 3, 3], [7, 8, 7, 9, 8, 7],
    ];
    for (const ids of cases) {
      const changes = ids.map(change);
      const { before, after } = imagesJsonForTest(changes);
      expect(before, ids.join(',')).toBe(byId(changes, 'before'));
      expect(after, ids.join(',')).toBe(byId(changes, 'after'));
    }
  });
});
