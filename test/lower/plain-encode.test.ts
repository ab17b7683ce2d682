/**
 * The usual Encode is lowered by the readers of its shape (`lowerPlainEncode`); every other
 * Encode, and one of that shape whose values need a diagnostic, by the general readers. On
 * near-identical shapes (a key added or missing, null against absent, a list against a scalar,
 * keys in another order, unicode, number-like text, blank or byte-order-marked values, invalid
 * times, duplicate tags, meta, a target), taken in any order, both give the same result: the
 * same operation (keys in the same order, undefined-valued keys included) or the same diagnostics.
 */
import { describe, expect, it } from 'vitest';
import { lowerIr, type LowerContext } from '../../src/lower/index.js';
import { lowerPlainEncode } from '../../src/lower/encode.js';
import type { IR } from '../../src/ir/schema.js';

const ctx: LowerContext = { now: new Date('2026-01-01T00:00:00Z'), actor: 'ann', tenant: 't', traceId: 'run-1', statement: 2 };

const BOM = '\ufeff';
const texts: unknown[] = ['budget review.', '  ', '', 'é€𝄞 "q" \\ \n 中文', '12', `${BOM}x`, `x${BOM}`, 12, null, ['a'], { a: 1 }];
const times: unknown[] = [undefined, '2025-01-01T00:00:00Z', '2025-01-01T10:00:00+02:00', '2025-01-01', 'yesterday', '', `${BOM}2025-01-01T00:00:00Z`, 20250101, null, ['2025-01-01']];
const tagLists: unknown[] = [undefined, [], ['x'], ['x', 'x'], ['x', 'y', 'x'], ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'a', 'i'], [' '], ['', 'x'], [`${BOM}t`], ['1', 1], 'x', null, ['标签', '🙂'], { 0: 'x' }];
const strings: unknown[] = [undefined, 'note', '', ' ', '0', `${BOM}n`, 1, null, ['note'], { k: 'v' }];

/** Args of an Encode: the plain keys with each value kind, and what makes a shape not plain. */
function* argVariants(): Generator<Record<string, unknown>> {
  for (const text of texts) yield { payload: { text } };
  for (const time of times) yield { payload: { text: 't' }, type: 'note', tags: ['x'], time };
  for (const tags of tagLists) yield { payload: { text: 't' }, tags };
  for (const key of ['type', 'subject', 'location', 'topic', 'source']) for (const v of strings) yield { payload: { text: 't' }, [key]: v };
  // Key order, and every plain key at once.
  yield { time: '2025-03-01T00:00:05Z', tags: ['b', 'a'], type: 'note', payload: { text: 't' }, topic: 'p', location: 'l', subject: 's', source: 'src' };
  yield { payload: { text: 't' }, subject: 's', topic: 'p', location: 'l', source: 'src', type: 'note', tags: ['a', 'b'], time: '2025-03-01T00:00:05Z' };
  // Not plain: payload metadata or extras, facets, governance, facts, other args.
  yield { payload: { text: 't', type: 'note' } };
  yield { payload: { text: 't', tags: ['x'] }, tags: ['y'] };
  yield { payload: { text: 't', knowledge_type: 'fact' } };
  yield { payload: { url: 'https://x' } };
  yield { payload: { structured: { a: 1 } } };
  yield { payload: { text: 't', structured: { a: 1 } } };
  yield { payload: {} };
  yield { payload: null };
  yield { payload: 'text' };
  yield {};
  for (const extra of [
    { facets: { subject: 's', k: 1 } }, { ' facets': { a: 1 } }, { weight: 0.5 }, { weight: 2 }, { ttl: 'P1D' }, { expire_at: '2026-02-01T00:00:00Z' },
    { lock_mode: 'read_only' }, { attribute: 'age', subject: 's' }, { retention: 'ephemeral' }, { skip_embedding: true }, { embedding: [0.1, 0.2] },
    { read_whitelist: ['ann'] }, { auto_frequency: 'daily' }, { level: 'turn' }, { owner: 'bob' }, { id: 3 }, { custom: 'kept as a facet' }, { '1': 'numeric key' },
    { type: undefined }, { tags: undefined }, { time: undefined },
  ]) yield { payload: { text: 't' }, type: 'note', tags: ['x'], ...extra };
}

function* irVariants(): Generator<IR> {
  for (const args of argVariants()) {
    yield { stage: 'ENC', op: 'Encode', args } as unknown as IR;
    yield { stage: 'ENC', op: 'Encode', args, meta: { actor: 'bob', dry_run: true } } as unknown as IR;
  }
  yield { stage: 'ENC', op: 'Encode', args: { payload: { text: 't' } }, target: { ids: ['1'] } } as unknown as IR;
  yield { stage: 'ENC', op: 'Encode' } as unknown as IR;
  // A payload whose text is inherited, not its own.
  yield { stage: 'ENC', op: 'Encode', args: { payload: Object.create({ text: 'inherited' }) } } as unknown as IR;
}

describe('lowerPlainEncode: the usual Encode by the readers of its shape', () => {
  it('lowers as the general readers do, on every near-identical shape, in any order', () => {
    const irs = [...irVariants()];
    let plain = 0;
    for (const order of [irs, [...irs].reverse()]) {
      for (const ir of order) {
        for (const freeze of [true, false]) {
          const fast = lowerIr(ir, { ...ctx, freeze });
          const general = lowerIr(ir, { ...ctx, freeze, general: true });
          expect(fast, JSON.stringify(ir.args)).toStrictEqual(general);
          if (fast.ok && general.ok && fast.operation.kind === 'Encode' && general.operation.kind === 'Encode') {
            // Same key order, values in the same column order (what the INSERT's column list follows).
            expect(Object.keys(fast.operation)).toEqual(Object.keys(general.operation));
            expect(JSON.stringify(fast.operation.values)).toBe(JSON.stringify(general.operation.values));
            expect(Object.isFrozen(fast.operation)).toBe(freeze);
          }
        }
        if (ir.op === 'Encode' && lowerPlainEncode(ir as IR & { op: 'Encode' })) plain++;
      }
    }
    // The shape is taken for many of them (the test would prove nothing otherwise), not for all.
    expect(plain).toBeGreaterThan(40);
    expect(plain).toBeLessThan(irs.length * 2);
  });

  it('leaves a value needing a diagnostic to the general readers (which report it)', () => {
    for (const args of [{ payload: { text: ' ' } }, { payload: { text: 't' }, tags: [''] }, { payload: { text: 't' }, time: 'soon' }, { payload: { text: `${BOM}t` } }]) {
      const ir = { stage: 'ENC', op: 'Encode', args } as unknown as IR & { op: 'Encode' };
      expect(lowerPlainEncode(ir)).toBeUndefined();
      expect(lowerIr(ir, ctx).ok).toBe(false);
    }
  });
});
