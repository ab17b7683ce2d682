/**
 * The round trip, the heart of "done": for every upstream IR (`fixtures/upstream/`) and for generated IRs,
 * astToIr(parse(print(irsToScript([ir])))) deep-equals the IR, and printing is stable.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { corpusIrs } from '../ir-corpus.js';
import { parse } from '../../src/syntax/index.js';
import { astToIr, irsToScript } from '../../src/convert/index.js';
import { print } from '../../src/convert/index.js';
import { OPS, STAGES, TIME_UNITS, ORDER_BY, type IR } from '../../src/ir/schema.js';

function roundTrip(ir: unknown): { text: string; back: unknown; diagnostics: unknown[]; reprinted: string } {
  const text = print(irsToScript([ir as IR]));
  const parsed = parse(text);
  const converted = astToIr(parsed.script);
  return {
    text,
    back: converted.irs[0],
    diagnostics: [...parsed.diagnostics, ...converted.diagnostics].map((d) => `${d.code}: ${d.message}`),
    reprinted: print(parsed.script),
  };
}

describe('IR → DSL → IR on every upstream IR', () => {
  const corpus = corpusIrs();

  it('loads the whole corpus', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(3276);
  });

  it('round-trips every IR exactly, without diagnostics, and reprints the same DSL', () => {
    const failures: string[] = [];
    for (const { where, ir } of corpus) {
      const r = roundTrip(ir);
      try {
        expect(r.diagnostics).toEqual([]);
        expect(r.back).toStrictEqual(ir);
        expect(r.reprinted).toBe(r.text);
      } catch (e) {
        failures.push(`${where}\n${r.text}\n${(e as Error).message.slice(0, 400)}`);
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });

  it('prints the same JSON-only distinctions differently', () => {
    const base = { stage: 'STO', op: 'Delete' } as const;
    expect(print(irsToScript([{ ...base, target: { ids: '7' } }]))).toBe('DELETE ID "7";\n');
    expect(print(irsToScript([{ ...base, target: { ids: ['7'] } }]))).toBe('DELETE IDS "7";\n');
    expect(print(irsToScript([{ ...base, target: { ids: [] } }]))).toBe('DELETE IDS [];\n');
    expect(print(irsToScript([{ ...base, target: { ids: [['7']] } as never }]))).toBe('DELETE IDS [["7"]];\n');
    expect(print(irsToScript([{ ...base, args: {} }]))).toBe('DELETE WITH args = {};\n');
    expect(print(irsToScript([{ stage: 'RET', op: 'Delete' }]))).toBe('DELETE STAGE RET;\n');
  });
});

// ---------------------------------------------------------------- generated IRs

const text = fc.string({ unit: 'binary', maxLength: 12 });
const word = fc.constantFrom('note', 'read_only', 'days', 'Retrieve', 'type', 'ALL', 'P7D', 'true', '中文', 'a b', '', '__proto__', 'limit');
const str = fc.oneof(text, word, fc.constantFrom('2025-04-10T15:30:00+08:00', '2025-01-01', 'PT1H30M', '2025-04-10T15:30:00.123Z'));
const num = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(-0));
const key = fc.oneof(fc.constantFrom('knowledge_type', 'context', ' facets', 'lock_mode', 'hydration', 'K', 'SET', 'P1D', '1x', 'search', 'Search', 'facets', 'limit', 'type', 'time'), text);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, str, num, fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), tie('object')),
  object: fc.dictionary(key, tie('value'), { maxKeys: 3 }),
})).value;
/** Either a value of the expected shape or anything at all (the round trip must not care). */
const field = <T>(shaped: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: shaped }, { weight: 1, arbitrary: json });
const maybe = <T extends Record<string, fc.Arbitrary<unknown>>>(shape: T) =>
  fc.tuple(fc.record(shape, { requiredKeys: [] }), fc.dictionary(key, json, { maxKeys: 1 })).map(([known, extra]) => ({ ...extra, ...known }));

const timeRange = maybe({
  start: field(str), end: field(str), relative: field(fc.constantFrom('last', 'next')),
  amount: field(fc.integer({ min: 0, max: 100 })), unit: field(fc.constantFrom(...TIME_UNITS)),
});
const filter = maybe({
  time_range: field(timeRange), has_tags: field(fc.array(str, { maxLength: 3 })), not_tags: field(fc.array(str, { maxLength: 3 })),
  type: field(str), subject: field(str), location: field(str), topic: field(str), weight_gte: field(num), weight_lte: field(num),
  expire_before: field(str), expire_after: field(str), limit: field(fc.integer({ min: 1, max: 500 })),
});
const search = maybe({
  intent: field(maybe({ query: field(str), vector: field(fc.array(num, { maxLength: 3 })), context: field(str) })),
  overrides: field(maybe({ k: field(fc.integer({ min: 1, max: 50 })), alpha: field(num), order_by: field(fc.constantFrom(...ORDER_BY)) })),
  limit: field(fc.integer({ min: 1, max: 50 })),
});
const target = maybe({
  ids: field(fc.oneof(str, fc.integer(), fc.array(fc.oneof(str, fc.integer()), { maxLength: 3 }))),
  filter: field(filter), search: field(search), all: field(fc.boolean()),
});
const ARG_KEYS = [
  'payload', 'type', 'tags', 'facets', 'time', 'subject', 'location', 'topic', 'source', 'set', 'mode', 'weight', 'weight_delta',
  'remind', 'reason', 'archive', 'strategy', 'primary_id', 'params', 'policy', 'ttl', 'until', 'on_expire', 'older_than',
  'time_range', 'soft', 'include', 'focus', 'max_tokens', 'embedding', 'read_perm_level',
];
const argValue = (k: string): fc.Arbitrary<unknown> => {
  switch (k) {
    case 'payload': return field(maybe({ text: field(str), url: field(str), structured: field(json) }));
    case 'tags': case 'include': return field(fc.array(str, { maxLength: 3 }));
    case 'set': return field(fc.dictionary(fc.oneof(key, fc.constantFrom('text', 'tags', 'weight', 'status')), json, { maxKeys: 3 }));
    case 'remind': return field(maybe({ rrule: field(str), until: field(str) }));
    case 'time_range': return field(timeRange);
    case 'soft': case 'archive': return field(fc.boolean());
    default: return json;
  }
};
const args = fc.uniqueArray(fc.oneof(fc.constantFrom(...ARG_KEYS), key), { maxLength: 5 })
  .chain((keys) => fc.tuple(...keys.map((k) => argValue(k))).map((values) => Object.fromEntries(keys.map((k, i) => [k, values[i]]))));
const meta = maybe({
  actor: field(str), lang: field(str), trace_id: field(str), timestamp: field(str), dry_run: field(fc.boolean()), confirmation: field(fc.boolean()),
});
const irArb = fc.record(
  {
    stage: fc.oneof(fc.constantFrom(...STAGES), str),
    op: fc.constantFrom(...OPS),
    target: field(target),
    args: field(args),
    meta: field(meta),
    _comment: field(str),
  },
  { requiredKeys: ['stage', 'op'] },
);

describe('IR → DSL → IR on generated IRs', () => {
  it('is the identity for any JSON under the known shape (unicode, odd types, extra keys, empty objects)', () => {
    fc.assert(
      fc.property(irArb, (ir) => {
        const r = roundTrip(ir);
        expect(r.diagnostics).toEqual([]);
        expect(r.back).toStrictEqual(JSON.parse(JSON.stringify(ir, (_k, v) => (Object.is(v, -0) ? '__neg0__' : v)), (_k, v) => (v === '__neg0__' ? -0 : v)));
        expect(r.reprinted).toBe(r.text);
      }),
      { numRuns: 1500 },
    );
  });

  it('DSL → IR → DSL is the identity on canonical DSL', () => {
    fc.assert(
      fc.property(irArb, (ir) => {
        const canonical = print(irsToScript([ir as IR]));
        const again = print(irsToScript(astToIr(parse(canonical).script).irs as IR[]));
        expect(again).toBe(canonical);
      }),
      { numRuns: 500 },
    );
  });
});
