/**
 * Merge: folds the target records into a primary one (texts, tags, lineage, the highest weight).
 */
import { compileTargetSelect } from '../../compile/index.js';
import type { MergeOp } from '../../lower/operation.js';
import type { Execution } from '../execution.js';
import { retracted } from '../facts.js';
import type { Io } from '../../store/io.js';
import { asIds, asTags, type Row } from '../rows.js';

export function* merge(x: Execution, op: MergeOp, rows: Row[]): Io<number[]> {
  let primary: Row | undefined;
  if (op.primary === 'auto') primary = rows[0];
  else {
    primary = rows.find((r) => r.id === op.primary);
    if (!primary) {
      const [extra] = yield* x.query(compileTargetSelect({ ids: [op.primary], all: false, orderBy: 'time_desc' }, x.store.dialect, { tenant: op.tenant, now: op.now, applyReadPermissions: false }));
      if (!extra) return (x.refuse('merge-primary-missing', `Merge: primary record #${op.primary} does not exist (or is deleted or expired)`, 'args.primary_id'), []);
      primary = extra;
    }
  }
  const children = rows.filter((r) => r !== primary);
  if (!primary || children.length === 0) {
    // Naming the records to merge and getting fewer than two is a mistake; a filter or search
    // that finds at most one record has simply nothing left to merge (as upstream's reference
    // adapter treats it), so the script goes on with a warning.
    if (op.selection.ids) return (x.refuse('merge-needs-two', `Merge needs at least two live records; the target selects ${rows.length}`, 'target'), []);
    x.warn('merge-nothing-to-merge', `Merge: the target selects ${rows.length} live record${rows.length === 1 ? '' : 's'}, so there is nothing to merge`, 'target');
    return [];
  }
  if (!x.guard(op, children) || !x.guard(op, [primary], true)) return [];
  // The merged text is the records' texts: the actor must be able to read every one of them.
  if (!x.readGuard([primary, ...children], 'a Merge copies its text into the merged record')) return [];
  const text = [primary.text, ...children.map((c) => c.text)].filter((t) => typeof t === 'string' && t).join('\n');
  const primaryChanges: Record<string, unknown> = {
    text,
    tags: [...new Set([...asTags(primary.tags), ...children.flatMap((c) => asTags(c.tags))])],
    lineage_children: [...new Set([...asIds(primary.lineage_children), ...children.map((c) => c.id)])],
  };
  const weights = [primary, ...children].map((r) => r.weight).filter((w): w is number => typeof w === 'number');
  if (weights.length) primaryChanges.weight = Math.max(...weights);
  if (op.reembed && primary.embedding_model && primary.embedding_model !== 'caller') Object.assign(primaryChanges, yield* x.embedding(text));
  yield* x.update(primary, primaryChanges);
  for (const child of children) {
    if (op.softDeleteChildren) {
      yield* x.update(child, { lineage_parents: [...new Set([...asIds(child.lineage_parents), primary.id])], deleted: 1, deleted_at: op.now });
    } else yield* x.remove(child);
  }
  // Children that were fact versions leave their chains (src/execute/facts.ts).
  yield* retracted(x, children);
  return [primary.id, ...children.map((c) => c.id)];
}
