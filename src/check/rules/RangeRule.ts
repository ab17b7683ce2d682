/**
 * Invariant: numbers stay in their domains — weights, weight bounds and `alpha` in [0, 1],
 * `weight_delta` in [-1, 1], `weight_gte` ≤ `weight_lte`, limits and counts (`limit`, `k`,
 * `amount`, `max_tokens`, `max_sentences`, `num_chunks`, `max_splits`) ≥ 1, `chunk_size` ≥ 50.
 * Spec: spec/checks.md#out-of-range
 */
import type { Op } from '../../ir/schema.js';
import { swapValuesFix } from '../../diagnostics/fix.js';
import { valueAt } from '../paths.js';
import type { Rule } from '../rule.js';

interface Bound {
  readonly op: Op | '*';
  readonly path: string;
  readonly min: number;
  readonly max?: number;
  readonly what: string;
}

const UNIT = (op: Op | '*', path: string, what = 'a weight'): Bound => ({ op, path, min: 0, max: 1, what });
const COUNT = (op: Op | '*', path: string, min = 1): Bound => ({ op, path, min, what: 'a count' });

export const BOUNDS: readonly Bound[] = [
  UNIT('Promote', 'args.weight'),
  UNIT('Demote', 'args.weight'),
  UNIT('Update', 'args.set.weight'),
  UNIT('*', 'target.filter.weight_gte', 'a weight bound'),
  UNIT('*', 'target.filter.weight_lte', 'a weight bound'),
  UNIT('*', 'target.search.overrides.alpha', 'alpha (the keyword/vector mix)'),
  { op: 'Promote', path: 'args.weight_delta', min: -1, max: 1, what: 'a weight change' },
  { op: 'Demote', path: 'args.weight_delta', min: -1, max: 1, what: 'a weight change' },
  COUNT('*', 'target.filter.limit'),
  COUNT('*', 'target.search.limit'),
  COUNT('*', 'target.search.overrides.k'),
  COUNT('*', 'target.filter.time_range.amount'),
  COUNT('Delete', 'args.time_range.amount'),
  COUNT('Summarize', 'args.max_tokens'),
  COUNT('Split', 'args.params.by_sentences.max_sentences'),
  COUNT('Split', 'args.params.by_chunks.num_chunks'),
  COUNT('Split', 'args.params.custom.max_splits'),
  COUNT('Split', 'args.params.by_chunks.chunk_size', 50),
];

/** BOUNDS by path, then by op (`*` for every op), since the rule sees every value of every statement. */
const BOUND_AT = new Map<string, Map<string, (typeof BOUNDS)[number]>>();
for (const b of BOUNDS) {
  if (!BOUND_AT.has(b.path)) BOUND_AT.set(b.path, new Map());
  BOUND_AT.get(b.path)!.set(b.op, b);
}

export const RangeRule: Rule = {
  name: 'RangeRule',
  codes: { 'out-of-range': 'error', 'empty-weight-range': 'error' },
  values: { paths: [...BOUND_AT.keys()] },
  // The statement hook compares the two weight bounds: without the lower one there is nothing to compare.
  given: ['*:target.filter.weight_gte'],
  statement(ir, ctx) {
    const gte = valueAt(ir, 'target.filter.weight_gte');
    const lte = valueAt(ir, 'target.filter.weight_lte');
    if (typeof gte === 'number' && typeof lte === 'number' && gte > lte) {
      ctx.report({
        code: 'empty-weight-range',
        message: `weight_gte ${gte} is above weight_lte ${lte}, so nothing can match`,
        path: 'target.filter.weight_lte',
        related: [{ message: 'weight_gte given here', path: 'target.filter.weight_gte' }],
        fix: swapValuesFix(
          ctx.sourceMap,
          { path: 'target.filter.weight_gte', value: gte },
          { path: 'target.filter.weight_lte', value: lte },
          'swap the bounds',
        ),
      });
    }
  },
  value(value, path, ctx) {
    if (typeof value !== 'number') return;
    const byOp = BOUND_AT.get(path);
    const b = byOp && (byOp.get(ctx.ir.op) ?? byOp.get('*'));
    if (!b || (value >= b.min && (b.max === undefined || value <= b.max))) return;
    const domain = b.max === undefined ? `at least ${b.min}` : `between ${b.min} and ${b.max}`;
    ctx.report({ code: 'out-of-range', message: `${path.split('.').pop()} is ${b.what} and must be ${domain}, got ${value}`, path });
  },
};
