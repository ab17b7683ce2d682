import { describe, expect, it } from 'vitest';
import { IR } from '../../src/ir/index.js';
import { corpusIrs } from '../ir-corpus.js';

describe('IR zod schema', () => {
  const corpus = corpusIrs();

  it('loads the whole upstream corpus', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(3201 + 75);
  });

  it('accepts every upstream IR and keeps every key', () => {
    const failures: string[] = [];
    for (const { where, ir } of corpus) {
      const r = IR.safeParse(ir);
      if (!r.success) failures.push(`${where}: ${r.error.message}`);
      else expect(r.data).toEqual(ir);
    }
    expect(failures).toEqual([]);
  });

  it('rejects an unknown op and a wrongly typed field', () => {
    expect(IR.safeParse({ stage: 'STO', op: 'Promot', target: { ids: '1' } }).success).toBe(false);
    expect(IR.safeParse({ stage: 'STO', op: 'Promote', target: { ids: '1' }, args: { weight: 'high' } }).success).toBe(false);
    expect(IR.safeParse({ stage: 'STO', op: 'Lock', target: { ids: '1' }, args: { mode: 'readonly' } }).success).toBe(false);
  });
});
