/**
 * Invariant: a Merge by ids names at least two memories, and an explicit `primary_id` (other than
 * `auto`) is one of them. A Merge whose ids or primary are references is checked when it runs.
 * Spec: spec/checks.md#merge
 */
import { isRef } from '../../language/index.js';
import type { Rule } from '../rule.js';

export const MergeRule: Rule = {
  name: 'MergeRule',
  ops: new Set(['Merge']),
  codes: { 'merge-needs-two': 'error', 'merge-primary-not-in-ids': 'error' },
  given: ['Merge:target.ids'],
  statement(ir, ctx) {
    if (ir.op !== 'Merge' || ir.target?.ids === undefined) return;
    // A reference (`$n`) stands for ids known only when the script runs: the engine checks those.
    const written: unknown[] = Array.isArray(ir.target.ids) ? ir.target.ids : [ir.target.ids];
    if (written.some(isRef) || isRef(ir.args?.primary_id)) return;
    const ids = (Array.isArray(ir.target.ids) ? ir.target.ids : [ir.target.ids]).map(String);
    if (ids.length < 2) {
      ctx.report({ code: 'merge-needs-two', message: 'Merge combines several memories: list at least two ids', path: 'target.ids' });
    }
    const primary = ir.args?.primary_id;
    if (primary !== undefined && primary !== 'auto' && !ids.includes(String(primary))) {
      ctx.report({
        code: 'merge-primary-not-in-ids',
        message: `primary_id '${String(primary)}' is not one of the merged ids (${ids.join(', ')})`,
        path: 'args.primary_id',
        related: [{ message: 'ids given here', path: 'target.ids' }],
      });
    }
  },
};
