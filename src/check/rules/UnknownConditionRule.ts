/**
 * Invariant: every condition of a target is one the engine can apply — each key of `target`,
 * `target.filter` and `target.filter.time_range` is one that lowering reads (the lists are the
 * engine's own, exported by src/lower). A write with any other condition is refused by the
 * engine, since it would select more memories than asked: an error. A read ignores it: a warning.
 * Spec: spec/checks.md#unknown-condition
 */
import { FILTER_KEYS, TARGET_KEYS, TIME_RANGE_KEYS } from '../../lower/index.js';
import { closest } from '../../diagnostics/suggest.js';
import type { Fix } from '../../diagnostics/diagnostic.js';
import { resolveKeyRange, type SourceMap } from '../../diagnostics/sourceMap.js';
import { spell, valueAt } from '../paths.js';
import type { Rule } from '../rule.js';

/**
 * For DSL input: `status = "done"` → `facets = { status: "done" }`, keeping the value's text.
 * Offered only for a filter with one such field and no facets condition yet (a second
 * `facets =` would be a duplicate).
 */
function facetFix(map: SourceMap | undefined, key: string): Fix | undefined {
  const path = `target.filter.${key}`;
  const name = resolveKeyRange(map, path);
  const value = map?.get(path);
  if (!name || !value || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) || value.start.offset < name.end.offset) return undefined;
  return {
    message: `write it as facets = { ${key}: … }`,
    edits: [
      { range: { start: name.start, end: value.start }, newText: `facets = { ${key}: ` },
      { range: { start: value.end, end: value.end }, newText: ' }' },
    ],
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The objects whose keys are conditions, with the keys the engine applies. */
const CONDITION_OBJECTS: ReadonlyArray<{ readonly path: string; readonly known: readonly string[] }> = [
  { path: 'target', known: TARGET_KEYS },
  { path: 'target.filter', known: FILTER_KEYS },
  { path: 'target.filter.time_range', known: TIME_RANGE_KEYS },
];

/** The same lists as sets, for the usual statement, whose every condition is known. */
const KNOWN_SETS: readonly ReadonlySet<string>[] = CONDITION_OBJECTS.map((c) => new Set(c.known));

/** Whether some condition object of `ir` has a key the engine does not apply (no array made). */
function anyUnknown(ir: unknown): boolean {
  for (let c = 0; c < CONDITION_OBJECTS.length; c++) {
    const obj = valueAt(ir, CONDITION_OBJECTS[c].path);
    if (!isObject(obj)) continue;
    const known = KNOWN_SETS[c];
    for (const key in obj) if (Object.hasOwn(obj, key) && !known.has(key)) return true;
  }
  return false;
}

export const UnknownConditionRule: Rule = {
  name: 'UnknownConditionRule',
  codes: { 'unknown-condition': 'error' },
  // Every condition object lies under `target`.
  given: ['*:target'],
  statement(ir, ctx) {
    if (!anyUnknown(ir)) return;
    // The engine's own test (src/lower reportIgnored): only a read may leave a condition unapplied.
    const read = ir.op === 'Retrieve' || ir.op === 'Summarize';
    for (const { path, known } of CONDITION_OBJECTS) {
      const obj = valueAt(ir, path);
      if (!isObject(obj)) continue;
      for (const key of Object.keys(obj)) {
        if (known.includes(key)) continue;
        const guess = closest(key, known);
        // A near miss of a known condition already has validation's unknown-field warning (with
        // its fix); on a read, where nothing is refused, a second warning would only repeat it.
        if (read && guess) continue;
        const dsl = ctx.source === 'dsl';
        const facet = path === 'target.filter' && !guess;
        const hint = guess ? `; did you mean '${guess}'?` : facet ? `; a facet condition is written ${dsl ? `facets = { ${key}: … }` : `facets.${key}`}` : '';
        const field = spell(ctx, `${path}.${key}`);
        const fix = dsl && facet && Object.keys(obj).filter((k) => !known.includes(k)).length === 1 && obj.facets === undefined ? facetFix(ctx.sourceMap, key) : undefined;
        ctx.report({
          code: 'unknown-condition',
          severity: read ? 'warning' : 'error',
          message: read
            ? `${ir.op} ignores ${field}: the engine cannot apply it, so it selects as if it were not there${hint}`
            : `the engine refuses this ${ir.op}: it cannot apply ${field}, so the write would select more memories than asked${hint}`,
          path: `${path}.${key}`,
          ...(fix ? { fix } : {}),
        });
      }
    }
  },
};
