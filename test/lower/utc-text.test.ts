/** `utcText` (the canonical-form fast path of lowering's instants) says what `formatUtc(parseInstant(…))` says. */
import { describe, expect, it } from 'vitest';
import { formatUtc, parseInstant } from '../../src/lower/index.js';
import { utcText } from '../../src/lower/time.js';

const slow = (text: string): string | null => {
  const d = parseInstant(text);
  return d ? formatUtc(d) : null;
};

describe('utcText', () => {
  it('agrees with the parser on edge dates and times', () => {
    const cases = [
      '2025-10-11T00:00:05Z', '2024-02-29T12:00:00Z', '2023-02-29T12:00:00Z', '1900-02-29T00:00:00Z', '2000-02-29T00:00:00Z',
      '2025-04-31T00:00:00Z', '2025-12-31T23:59:59Z', '2025-13-01T00:00:00Z', '2025-00-10T00:00:00Z', '2025-01-00T00:00:00Z',
      '2025-01-32T00:00:00Z', '2025-01-01T24:00:00Z', '2025-01-01T23:60:00Z', '2025-01-01T23:59:60Z', '0999-01-01T00:00:00Z',
      '0050-06-01T00:00:00Z', '1000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2025-01-01t00:00:00z', '2025-01-01 00:00:00Z',
      '2025-01-01T00:00:00.5Z', '2025-01-01T00:00:00+02:00', '2025-01-01', ' 2025-01-01T00:00:00Z', 'not a date',
    ];
    for (const c of cases) expect(utcText(c), c).toBe(slow(c));
  });

  it('agrees with the parser on canonical times with one character changed (a non-digit, another separator, one more or less)', () => {
    const base = '2024-02-29T23:59:59Z';
    const swaps = ['0', '9', 'a', ' ', '-', ':', 'T', 't', 'Z', 'z', '.', '+', '/', '٣', '０', '\u0000'];
    let checked = 0;
    for (let i = 0; i < base.length; i++) {
      for (const c of swaps) {
        for (const variant of [base.slice(0, i) + c + base.slice(i + 1), base.slice(0, i) + c + base.slice(i), base.slice(0, i) + base.slice(i + 1)]) {
          expect(utcText(variant), variant).toBe(slow(variant));
          checked++;
        }
      }
    }
    expect(checked).toBe(base.length * swaps.length * 3);
  });

  it('agrees with the parser on every day of a leap and a common year', () => {
    for (const y of [2023, 2024, 2100]) {
      for (let mo = 1; mo <= 12; mo++) {
        for (let d = 0; d <= 32; d++) {
          const c = `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T07:08:09Z`;
          expect(utcText(c), c).toBe(slow(c));
        }
      }
    }
  });
});
