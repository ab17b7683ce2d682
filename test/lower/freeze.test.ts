/**
 * `lowerIr` deep-freezes its operation unless asked not to (`freeze: false`, what the engine
 * passes for the operation it executes at once): the same operation either way.
 */
import { describe, expect, it } from 'vitest';
import { lowerIr } from '../../src/lower/index.js';
import type { IR } from '../../src/ir/schema.js';

const now = new Date('2026-01-01T00:00:00Z');
const irs = [
  { stage: 'ENC', op: 'Encode', args: { payload: { text: 'a' }, type: 'note', tags: ['x', 'x'], time: '2025-01-01T10:00:00+02:00', weight: 0.5 } },
  { stage: 'STO', op: 'Label', target: { ids: ['1'] }, args: { tags: ['t'], facets: { a: 1 } } },
  { stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['t'], limit: 3 } }, args: { include: ['id'] } },
] as unknown as IR[];

describe('lowerIr freeze option', () => {
  for (const ir of irs) {
    it(`gives the same ${ir.op} operation, frozen by default and not when asked`, () => {
      const frozen = lowerIr(ir, { now });
      const open = lowerIr(ir, { now, freeze: false });
      expect(frozen.ok && open.ok).toBe(true);
      if (!frozen.ok || !open.ok) return;
      expect(open.operation).toEqual(frozen.operation);
      expect(Object.isFrozen(frozen.operation)).toBe(true);
      expect(Object.isFrozen(open.operation)).toBe(false);
      expect(Object.isFrozen(ir)).toBe(false);
    });
  }
});
