/**
 * Invariant: a target of `all` is confirmed — a write (STO) needs `meta.confirmation` or
 * `meta.dry_run`, a read (RET) needs `meta.confirmation`.
 * Spec: spec/checks.md#all-requires-confirmation
 */
import type { Fix, Position } from '../../diagnostics/diagnostic.js';
import type { SourceMap } from '../../diagnostics/sourceMap.js';
import { STAGE_OF } from '../../ir/schema.js';
import { spell } from '../paths.js';
import type { Rule } from '../rule.js';

/**
 * Inserting a flag clause at the end of a DSL statement: right after its last mapped clause,
 * so before its `;` and before a comment that ends its line.
 */
function appendClauseFix(map: SourceMap | undefined, clause: string): Fix | undefined {
  let end: Position | undefined;
  for (const [key, range] of map ?? []) {
    if (key !== '' && (!end || range.end.offset > end.offset)) end = range.end;
  }
  return end ? { message: `add ${clause}`, edits: [{ range: { start: end, end }, newText: ` ${clause}` }] } : undefined;
}

export const ConfirmationRule: Rule = {
  name: 'ConfirmationRule',
  codes: { 'all-requires-confirmation': 'error' },
  given: ['*:target.all'],
  statement(ir, ctx) {
    if (ir.target?.all !== true) return;
    const stage = STAGE_OF[ir.op];
    const confirmed = ir.meta?.confirmation === true;
    const confirm = spell(ctx, 'meta.confirmation');
    // Only DSL text can take a clause; an explicit `confirmation: false` is left to the person.
    const fix = ctx.source === 'dsl' && ir.meta?.confirmation === undefined ? appendClauseFix(ctx.sourceMap, 'CONFIRM') : undefined;
    if (stage === 'STO' && !confirmed && ir.meta?.dry_run !== true) {
      ctx.report({
        code: 'all-requires-confirmation',
        message: ctx.source === 'dsl'
          ? `${ir.op} on all memories changes everything: add ${confirm}, or ${spell(ctx, 'meta.dry_run')} to see what it would do`
          : `${ir.op} on all memories changes everything: confirm it (meta.confirmation) or make it a dry run (meta.dry_run)`,
        path: 'target.all',
        ...(fix ? { fix } : {}),
      });
    } else if (stage === 'RET' && !confirmed) {
      ctx.report({
        code: 'all-requires-confirmation',
        message: ctx.source === 'dsl' ? `${ir.op} over all memories needs confirmation: add ${confirm}` : `${ir.op} over all memories needs confirmation (meta.confirmation)`,
        path: 'target.all',
        ...(fix ? { fix } : {}),
      });
    }
  },
};
