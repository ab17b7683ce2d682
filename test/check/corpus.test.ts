import { describe, expect, it } from 'vitest';
import { check } from '../../src/check/index.js';
import { validateIr } from '../../src/ir/validate.js';
import { corpusIrs } from '../ir-corpus.js';

describe('every upstream gold IR passes the default policy', () => {
  const corpus = corpusIrs();

  it('has no errors (warnings allowed)', () => {
    const errors: string[] = [];
    const warnings = new Map<string, number>();
    for (const { where, ir } of corpus) {
      const v = validateIr(ir);
      const diagnostics = v.ir ? [...v.diagnostics, ...check([v.ir])] : v.diagnostics;
      for (const d of diagnostics) {
        if (d.severity === 'error') errors.push(`${where}: ${d.code} ${d.message} at ${d.path}`);
        else warnings.set(d.code, (warnings.get(d.code) ?? 0) + 1);
      }
    }
    expect(errors).toEqual([]);
    // The data really does omit filter limits on writes; the rule must stay a warning.
    expect(warnings.get('write-without-limit')).toBeGreaterThan(0);
  });

  it('has errors under the strict policy exactly where the default policy warns', () => {
    const ir = corpus.map((c) => validateIr(c.ir).ir!).filter(Boolean);
    const loose = check(ir);
    const strict = check(ir, { policy: 'strict' });
    expect(strict.map((d) => d.code)).toEqual(loose.map((d) => d.code));
    expect(strict.every((d) => d.severity === 'error')).toBe(true);
  });
});
