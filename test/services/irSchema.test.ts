import { describe, expect, it } from 'vitest';
import { irScriptJsonSchema } from '../../src/services/irSchema.js';

describe('irScriptJsonSchema', () => {
  it('describes an array of instructions with one branch per op', () => {
    const schema = irScriptJsonSchema() as { type: string; items: { oneOf: { properties: { op: { const: string } } }[] } };
    expect(schema.type).toBe('array');
    expect(schema.items.oneOf.map((o) => o.properties.op.const)).toEqual([
      'Encode', 'Update', 'Label', 'Promote', 'Demote', 'Merge', 'Split', 'Lock', 'Expire', 'Delete', 'Retrieve', 'Summarize',
    ]);
  });
});
