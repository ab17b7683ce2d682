/**
 * Transaction time as a property (spec/semantics.md "Reads in time"): random scripts of encodes,
 * back-dated corrections, retractions (soft DELETE) and their undo run one day apart; after each
 * step the answers of reads KNOWN AT that step's time (at several valid times, and HISTORY with
 * both intervals) are recorded, and every later step must give exactly the same answers to them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditLog, run, undo, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';

const DAY = 86_400_000;
const clockAt = (step: number) => new Date(Date.parse('2026-06-01T00:00:00Z') + step * DAY).toISOString().slice(0, 19) + 'Z';
const KEYS = ['deadline', 'style'] as const;
const VALID_FROM = ['2026-05-01T00:00:00Z', '2026-06-03T00:00:00Z', '2026-06-10T00:00:00Z', '2026-07-01T00:00:00Z'];
const AS_OF = ['2026-05-15T00:00:00Z', '2026-06-05T00:00:00Z', '2026-06-20T00:00:00Z', '2026-07-15T00:00:00Z'];

type Step =
  | { kind: 'encode'; key: number; validFrom: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'undo'; pick: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('encode' as const), key: fc.nat(KEYS.length - 1), validFrom: fc.nat(VALID_FROM.length - 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(20) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('undo' as const), pick: fc.nat(20) }) },
);

/** The reads of one transaction time: each key as of each valid time, and its HISTORY with both intervals. */
function readsAt(knownAt: string): unknown[] {
  const reads: unknown[] = [];
  for (const attribute of KEYS) {
    const target = { filter: { subject: 'mira', attribute } };
    for (const asOf of AS_OF) reads.push({ stage: 'RET', op: 'Retrieve', target, args: { as_of: asOf, known_at: knownAt, include: ['text', 'valid_to', 'supersedes', 'believed_from', 'believed_to'] } });
    reads.push({ stage: 'RET', op: 'Retrieve', target, args: { history: true, known_at: knownAt, include: ['text', 'valid_from', 'valid_to', 'supersedes', 'believed_from', 'believed_to'] } });
    reads.push({ stage: 'RET', op: 'Summarize', target, args: { as_of: AS_OF[1], known_at: knownAt } });
  }
  return reads;
}

function answers(store: Store, knownAt: string, now: string): string {
  const r = run(store, readsAt(knownAt), { now });
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return JSON.stringify(r.results.map((x) => ({ ids: x.ids, rows: x.rows, summary: x.summary })));
}

describe('reads at a fixed transaction time (property)', () => {
  it('answers recorded KNOWN AT step i are identical at every later step', async () => {
    let retractions = 0;
    let restored = 0;
    let nonEmpty = 0;
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 10 }), async (steps) => {
      const store = await createStore();
      const recorded: { knownAt: string; answer: string }[] = [];
      let written = 0;
      for (let i = 0; i < steps.length; i++) {
        const now = clockAt(i);
        const s = steps[i];
        if (s.kind === 'encode') {
          const r = run(store, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: `v${i}` }, subject: 'mira', attribute: KEYS[s.key], valid_from: VALID_FROM[s.validFrom] } }], { now });
          expect(r.ok).toBe(true);
          written++;
        } else if (s.kind === 'delete' && written > 0) {
          const r = run(store, [{ stage: 'STO', op: 'Delete', target: { ids: [String(1 + (s.pick % written))] }, args: { soft: true } }], { now });
          expect(r.ok).toBe(true);
          if (r.results[0].ids.length) retractions++;
        } else if (s.kind === 'undo') {
          const open = auditLog(store).filter((e) => e.op === 'Delete' && e.undoneBy === null && e.affectedIds.length);
          if (open.length) {
            const u = undo(store, open[s.pick % open.length].id, { now });
            if (u.ok) restored++;
          }
        }
        // What was recorded before is unchanged; then this step's own time is recorded.
        for (const { knownAt, answer } of recorded) expect(answers(store, knownAt, now), `KNOWN AT ${knownAt}, at step ${i}`).toBe(answer);
        const answer = answers(store, now, now);
        if (answer.includes('"text"')) nonEmpty++;
        recorded.push({ knownAt: now, answer });
      }
    }), { numRuns: 100, seed: 30 });
    // The scripts did retract, restore and read something: the property is not vacuous.
    expect(retractions).toBeGreaterThan(30);
    expect(restored).toBeGreaterThan(12);
    expect(nonEmpty).toBeGreaterThan(200);
  }, 300_000);
});
