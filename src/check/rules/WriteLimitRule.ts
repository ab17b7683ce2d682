/**
 * Invariant: a write (STO) that selects by filter or search bounds how many memories it touches
 * — a `limit` on the filter, or a `limit` (or `overrides.k`) on the search. A warning: real data
 * often leaves it out.
 * Spec: spec/checks.md#write-without-limit
 */
import { OPS } from '../../language/ops.js';
import { isWrite } from '../paths.js';
import type { Rule } from '../rule.js';

export const WriteLimitRule: Rule = {
  name: 'WriteLimitRule',
  ops: new Set(OPS.filter(isWrite)),
  codes: { 'write-without-limit': 'warning' },
  given: ['*:target.search', '*:target.filter'],
  statement(ir, ctx) {
    const target = ir.target;
    if (!target || !isWrite(ir.op)) return;
    // A search narrowed by a filter is bounded by the search's own limit.
    if (target.search) {
      if (target.search.limit === undefined && target.search.overrides?.k === undefined) {
        const add = ctx.source === 'dsl' ? 'add LIMIT n right after the search (target.search.limit) or K n' : 'add a limit';
        ctx.report({ code: 'write-without-limit', message: `${ir.op} over a search without a limit may change many memories; ${add}`, path: 'target.search' });
      }
    } else if (target.filter && target.filter.limit === undefined) {
      const add = ctx.source === 'dsl' ? 'add LIMIT n after the last condition (target.filter.limit)' : 'add a limit';
      ctx.report({ code: 'write-without-limit', message: `${ir.op} over a filter without a limit may change many memories; ${add}`, path: 'target.filter' });
    }
  },
};
