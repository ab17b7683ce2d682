/**
 * Delete: soft-deletes the target records, or removes them (an ephemeral record's erasure too:
 * `Execution.remove`). Retention, locks and permissions are judged on each record's write by its
 * effects (`Execution.effectGuard`): a record under legal_hold refuses both.
 */
import type { DeleteOp } from '../../lower/operation.js';
import type { Execution } from '../execution.js';
import type { Io } from '../../store/io.js';
import type { Row } from '../rows.js';
import { retracted } from '../facts.js';

export function* remove(x: Execution, op: DeleteOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows)) return;
  for (const row of rows) {
    if (op.soft) x.stage(row, { deleted: 1, deleted_at: op.now });
    else yield* x.remove(row);
  }
  yield* x.flush();
  // A deleted fact version is retracted: its neighbours re-link over it (src/execute/facts.ts).
  yield* retracted(x, rows);
}
