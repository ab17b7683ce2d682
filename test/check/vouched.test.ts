/**
 * The checker's fast path (`CheckOptions.vouched`): for an IR validation's walk vouched for
 * (`irConformance` answered `vouched`), the checker skips the rules scoped by VOUCHED_TESTS and
 * walks only the paths the other value rules name. Its output must be the slow path's, diagnostic
 * for diagnostic, on the upstream IRs and on mutated ones: a `$ref` object (well formed or not)
 * at every place and as a key of every object, and unsafe integers (2^53, −2^53 − 5, 1e300) at
 * every leaf, under both policies. And the vouch itself must be sound: no value of a vouched IR
 * passes one of the tests.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../src/check/index.js';
import { irConformance, VOUCHED_TESTS } from '../../src/ir/conforms.js';
import type { IR } from '../../src/ir/schema.js';
import { validateIr } from '../../src/ir/validate.js';
import { hasRefKey, isUnsafeInteger } from '../../src/language/index.js';
import { corpusIrs } from '../ir-corpus.js';
import { irPaths, setAt } from '../support/mutate.js';

/** `$ref` objects, well formed or not, and numbers around the safe range. */
const REFS: readonly unknown[] = [{ $ref: 'x' }, { $ref: 'a' }, { $ref: '1 bad' }, { $ref: 5 }, { $ref: 'x', more: 1 }];
const NUMBERS: readonly unknown[] = [2 ** 53, -(2 ** 53) - 5, 1e300, 2 ** 53 - 1, -(2 ** 53) + 1, 0.5];

/** Whether some value of `v` (as the checker walks: a list's items, an object's own keys) passes a test of VOUCHED_TESTS. */
function picked(v: unknown): boolean {
  for (const test of VOUCHED_TESTS) if (test(v)) return true;
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some(picked);
  for (const k in v) if (Object.hasOwn(v, k) && picked((v as Record<string, unknown>)[k])) return true;
  return false;
}

describe('check with vouched statements', () => {
  const corpus = corpusIrs().map(({ ir }) => ir);
  const mutated: unknown[] = [];
  corpus.forEach((ir, i) => {
    if (i % 6 !== 0) return;
    for (const { path, leaf } of irPaths(ir)) {
      if (path.length === 0) continue;
      for (const ref of REFS) mutated.push(setAt(ir, path, ref));
      if (leaf) for (const n of NUMBERS) mutated.push(setAt(ir, path, n));
      else if (!/^\d+$/.test(path[path.length - 1])) {
        mutated.push(setAt(ir, [...path, '$ref'], 'x'));
        mutated.push(setAt(ir, [...path, 'x_n'], 2 ** 53));
      }
    }
  });
  // As the engine and the front end give them: the IR itself where the fast path takes it
  // (with its verdict), validateIr's copy (never vouched) elsewhere.
  const inputs = [...corpus, ...mutated].flatMap((json): Array<{ ir: IR; vouched: boolean }> => {
    const c = irConformance(json);
    if (c !== 'no') return [{ ir: json as IR, vouched: c === 'vouched' }];
    const v = validateIr(json).ir;
    return v ? [{ ir: v, vouched: false }] : [];
  });
  const irs = inputs.map((x) => x.ir);
  const vouched = inputs.map((x) => x.vouched);

  it('the tests are the ones the value rules are scoped by', () => {
    expect([...VOUCHED_TESTS]).toEqual([hasRefKey, isUnsafeInteger]);
  });

  it('vouches only for IRs in which no value passes a test, and for most upstream IRs', () => {
    let taken = 0;
    let refused = 0;
    for (const { ir, vouched: v } of inputs) {
      if (v) {
        taken++;
        expect(picked(ir), JSON.stringify(ir)).toBe(false);
      } else if (irConformance(ir) === 'yes') refused++;
    }
    // Conforming IRs with a `$ref` or an unsafe integer the walk saw (in `unknown` values, loose keys, numbers).
    expect(refused).toBeGreaterThan(500);
    expect(corpus.filter((ir) => irConformance(ir) === 'vouched').length).toBeGreaterThan(corpus.length * 0.9);
    expect(taken).toBeGreaterThan(1000);
  });

  it('gives the same diagnostics with the vouch as without, statement by statement and as one script, under both policies', () => {
    expect(irs.length).toBeGreaterThan(5000);
    for (const policy of ['default', 'strict'] as const) {
      const slow = check(irs, { policy, firstStatement: 2 });
      const fast = check(irs, { policy, firstStatement: 2, vouched });
      expect(fast).toEqual(slow);
      // Every code of the skipped rules shows on the conforming IRs (they are reported there, not vouched away).
      const codes = new Set(slow.filter((d) => irConformance(irs[d.statement! - 2]) !== 'no').map((d) => d.code));
      for (const code of ['ref-misplaced', 'unsafe-integer']) expect(codes, code).toContain(code);
    }
    for (let i = 0; i < irs.length; i++) {
      if (!vouched[i]) continue;
      expect(check([irs[i]], { vouched: [true] })).toEqual(check([irs[i]]));
    }
  });

  it('the vouch is what skips the rules: a false one would hide their diagnostics', () => {
    const unvouched = irs.filter((_, i) => !vouched[i] && irConformance(irs[i]) === 'yes');
    const slow = check(unvouched);
    const forged = check(unvouched, { vouched: unvouched.map(() => true) });
    expect(slow.filter((d) => d.code === 'ref-misplaced' || d.code === 'unsafe-integer').length).toBeGreaterThan(100);
    expect(forged.filter((d) => d.code === 'ref-misplaced' || d.code === 'unsafe-integer')).toEqual([]);
    // The other rules' diagnostics are the same.
    expect(forged).toEqual(slow.filter((d) => d.code !== 'ref-misplaced' && d.code !== 'unsafe-integer'));
  });
});
