/**
 * Lock: sets the lock columns (mode, reason, policy, expiry) of the target records.
 */
import type { LockOp } from '../../lower/operation.js';
import type { Execution } from '../execution.js';
import type { Io } from '../../store/io.js';
import type { Row } from '../rows.js';

export function* lock(x: Execution, op: LockOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows)) return;
  for (const row of rows) {
    x.stage(row, {
      lock_mode: op.mode,
      lock_reason: op.reason ?? null,
      lock_policy: op.policy ?? null,
      lock_expires: op.expires ?? null,
    });
  }
  yield* x.flush();
}
