/**
 * The value walk calls a rule's `value` hook only where its scope (`Rule.values`) admits: these
 * tests hold every scoped rule to what it reports when called on every value, on the upstream
 * IRs and on IRs with a bad value put at each of their fields and at each scoped path.
 */
import { describe, expect, it } from 'vitest';
import { check, RULES, type Rule } from '../../src/check/index.js';
import type { IR } from '../../src/ir/schema.js';
import { validateIr } from '../../src/ir/validate.js';
import { corpusIrs } from '../ir-corpus.js';
import { irPaths, setAt } from '../support/mutate.js';

/** The value rules alone (statement hooks read validated shapes; these IRs are mutated). */
const scoped: Rule[] = RULES.filter((r) => r.value).map((r) => ({ ...r, statement: undefined }));
/** The same rules with no scope: called on every value, as before scopes. */
const everywhere: Rule[] = scoped.map((r) => ({ ...r, values: undefined }));

/** Values each value rule refuses somewhere (a bad datetime, duration, rrule, number, reference). */
const BAD: readonly unknown[] = ['2025-13-45T00:00:00Z', '7 days', 'FREQ=NOPE', -5, 2.5, 1e20, { $ref: 'x' }, 'RRULE:FREQ=DAILY;UNTIL=2025-10-24T00:00:00Z'];

const strip = (ds: ReturnType<typeof check>) => ds.map((d) => `${d.code} ${d.path} ${d.message}`);

describe('value rules scoped by Rule.values', () => {
  const irs = corpusIrs().map(({ ir }) => validateIr(ir).ir!).filter(Boolean) as IR[];

  it('every value rule declares a scope (the walk builds no path for a value no rule reads)', () => {
    expect(scoped.filter((r) => !r.values).map((r) => r.name)).toEqual([]);
  });

  it('report on the upstream IRs exactly what they report called on every value', () => {
    expect(strip(check(irs, { rules: scoped }))).toEqual(strip(check(irs, { rules: everywhere })));
  });

  it('report on IRs with a bad value at each field exactly what they report called on every value', () => {
    const mutated: unknown[] = [];
    for (const ir of irs.filter((_, i) => i % 8 === 0)) {
      for (const { path, leaf } of irPaths(ir)) if (leaf) for (const bad of BAD) mutated.push(setAt(ir, path, bad));
    }
    const scopedOut = strip(check(mutated as IR[], { rules: scoped }));
    expect(scopedOut.length).toBeGreaterThan(1000);
    expect(scopedOut).toEqual(strip(check(mutated as IR[], { rules: everywhere })));
  });

  it('report at each scoped path, for every op, exactly what they report called on every value', () => {
    const paths = [...new Set(scoped.flatMap((r) => (r.values && 'paths' in r.values ? r.values.paths : [])))];
    const byOp = new Map(irs.map((ir) => [ir.op, ir]));
    const mutated: unknown[] = [];
    for (const ir of byOp.values()) for (const path of paths) for (const bad of BAD) mutated.push(setAt(ir, path.split('.'), bad));
    const scopedOut = strip(check(mutated as IR[], { rules: scoped }));
    // Each scoped rule reports somewhere here, so a scope that missed its paths would show.
    for (const code of ['invalid-datetime', 'invalid-duration', 'invalid-rrule', 'rrule-until-normalised', 'out-of-range', 'unsafe-integer', 'ref-misplaced']) {
      expect(scopedOut.some((d) => d.startsWith(`${code} `)), code).toBe(true);
    }
    expect(scopedOut).toEqual(strip(check(mutated as IR[], { rules: everywhere })));
  });

  it('calls a rule scoped by paths only at those paths, and one scoped by a test only on the values it passes', () => {
    const seen: string[] = [];
    const tested: unknown[] = [];
    const byPath: Rule = { name: 'P', codes: {}, values: { paths: ['args.tags', 'args.tags.*'] }, value: (_v, path) => void seen.push(path) };
    const byTest: Rule = { name: 'T', codes: {}, values: { where: (v) => typeof v === 'number' }, value: (v) => void tested.push(v) };
    const ir = { stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, tags: ['a', 'b'], weight: 0.5 } } as unknown as IR;
    check([ir], { rules: [byPath, byTest] });
    expect(seen).toEqual(['args.tags', 'args.tags.0', 'args.tags.1']);
    expect(tested).toEqual([0.5]);
  });

  it('calls a test scoped to one typeOf only on values of that typeof, and one without on every value', () => {
    const numbers: unknown[] = [];
    const objects: string[] = [];
    const all: string[] = [];
    const byNumber: Rule = { name: 'N', codes: {}, values: { where: () => true, typeOf: 'number' }, value: (v) => void numbers.push(v) };
    const byObject: Rule = { name: 'O', codes: {}, values: { where: () => true, typeOf: 'object' }, value: (_v, path) => void objects.push(path) };
    const any: Rule = { name: 'A', codes: {}, values: { where: () => true }, value: (_v, path) => void all.push(path) };
    const ir = { stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, tags: ['a'], weight: 0.5, time: null } } as unknown as IR;
    check([ir], { rules: [byNumber, byObject, any] });
    expect(numbers).toEqual([0.5]);
    // null is typeof 'object': a test scoped to objects sees it (and must judge it itself).
    expect(objects).toEqual(['', 'args', 'args.payload', 'args.tags', 'args.time']);
    expect(all).toEqual(['', 'stage', 'op', 'args', 'args.payload', 'args.payload.text', 'args.tags', 'args.tags.0', 'args.weight', 'args.time']);
  });
});
