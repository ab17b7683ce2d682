/**
 * Promote and Demote: move the weight (or archive), set reminders, record a reward's outcome.
 */
import { feedbackValues, learnFromReward } from '../../experience/experience.js';
import { ARCHIVE_WEIGHT, BASE_WEIGHT } from '../../lower/index.js';
import type { DemoteOp, PromoteOp, WeightChange } from '../../lower/operation.js';
import type { Execution } from '../execution.js';
import type { Io } from '../../store/io.js';
import { clamp01, type Row } from '../rows.js';

function newWeight(current: unknown, change: WeightChange): number | undefined {
  const w = typeof current === 'number' ? current : BASE_WEIGHT;
  switch (change.kind) {
    case 'set': return clamp01(change.weight);
    case 'shift': return clamp01(w + change.delta);
    case 'archive': return clamp01(Math.min(w, ARCHIVE_WEIGHT));
    case 'none': return undefined;
  }
}

export function* promote(x: Execution, op: PromoteOp | DemoteOp, rows: Row[]): Io<void> {
  if (!x.guard(op, rows)) return;
  for (const row of rows) {
    const changes: Record<string, unknown> = {};
    const w = newWeight(row.weight, op.change);
    if (w !== undefined) changes.weight = w;
    if (op.kind === 'Promote' && op.remind) {
      changes.auto_frequency = op.remind.rrule;
      changes.next_auto_update_at = op.remind.next;
    }
    if (op.kind === 'Demote' && op.reason !== undefined) changes.demote_reason = op.reason;
    // An outcome: the learned utility moves toward the reward (src/experience).
    if (op.kind === 'Promote' && op.reward !== undefined) Object.assign(changes, feedbackValues(row, op.reward));
    x.stage(row, changes);
  }
  yield* x.flush();
  // The learned selector learns from the records whose utility this reward moved, at their own level only.
  if (op.kind === 'Promote' && op.reward !== undefined && !x.refusal) {
    const moved = new Set(x.changes.filter((c) => c.after && 'utility_n' in c.after).map((c) => c.id));
    const rewarded = rows.filter((r) => moved.has(r.id) && (r.level === 'episode' || r.level === 'turn')).map((r) => ({ id: r.id, level: r.level }));
    if (rewarded.length) yield* learnFromReward(x, rewarded, op.reward);
  }
}
