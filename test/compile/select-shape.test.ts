/**
 * The target select's text is cached by the selection's shape and its values filled in
 * (`compileTargetSelect`): on thousands of selections of near-identical shapes, in every dialect
 * and in any order, the cached statement equals the one built from scratch (`buildTargetSelect`),
 * text and values; one statement never gets another's text or values.
 */
import { describe, expect, it } from 'vitest';
import { buildTargetSelect, compileTargetSelect, type Dialect, type SelectOptions } from '../../src/compile/index.js';
import { postgres } from '../../src/dialect/postgres/dialect.js';
import { sqlite } from '../../src/dialect/sqlite/dialect.js';
import type { LoweredFilter, Selection } from '../../src/lower/operation.js';
import { rng } from '../../perf/workload.js';

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const maybe = <T>(r: () => number, x: T): T | undefined => (r() < 0.5 ? x : undefined);
const n = (r: () => number, k: number) => Math.floor(r() * k);

function filter(r: () => number): LoweredFilter {
  const facets: Record<string, unknown> = {};
  for (let i = n(r, 3); i > 0; i--) facets[pick(r, ['a', 'b', 'c', 'status'])] = pick(r, ['x', 3, true, null, { k: [1] }, ['y'], '']);
  const time = r() < 0.3 ? undefined : { from: pick(r, [undefined, '', '2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z']), to: pick(r, [undefined, '', '2025-03-01T00:00:00Z']) };
  return {
    ...(time ? { time } : {}),
    hasTags: Array.from({ length: n(r, 4) }, () => `tag${n(r, 5)}`),
    notTags: Array.from({ length: n(r, 3) }, () => `tag${n(r, 5)}`),
    type: maybe(r, pick(r, ['note', ''])), subject: maybe(r, 'mira'), location: maybe(r, pick(r, ['lab', 'home'])), topic: maybe(r, 'budget'), attribute: maybe(r, 'city'),
    weightGte: maybe(r, pick(r, [0, 0.5])), weightLte: maybe(r, pick(r, [1, 0.7])),
    expireBefore: maybe(r, pick(r, ['', '2026-01-01T00:00:00Z'])), expireAfter: maybe(r, '2024-01-01T00:00:00Z'),
    facets: facets as LoweredFilter['facets'],
  };
}

function selection(r: () => number): Selection {
  const time = r();
  return {
    ...(r() < 0.3 ? { ids: Array.from({ length: n(r, 4) }, () => 1 + n(r, 50)) } : {}),
    ...(r() < 0.8 ? { filter: filter(r) } : {}),
    ...(r() < 0.2 ? { search: { query: 'q', alpha: 0.5 } } : {}),
    all: r() < 0.1,
    ...(r() < 0.6 ? { limit: 1 + n(r, 20) } : {}),
    orderBy: pick(r, ['time_desc', 'time_asc', 'weight_desc', 'relevance'] as const),
    ...(time < 0.15 ? { asOf: pick(r, ['2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z']) } : time < 0.3 ? { history: true } : time < 0.35 ? { history: false } : {}),
    ...(r() < 0.2 ? { level: pick(r, ['episode', 'turn'] as const) } : {}),
  };
}

function options(r: () => number): SelectOptions {
  return {
    now: pick(r, ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z']),
    tenant: pick(r, ['default', 'acme']),
    applyReadPermissions: r() < 0.6,
    ...(r() < 0.5 ? { readerActor: pick(r, ['ana', 'bo', null, '']) } : {}),
  };
}

describe('the target select cached by shape', () => {
  const r = rng(14);
  const cases = Array.from({ length: 6000 }, () => ({ sel: selection(r), opts: options(r) }));

  for (const dialect of [sqlite, postgres] as Dialect[]) {
    it(`gives the statement built from scratch, text and values (${dialect.name})`, () => {
      // Twice over, the second time in another order: most statements then come from the cache.
      const order = [...cases.keys(), ...[...cases.keys()].reverse()];
      let same = 0;
      for (const i of order) {
        const { sel, opts } = cases[i];
        const cached = compileTargetSelect(sel, dialect, opts);
        const built = buildTargetSelect(sel, dialect, opts);
        expect(cached, JSON.stringify({ sel, opts })).toEqual(built);
        if (cached.params.length === built.params.length) same++;
      }
      expect(same).toBe(order.length);
    });
  }

  it('near-identical shapes get their own text: one more tag, an empty time bound, a facet, an actor', () => {
    const base: Selection = { filter: { hasTags: ['a'], notTags: [], facets: {}, time: { from: '2025-01-01T00:00:00Z', to: '2025-02-01T00:00:00Z' } }, all: false, orderBy: 'time_desc', limit: 10 };
    const opts: SelectOptions = { now: '2026-01-01T00:00:00Z', tenant: 'default', applyReadPermissions: true };
    const variants: Array<[Selection, SelectOptions]> = [
      [base, opts],
      [{ ...base, filter: { ...base.filter!, hasTags: ['a', 'b'] } }, opts],
      [{ ...base, filter: { ...base.filter!, time: { from: '', to: '2025-02-01T00:00:00Z' } } }, opts],
      [{ ...base, filter: { ...base.filter!, facets: { a: 'x' } } }, opts],
      [{ ...base, filter: { ...base.filter!, type: 'note' } }, opts],
      [{ ...base, filter: { ...base.filter!, subject: 'note' } }, opts],
      [base, { ...opts, readerActor: 'ana' }],
      [base, { ...opts, applyReadPermissions: false }],
      [{ ...base, limit: undefined }, opts],
      [{ ...base, orderBy: 'time_asc' }, opts],
      [{ ...base, ids: [] }, opts],
      [{ ...base, ids: [3] }, opts],
    ];
    const texts = variants.map(([sel, o]) => {
      const first = compileTargetSelect(sel, sqlite, o);
      expect(compileTargetSelect(sel, sqlite, o)).toEqual(first);
      expect(first).toEqual(buildTargetSelect(sel, sqlite, o));
      return first.sql;
    });
    expect(new Set(texts).size).toBe(texts.length);
  });
});
