/**
 * Label: adds, removes or replaces tags, and merges facets.
 */
import type { LabelOp } from '../../lower/operation.js';
import type { Execution } from '../execution.js';
import type { Io } from '../../store/io.js';
import { asObject, asTags, type Row } from '../rows.js';

export function* label(x: Execution, op: LabelOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows, op.mode === 'add')) return;
  for (const row of rows) {
    const old = asTags(row.tags);
    const tags =
      op.mode === 'replace' ? [...op.tags]
        : op.mode === 'remove' ? old.filter((t) => !op.tags.includes(t))
        : [...new Set([...old, ...op.tags])];
    if (op.mode === 'remove') {
      const absent = op.tags.filter((t) => !old.includes(t));
      if (absent.length) x.warn('tag-not-present', `memory #${row.id} has no tag ${absent.map((t) => `'${t}'`).join(', ')}`, 'args.tags');
    }
    const changes: Record<string, unknown> = { tags };
    if (Object.keys(op.facets).length) {
      changes.facets = { ...asObject(row.facets), ...op.facets };
      Object.assign(changes, op.facetColumns);
    }
    x.stage(row, changes);
  }
  yield* x.flush();
}
