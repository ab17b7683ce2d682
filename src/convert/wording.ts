/**
 * DSL wording for messages about IR fields: how the DSL writes the IR field at a path, read off
 * the vocabulary's clause table (spec/syntax.md §8). The front end hands `dslName` to validation
 * and the checker for DSL input, so that `ir/` and `check/` speak IR paths only and a message
 * about DSL input names the clause the person wrote (`meta.confirmation` → `CONFIRM`).
 */
import {
  CLAUSES, CONDITION_OPERATORS, SEARCH_OPTIONS, clausePath, clauseSpec, operatorOfFilterKey, type ClauseName, type Op,
} from '../language/index.js';

/** WHERE spellings of the filter keys that are not written `field = v`. */
function conditionSpelling(key: string): string | undefined {
  if (key === 'limit') return 'LIMIT';
  const operator = operatorOfFilterKey(key);
  if (!operator) return undefined;
  return operator === 'RANGE' ? 'time IN LAST n UNIT / time FROM a TO b' : `${CONDITION_OPERATORS[operator].field} ${operator}`;
}

/** The clauses that fill one IR field (not the target, SET or WITH; not STAGE, which the verb implies). */
const FIELD_CLAUSES = (Object.keys(CLAUSES) as ClauseName[]).filter((name) => {
  const shape = clauseSpec(name)!.shape;
  return name !== 'STAGE' && shape !== 'target' && shape !== 'set' && shape !== 'with';
});

/**
 * How the DSL writes the IR field at `path` of an `op` statement, so that messages about DSL
 * input can name the clause the person wrote. Undefined for a path no clause spells.
 */
export function dslName(op: Op, path: string): string | undefined {
  for (const name of FIELD_CLAUSES) {
    const p = clausePath(name, op);
    if (p && p.join('.') === path) return clauseSpec(name)!.named ?? name;
  }
  if (path.startsWith('target.search.')) {
    const rest = path.slice('target.search.'.length);
    for (const [name, o] of Object.entries(SEARCH_OPTIONS)) if (o.path.join('.') === rest) return name;
    if (rest === 'intent.query' || rest === 'intent') return 'search "query"';
    return undefined;
  }
  if (path.startsWith('target.filter.')) {
    const key = path.slice('target.filter.'.length);
    if (key.includes('.')) return key.startsWith('time_range.') ? conditionSpelling('time_range') : undefined;
    return conditionSpelling(key) ?? `${key} = …`;
  }
  switch (path) {
    case 'target': return 'ID, IDS, WHERE or ALL';
    case 'target.ids': return 'ID / IDS';
    case 'target.all': return 'ALL';
    case 'target.filter': return 'WHERE';
    case 'target.search': return 'WHERE search "query"';
    case 'args.payload.text': return 'ENCODE "text"';
    case 'args.remind': return 'REMIND "rule"';
    case 'args.set': return 'SET';
  }
  if (op === 'Update' && path.startsWith('args.set.') && !path.slice(9).includes('.')) return `SET ${path.slice(9)}`;
  if (op !== 'Update' && op !== 'Encode' && path.startsWith('args.') && !path.slice(5).includes('.')) return `SET ${path.slice(5)}`;
  return undefined;
}
