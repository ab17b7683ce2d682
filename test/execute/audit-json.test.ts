/**
 * The audit entry's images are written in one pass by ascending id (src/execute/execute.ts,
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
