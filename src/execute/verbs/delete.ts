/**
 * Delete: soft-deletes the target records, or removes them (an ephemeral record's history too).
 */
import type { DeleteOp, ExpireOp } from '../../lower/operation.js';
import type { Execution } from '../execution.js';
import type { Io } from '../../store/io.js';
import type { Row } from '../rows.js';
import { retracted } from '../facts.js';

/** Refuses a Delete or Expire of a record under legal hold; true when none is. */
export function retentionGuard(x: Execution, op: DeleteOp | ExpireOp, rows: readonly Row[]): boolean {
  const held = rows.find((r) => r.retention === 'legal_hold');
  return held ? x.refuse('retention-held', `${op.kind} refused: memory #${held.id} is under legal_hold retention`) : true;
}

export function* remove(x: Execution, op: DeleteOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows) || !retentionGuard(x, op, rows)) return;
  for (const row of rows) {
    if (op.soft) x.stage(row, { deleted: 1, deleted_at: op.now });
    else {
      yield* x.remove(row);
      yield* x.eraseHistory(row);
    }
  }
  yield* x.flush();
  // A deleted fact version is retracted: its neighbours re-link over it (src/execute/facts.ts).
  yield* retracted(x, rows);
}
