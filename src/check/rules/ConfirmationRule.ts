/**
 * Invariant: a target of `all` is confirmed — a write (STO) needs `meta.confirmation` or
 * `meta.dry_run`, a read (RET) needs `meta.confirmation`.
 * Spec: spec/checks.md#all-requires-confirmation
 */
import { STAGE_OF } from '../../ir/schema.ts';
import type { Rule } from '../rule.ts';

export const ConfirmationRule: Rule = {
  name: 'ConfirmationRule',
  codes: { 'all-requires-confirmation': 'error' },
  statement(ir, ctx) {
    if (ir.target?.all !== true) return;
    const stage = STAGE_OF[ir.op];
    const confirmed = ir.meta?.confirmation === true;
    if (stage === 'STO' && !confirmed && ir.meta?.dry_run !== true) {
      ctx.report({
        code: 'all-requires-confirmation',
        message: `${ir.op} on all memories changes everything: confirm it (meta.confirmation) or make it a dry run (meta.dry_run)`,
        path: 'target.all',
      });
    } else if (stage === 'RET' && !confirmed) {
      ctx.report({
        code: 'all-requires-confirmation',
        message: `${ir.op} over all memories needs confirmation (meta.confirmation)`,
        path: 'target.all',
      });
    }
  },
};
