/**
 * `parseDateTime` reads the usual spelling (`YYYY-MM-DDTHH:MM:SS` with `Z` or `±HH:MM`) without
 * its regex: it must give exactly what the regex reading (`parseDateTimeText`) gives, the same
 * instant or the same reason, on valid and broken datetimes of every shape around that one.
 */
import { describe, expect, it } from 'vitest';
import { parseDateTime, parseDateTimeText } from '../../src/check/rules/DateTimeRule.js';

/** A deterministic pseudo-random sequence (no flaky tests). */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe('parseDateTime', () => {
  it('gives each text its own reading whatever was read before it (it remembers the last two)', () => {
    const texts = ['2025-03-01T00:00:00Z', '2025-02-30T00:00:00Z', '2025-03-01T00:00:00+08:00', 'nope', '2025-03-01T00:00:00Z'];
    const order = [0, 1, 0, 2, 1, 3, 2, 0, 4, 3, 3, 1, 2, 4, 0, 1];
    for (const k of order) expect(parseDateTime(texts[k]), texts[k]).toEqual(parseDateTimeText(texts[k]));
  });

  it('reads the usual spelling as the regex does', () => {
    const next = random(7);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    const years = [0, 1, 99, 100, 1900, 1970, 2000, 2024, 2025, 2100, 9999];
    const zones = ['Z', '+08:00', '-05:30', '+18:00', '+19:00', '-00:60', 'z', '+0800', '', '+08:0x'];
    const texts: string[] = [];
    for (let k = 0; k < 20_000; k++) {
      const year = pick(years);
      const month = Math.floor(next() * 14);
      const day = Math.floor(next() * 33);
      const h = Math.floor(next() * 26);
      const mi = Math.floor(next() * 62);
      const s = Math.floor(next() * 62);
      const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(h)}:${pad(mi)}:${pad(s)}${pick(zones)}`;
      texts.push(text);
      // One character damaged or replaced by a separator.
      const at = Math.floor(next() * text.length);
      texts.push(text.slice(0, at) + pick(['x', '-', ':', 'T', ' ', '9', '0']) + text.slice(at + 1));
    }
    texts.push('2024-02-29T00:00:00Z', '2023-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2000-02-29T23:59:59+18:00', '2025-04-10T15:30:00.5Z', '2025-04-10 15:30:00Z', '2025-04-10');
    for (const text of texts) expect([text, parseDateTime(text)]).toEqual([text, parseDateTimeText(text)]);
  });
});
