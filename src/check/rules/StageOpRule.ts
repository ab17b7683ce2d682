/**
 * Invariant: every statement's `stage` is the stage its `op` belongs to (`STAGE_OF[op]`).
 * Spec: spec/checks.md#stage-mismatch
 */
import { replaceValueFix } from '../../diagnostics/fix.js';
import { STAGE_OF } from '../../ir/schema.js';
import type { Rule } from '../rule.js';

export const StageOpRule: Rule = {
  name: 'StageOpRule',
  codes: { 'stage-mismatch': 'error' },
  statement(ir, ctx) {
    const expected = STAGE_OF[ir.op];
    if (ir.stage === expected) return;
    ctx.report({
      code: 'stage-mismatch',
      message: `${ir.op} belongs to stage ${expected}, not ${ir.stage}`,
      path: 'stage',
      fix: replaceValueFix(ctx.sourceMap, 'stage', ir.stage, expected),
    });
  },
};
