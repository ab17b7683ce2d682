/** The per-row update's "unchanged" test (sameValue) gives the verdict of comparing the two values' JSON. */
import { describe, expect, it } from 'vitest';
import { sameValue } from '../../src/execute/rows.js';

const VALUES: unknown[] = [
  null, undefined, 0, -0, 1, 0.8, NaN, Infinity, -Infinity, '', 'null', 'note', '0', true, false,
  [], [null], ['a'], {}, { a: null }, { a: 1 }, [1, 2], 'true',
];

describe('sameValue', () => {
  it('agrees with comparing JSON (a missing value as null) on every pair', () => {
    const json = (v: unknown) => JSON.stringify(v ?? null);
    let same = 0;
    for (const a of VALUES) {
      for (const b of VALUES) {
        expect(sameValue(a, b), `${String(a)} ${String(b)}`).toBe(json(a) === json(b));
        if (json(a) === json(b)) same++;
      }
    }
    // Not only the diagonal: null against NaN and Infinity, 0 against -0, … are the same too.
    expect(same).toBeGreaterThan(VALUES.length);
  });
});
