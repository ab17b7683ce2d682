/**
 * Invariant: a Lock policy never both allows and denies the same op.
 * Spec: spec/checks.md#policy-conflict
 */
import type { Rule } from '../rule.js';

export const LockPolicyRule: Rule = {
  name: 'LockPolicyRule',
  ops: new Set(['Lock']),
  codes: { 'policy-conflict': 'error' },
  given: ['Lock:args.policy.deny'],
  statement(ir, ctx) {
    if (ir.op !== 'Lock') return;
    const allow = ir.args?.policy?.allow ?? [];
    const deny = ir.args?.policy?.deny ?? [];
    deny.forEach((op, i) => {
      if (!allow.includes(op)) return;
      ctx.report({
        code: 'policy-conflict',
        message: `${op} is both allowed and denied by the lock policy`,
        path: `args.policy.deny.${i}`,
        related: [{ message: 'allowed here', path: `args.policy.allow.${allow.indexOf(op)}` }],
      });
    });
  },
};
