/**
 * The WHERE conditions' IR keys and canonical order, shared by the printer, astToIr and irToAst.
 * Which clause fills which IR field is the vocabulary's clause table (`src/language/`).
 */
import { CONDITION_OPERATORS, CONDITION_ORDER } from '../language/index.js';
import type { Condition, FieldCondition } from './ast.js';

/** The filter field a WHERE condition sets (`tags HAS` → `has_tags`, `type = x` → `type`). */
function filterKeyOf(c: FieldCondition): string {
  return CONDITION_OPERATORS[c.operator].key ?? c.field.name;
}

const FILTER_ORDER: readonly string[] = CONDITION_ORDER;

/**
 * WHERE conditions in canonical order: the search first (a LIMIT after it stays the search's),
 * then the filter conditions by field in the vocabulary's `CONDITION_ORDER`, then unknown fields
 * by name. A filter is a conjunction of distinct fields, so this order depends only on the IR.
 */
export function sortConditions(conditions: readonly Condition[]): Condition[] {
  const rank = (c: Condition): [number, string] => {
    if (c.kind === 'SearchCondition') return [-1, ''];
    const key = filterKeyOf(c);
    const known = FILTER_ORDER.indexOf(key);
    return [known >= 0 ? known : FILTER_ORDER.length, known >= 0 ? '' : key];
  };
  return conditions
    .map((c, i) => ({ c, i, r: rank(c) }))
    .sort((a, b) => a.r[0] - b.r[0] || (a.r[1] < b.r[1] ? -1 : a.r[1] > b.r[1] ? 1 : 0) || a.i - b.i)
    .map(({ c }) => c);
}
