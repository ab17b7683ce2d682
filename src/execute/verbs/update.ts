/**
 * Update: sets fields of the target records (new text gets a new embedding); a fact version's
 * text and subject are refused (a new value is a new version).
 */
import type { UpdateOp } from '../../lower/operation.js';
import type { Execution } from '../execution.js';
import type { Io } from '../../store/io.js';
import { asObject, type Row } from '../rows.js';
import { factEditRefusal } from '../facts.js';
import { retentionExpiry } from '../retention.js';

export function* update(x: Execution, op: UpdateOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows)) return;
  // A fact version's value and key are not edited in place (spec/semantics.md "Fact versions").
  for (const row of rows) {
    const refusal = factEditRefusal(row, op.set);
    if (refusal) return void x.refuse('fact-version-immutable', `Update refused: ${refusal.message}`, `args.set.${refusal.field}`);
  }
  const facets = Object.keys(op.facets).length > 0;
  for (const row of rows) {
    const changes: Record<string, unknown> = { ...op.set };
    // A change of retention class re-derives the expiry; an ephemeral or session record keeps one (../retention.ts).
    const retained = 'retention' in op.set || 'expire_at' in op.set ? retentionExpiry(row, op.set, op.now) : undefined;
    if (retained && 'refusal' in retained) return void x.refuse('retention-expiry', `Update refused: ${retained.refusal}`, 'retention' in op.set ? 'args.set.retention' : 'args.set.expire_at');
    if (retained) Object.assign(changes, retained.set);
    if (facets) {
      const facets = { ...asObject(x.value(row, 'facets')), ...op.facets };
      changes.facets = facets;
    }
    // New text gets a new embedding, unless the record has none or carries the caller's own.
    const textChanged = typeof op.set.text === 'string' && op.set.text !== row.text;
    if (textChanged && row.embedding_model && row.embedding_model !== 'caller') Object.assign(changes, yield* x.embedding(op.set.text as string));
    x.stage(row, changes);
  }
  yield* x.flush();
}
