/**
 * The benchmark data's slips are read as meant by the conformance runner (src/conformance/quirks.ts),
 * not by the language: an Encode's `args[" facets"]` is facets in a benchmark sample, and in a
 * user's IR an unknown key like any other.
 */
import { describe, expect, it } from 'vitest';
import { runBenchmark, type Sample } from '../../src/conformance/index.js';
import { asIntended } from '../../src/conformance/quirks.js';
import { lowerIr } from '../../src/lower/index.js';
import type { IR } from '../../src/ir/schema.js';

const spaced = { stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, ' facets': { a: 1, b: 1 }, facets: { b: 2 } } };
const ctx = { now: new Date('2026-01-01T00:00:00Z'), tenant: 't', traceId: 'run', statement: 0 };
const facetsOf = (ir: unknown) => {
  const r = lowerIr(ir as IR, ctx);
  return r.ok && r.operation.kind === 'Encode' ? r.operation.values.facets : r;
};

describe('benchmark quirks', () => {
  it('reads " facets" as facets, under the facets written (which win)', () => {
    expect(asIntended(spaced)).toStrictEqual({ stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, facets: { a: 1, b: 2 } } });
    expect(asIntended({ op: 'Encode', args: { ' facets': { a: 1 } } })).toStrictEqual({ op: 'Encode', args: { facets: { a: 1 } } });
    expect(facetsOf(asIntended(spaced))).toStrictEqual({ a: 1, b: 2 });
  });

  it('leaves every other statement as it is', () => {
    for (const ir of [{ op: 'Encode', args: { facets: { a: 1 } } }, { op: 'Label', args: { ' facets': { a: 1 } } }, null, 'x', [spaced]]) expect(asIntended(ir)).toBe(ir);
  });

  it('a user IR with " facets" keeps it as an unknown arg (a facet of that name)', () => {
    expect(facetsOf(spaced)).toStrictEqual({ ' facets': { a: 1, b: 1 }, b: 2 });
  });

  it('the runner reads the sample as meant', async () => {
    const sample: Sample = {
      id: 't2m-test-spaced-facets',
      prerequisites: [],
      schema_list: [spaced],
      expected: {
        assertions: [{ name: 'facet a', select: { from: 'memory', where: ["json_extract(facets, '$.a') = 1", "json_extract(facets, '$.b') = 2"] }, expect: { op: '==', value: 1 } }],
        ranking: null,
        meta: { eval_time_utc: '2025-10-21T00:00:00Z' },
      },
    };
    const report = await runBenchmark([sample]);
    expect(report.assertions).toEqual({ total: 1, passed: 1 });
  });
});
