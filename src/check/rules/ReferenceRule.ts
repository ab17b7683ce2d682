/**
 * Invariant: statement references (the `_let` / `{"$ref"}` extension) are well scoped. A name is
 * bound once per script, by a statement whose result is ids (not SUMMARIZE, not a DRY RUN
 * statement); a reference names a binding made by an earlier statement; and a reference stands
 * only where ids go (`target.ids`, a Merge's `args.primary_id`, a turn's `args.episode_id`).
 * Spec: spec/checks.md#references
 */
import { closest } from '../../diagnostics/suggest.js';
import type { IR } from '../../ir/schema.js';
import { refsOf } from '../../ir/refs.js';
import { LET_BINDS, REF_ARGS, hasRefKey, isRef, isRefPath } from '../../language/index.js';
import type { Rule, RuleContext } from '../rule.js';

/** Statement `j` of the checked ones numbered as the person sees it (1-based, in the whole script). */
function number(ctx: RuleContext, j: number): number {
  return ctx.statement - ctx.index + j + 1;
}

export const ReferenceRule: Rule = {
  name: 'ReferenceRule',
  codes: { 'ref-undefined': 'error', 'ref-before-let': 'error', 'let-duplicate': 'error', 'let-not-ids': 'error', 'ref-misplaced': 'error' },
  values: { where: hasRefKey, typeOf: 'object' },
  // A binding, and the places a reference may stand (refsOf).
  given: ['*:_let', '*:target.ids', ...Object.entries(REF_ARGS).map(([op, arg]) => `${op}:args.${arg}`)],
  statement(ir, ctx) {
    const name = ir._let;
    if (name !== undefined) {
      if (LET_BINDS[ir.op] === undefined) {
        ctx.report({ code: 'let-not-ids', message: `${ir.op}'s result is a text, not ids: there is nothing for $${name} to hold`, path: '_let' });
      } else if (ir.meta?.dry_run === true) {
        ctx.report({ code: 'let-not-ids', message: `a dry-run statement changes nothing, so it has no ids for $${name} to hold; drop the LET or the DRY RUN`, path: '_let' });
      }
      const first = ctx.script.findIndex((s, j) => j < ctx.index && s._let === name);
      if (first >= 0) {
        ctx.report({ code: 'let-duplicate', message: `$${name} is already bound by statement ${number(ctx, first)}; a name is bound once per script, so give this binding another name`, path: '_let' });
      }
    }
    const refs = refsOf(ir);
    for (let r = 0; r < refs.length; r++) {
      const ref = refs[r];
      const binder = ctx.script.findIndex((s) => s._let === ref.name);
      if (binder < 0) {
        const known = [...new Set(ctx.script.slice(0, ctx.index).flatMap((s) => (s._let === undefined ? [] : [s._let])))];
        const near = closest(ref.name, known);
        const hint = near ? `; did you mean $${near}?` : `; bind it first with LET $${ref.name} = …`;
        ctx.report({ code: 'ref-undefined', message: `$${ref.name} is not bound by any statement of this script${hint}`, path: ref.path });
      } else if (binder >= ctx.index) {
        const where = binder === ctx.index ? 'by this statement itself' : `only later, by statement ${number(ctx, binder)}`;
        ctx.report({ code: 'ref-before-let', message: `$${ref.name} is bound ${where}; a reference reads the ids an earlier statement bound`, path: ref.path });
      }
    }
  },
  value(value, path, ctx) {
    if (!hasRefKey(value) || (isRef(value) && isRefPath(ctx.ir.op, path))) return;
    const spelt = isRef(value) ? `$${value.$ref}` : 'a "$ref" object';
    ctx.report({ code: 'ref-misplaced', message: `${spelt} stands only where ids go: ID / IDS (target.ids) and MERGE's INTO (args.primary_id)`, path });
  },
};
