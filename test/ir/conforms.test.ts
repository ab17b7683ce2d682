import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conformsToIr } from '../../src/ir/conforms.js';
import { validateIr } from '../../src/ir/validate.js';
import { MAX_IR_DEPTH } from '../../src/language/index.js';
import { corpusIrs } from '../ir-corpus.js';

/** What the fast path promises: validateIr takes the value as it is, with no diagnostic. */
function clean(json: unknown): boolean {
  const v = validateIr(json);
  return v.ir === json && v.diagnostics.length === 0;
}

const corpus = corpusIrs().map(({ ir }) => ir);

/** Every (path, container) of a JSON value, to mutate one place of it. */
function places(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => places(v, [...path, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) places(v, [...path, k], out);
  return out;
}

function setAt(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let o = copy;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  o[path[path.length - 1]] = value;
  return copy;
}

describe('conformsToIr (the fast path of validation)', () => {
  it('takes every clean upstream IR, and only those', () => {
    let taken = 0;
    for (const ir of corpus) {
      const fast = conformsToIr(ir);
      expect(fast ? clean(ir) : true).toBe(true);
      if (fast) taken++;
      else expect(clean(ir)).toBe(false);
    }
    expect(taken).toBeGreaterThan(corpus.length * 0.9);
  });

  it('answers true only for values validateIr accepts without a diagnostic (mutated upstream IRs)', () => {
    const odd = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom('\uD800', 'STO', 'RET', 'has_tags', 'tags', 1.5, -1, 2 ** 60, Infinity, NaN, [], {}, { $ref: 'x' }, { $ref: '1x' }, undefined),
      fc.constant(nest(MAX_IR_DEPTH)),
    );
    const key = fc.constantFrom('tags', 'tgas', 'time_range', 'limt', 'stage', 'op', 'payload', 'text', 'facets', 'x_custom', 'constructor', '__proto__', '\uDC00');
    fc.assert(fc.property(fc.integer({ min: 0, max: corpus.length - 1 }), fc.nat(), odd, fc.option(key), (n, at, value, newKey) => {
      const ir = corpus[n];
      const all = places(ir);
      const path = all[at % all.length];
      const here = path.reduce<any>((o, k) => o[k], ir);
      const isObject = here !== null && typeof here === 'object' && !Array.isArray(here);
      const mutated = newKey !== null && isObject ? setAt(ir, [...path, newKey], value) : setAt(ir, path, value);
      if (conformsToIr(mutated)) expect(clean(mutated)).toBe(true);
    }), { numRuns: 3000 });
  });

  it('answers true only for values validateIr accepts when a key is left out (required fields are counted)', () => {
    let refused = 0;
    // The schema's required fields below the top: a search's `intent`, a reference's `$ref`.
    const some = corpus.filter((ir, i) => i < 300 || /"search"|"\$ref"/.test(JSON.stringify(ir)));
    for (const ir of some) {
      for (const path of places(ir)) {
        const here = path.reduce<any>((o, k) => o[k], ir);
        if (here === null || typeof here !== 'object' || Array.isArray(here)) continue;
        for (const key of Object.keys(here)) {
          const copy = structuredClone(ir) as Record<string, unknown>;
          delete path.reduce<any>((o, k) => o[k], copy)[key];
          if (conformsToIr(copy)) expect(clean(copy)).toBe(true);
          else refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(300);
  });

  it('refuses what is not JSON or nests too deep', () => {
    const base = { stage: 'ENC', op: 'Encode', args: { payload: { text: 'a' } } };
    expect(conformsToIr(base)).toBe(true);
    expect(conformsToIr({ ...base, args: { payload: { text: 'a\uD800' } } })).toBe(false);
    expect(conformsToIr({ ...base, args: { payload: { text: 'a' }, facets: { n: Infinity } } })).toBe(false);
    expect(conformsToIr({ ...base, args: { payload: { text: 'a' }, facets: { n: nest(MAX_IR_DEPTH) } } })).toBe(false);
    expect(conformsToIr({ op: 'Encode', args: { payload: { text: 'a' } } })).toBe(false);
    expect(conformsToIr({ stage: 'ENC', op: 'Encode' })).toBe(clean({ stage: 'ENC', op: 'Encode' }));
    // Objects whose prototype is another (an assignment to `__proto__`, as the property above
    // once found): their known keys are read through it, as zod reads them.
    for (const ir of corpus.slice(1500, 1600)) {
      for (const path of places(ir)) {
        const here = path.reduce<any>((o, k) => o[k], ir);
        if (here === null || typeof here !== 'object' || Array.isArray(here)) continue;
        const odd = setAt(ir, [...path, '__proto__'], nest(MAX_IR_DEPTH));
        if (conformsToIr(odd)) expect(clean(odd)).toBe(true);
      }
    }
    expect(conformsToIr({ ...base, args: {} })).toBe(clean({ ...base, args: {} }));
  });

  it('with a text limit, answers true exactly when it would without and no string value is longer (keys do not count)', () => {
    /** The longest string value of a JSON value (keys left out), as the engine's limit measures them. */
    const longest = (v: unknown): number => (typeof v === 'string' ? v.length : v && typeof v === 'object' ? Math.max(0, ...Object.values(v).map(longest)) : 0);
    let bounded = 0;
    for (const ir of corpus) {
      const n = longest(ir);
      for (const max of [0, 3, n - 1, n, n + 1, Infinity]) {
        const fast = conformsToIr(ir, max);
        expect(fast, `${max} ${JSON.stringify(ir)}`).toBe(conformsToIr(ir) && n <= max);
        if (!fast && conformsToIr(ir)) bounded++;
      }
    }
    expect(bounded).toBeGreaterThan(1000);
    // A long value in an open object (facets), and a long key, which does not count.
    const ir = { stage: 'ENC', op: 'Encode', args: { payload: { text: 'abc' }, facets: { k: 'x'.repeat(50) }, tags: ['t'] } };
    expect(conformsToIr(ir, 49)).toBe(false);
    expect(conformsToIr(ir, 50)).toBe(true);
    const keyed = { stage: 'ENC', op: 'Encode', args: { payload: { text: 'abc' }, facets: { ['k'.repeat(50)]: 'x' } } };
    expect(conformsToIr(keyed, 10)).toBe(true);
    // The bound is the call's own: the next call without one is unbounded.
    expect(conformsToIr(ir)).toBe(true);
  });
});

function nest(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
