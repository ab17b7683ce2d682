/**
 * Invariant: a write (STO) that selects by filter or search bounds how many memories it touches
 * — a `limit` on the filter, or a `limit` (or `overrides.k`) on the search. A warning: real data
 * often leaves it out.
 * Spec: spec/checks.md#write-without-limit
 */
import { isWrite } from '../paths.ts';
import type { Rule } from '../rule.ts';

export const WriteLimitRule: Rule = {
  name: 'WriteLimitRule',
  codes: { 'write-without-limit': 'warning' },
  statement(ir, ctx) {
    const target = ir.target;
    if (!target || !isWrite(ir.op)) return;
    // A search narrowed by a filter is bounded by the search's own limit.
    if (target.search) {
      if (target.search.limit === undefined && target.search.overrides?.k === undefined) {
        ctx.report({ code: 'write-without-limit', message: `${ir.op} over a search without a limit may change many memories; add a limit`, path: 'target.search' });
      }
    } else if (target.filter && target.filter.limit === undefined) {
      ctx.report({ code: 'write-without-limit', message: `${ir.op} over a filter without a limit may change many memories; add a limit`, path: 'target.filter' });
    }
  },
};
