/**
 * Invariant: Encode has no target; every other op has a target that selects by exactly one mode
 * (`ids`, `filter`, `search` or `all: true`), except that `search` may be narrowed by a `filter`;
 * an `ids` selection is non-empty and names each id once.
 * Spec: spec/checks.md#target-mode
 */
import { OPS, TARGET_MODES as MODES, isRef } from '../../language/index.js';
import type { Rule } from '../rule.js';

export const TargetModeRule: Rule = {
  name: 'TargetModeRule',
  // Encode may not have a target; every other op needs one (every statement is looked at).
  given: OPS.map((op) => (op === 'Encode' ? 'Encode:target' : `${op}:`)),
  codes: {
    'target-required': 'error',
    'target-forbidden': 'error',
    'target-exclusive': 'error',
    'target-empty-ids': 'error',
    'duplicate-id': 'warning',
  },
  statement(ir, ctx) {
    const target = ir.target;
    if (ir.op === 'Encode') {
      if (target !== undefined) ctx.report({ code: 'target-forbidden', message: 'Encode creates a memory and takes no target', path: 'target' });
      return;
    }
    if (target === undefined) {
      ctx.report({ code: 'target-required', message: `${ir.op} needs a target: ${ctx.source === 'dsl' ? 'ID, IDS, WHERE or ALL' : 'ids, filter, search or all'}`, path: '' });
      return;
    }
    // The usual target, one mode (or a search narrowed by a filter) and no ids, is judged here
    // without the list of modes and its closure; any other goes the long way below.
    if (target.ids === undefined) {
      let count = 0;
      for (let i = 0; i < MODES.length; i++) {
        const m = MODES[i];
        if (m === 'all' ? target.all === true : target[m] !== undefined) count++;
      }
      if (count === 1 || (count === 2 && target.search !== undefined && target.filter !== undefined)) return;
    }
    const modes = MODES.filter((m) => (m === 'all' ? target.all === true : target[m] !== undefined));
    if (modes.length === 0) {
      const why = target.all === false ? "'all' is false, so the target selects nothing" : 'the target selects nothing';
      ctx.report({ code: 'target-required', message: `${why}; give ${ctx.source === 'dsl' ? 'ID, IDS, WHERE or ALL' : 'ids, filter, search or all'}`, path: 'target' });
      return;
    }
    const combined = modes.length === 2 && modes.includes('search') && modes.includes('filter');
    if (modes.length > 1 && !combined) {
      const [first, ...rest] = modes;
      for (const m of rest) {
        ctx.report({
          code: 'target-exclusive',
          message: `a target selects by one mode; '${m}' cannot be combined with '${first}' (only search may be narrowed by a filter)`,
          path: `target.${m}`,
          related: [{ message: `'${first}' given here`, path: `target.${first}` }],
        });
      }
    }
    const ids = target.ids;
    if (ids === undefined) return;
    const list = Array.isArray(ids) ? ids : [ids];
    if (list.length === 0 || list.some((id) => id === '')) {
      ctx.report({ code: 'target-empty-ids', message: 'ids must name at least one memory, and no id may be empty', path: 'target.ids' });
      return;
    }
    const seen = new Set<string>();
    list.forEach((id, i) => {
      const key = isRef(id) ? `$${id.$ref}` : String(id);
      if (seen.has(key)) ctx.report({ code: 'duplicate-id', message: `id '${key}' is listed twice`, path: `target.ids.${i}` });
      seen.add(key);
    });
  },
};
