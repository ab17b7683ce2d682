/**
 * Expire: sets the target records' expiry (time, action, reason); a record under legal_hold
 * refuses it (its write's effects, `Execution.effectGuard`).
 */
import type { ExpireOp } from '../../lower/operation.js';
import type { Execution } from '../execution.js';
import type { Io } from '../../store/io.js';
import type { Row } from '../rows.js';

export function* expire(x: Execution, op: ExpireOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows)) return;
  if (op.expireAt <= op.now) x.warn('expires-immediately', `the expiry time ${op.expireAt} is not after now (${op.now}); the records are hidden at once`);
  for (const row of rows) x.stage(row, { expire_at: op.expireAt, expire_action: op.action, expire_reason: op.reason ?? null });
  yield* x.flush();
}
