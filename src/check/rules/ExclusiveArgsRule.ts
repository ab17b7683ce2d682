/**
 * Invariant: at most one of each group of alternative arguments is given — Promote `weight |
 * weight_delta | remind`, Demote `archive | weight | weight_delta`, Expire `ttl | until`, Encode
 * payload `text | url | structured`, search intent `query | vector`.
 * Spec: spec/checks.md#exclusive-args
 */
import { EXCLUSIVE_GROUPS } from '../../language/index.js';
import { spell, valueAt } from '../paths.js';
import type { Rule, RuleContext } from '../rule.js';

/** The groups of mutually exclusive fields (the vocabulary's): the object's path and its alternative keys. */
export { EXCLUSIVE_GROUPS };

export const ExclusiveArgsRule: Rule = {
  name: 'ExclusiveArgsRule',
  codes: { 'exclusive-args': 'error' },
  given: EXCLUSIVE_GROUPS.map((g) => `${g.op ?? '*'}:${g.at}`),
  statement(ir, ctx) {
    // The usual case, at most one given, allocates nothing: indexed loops (no iterator results)
    // and no closure here (a closure over the loop's variables cost a context per group).
    for (let g = 0; g < EXCLUSIVE_GROUPS.length; g++) {
      const group = EXCLUSIVE_GROUPS[g];
      if (group.op && group.op !== ir.op) continue;
      const obj = valueAt(ir, group.at);
      if (obj === null || typeof obj !== 'object') continue;
      let count = 0;
      const keys = group.keys;
      for (let i = 0; i < keys.length; i++) if ((obj as Record<string, unknown>)[keys[i]] !== undefined) count++;
      if (count >= 2) report(ctx, group, obj as Record<string, unknown>);
    }
  },
};

/** Reports each alternative given after the first of `group`. */
function report(ctx: RuleContext, group: (typeof EXCLUSIVE_GROUPS)[number], obj: Record<string, unknown>): void {
  const given = group.keys.filter((k) => obj[k] !== undefined);
  const [first, ...rest] = given;
  // DSL input names the clauses (`BY (args.weight_delta)`), IR input the keys.
  const name = (k: string) => (ctx.source === 'dsl' ? spell(ctx, `${group.at}.${k}`) : `'${k}'`);
  for (const k of rest) {
    ctx.report({
      code: 'exclusive-args',
      message: `${name(k)} cannot be combined with ${name(first)}: give one of ${group.keys.map((x) => (ctx.source === 'dsl' ? spell(ctx, `${group.at}.${x}`) : x)).join(' | ')}`,
      path: `${group.at}.${k}`,
      related: [{ message: `${name(first)} given here`, path: `${group.at}.${first}` }],
    });
  }
}
