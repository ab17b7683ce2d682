/** The Session: the one way a store is run — a CheckedScript checked once, the caller's policy, the sweep in the script's transaction. */
import { describe, expect, it } from 'vitest';
import { Session, run } from '../../src/engine/index.js';
import { checkIrs, readInput, type CheckedScript } from '../../src/pipeline.js';
import { encode, freshStore, NOW, op, rows } from './harness.js';

describe('Session', () => {
  it('runs a CheckedScript as the same IRs would run, and takes no forged one for checked', async () => {
    const text = 'ENCODE "a" TAGS "x"; RETRIEVE WHERE tags HAS "x" LIMIT 5 INCLUDE id, text;';
    const input = readInput(text);
    expect(input.checked).toBeDefined();
    const a = await freshStore();
    const b = await freshStore();
    const fromChecked = new Session(a, { now: NOW, traceId: 't' } as never).run(input.checked!, { traceId: 't' });
    const fromIrs = run(b, input.irs, { now: NOW, traceId: 't' });
    expect(fromChecked).toEqual(fromIrs);
    // A look-alike object is plain input, validated as such (and refused: it is no list of IRs).
    const forged = { irs: [{ stage: 'ENC', op: 'Encode' }], sourceMaps: [], warnings: [], policy: 'default', within: { limit: Infinity, flags: [true] } } as unknown as CheckedScript;
    const r = new Session(a, { now: NOW }).run(forged);
    expect(r.ok).toBe(false);
  });

  it('refuses, under a strict run, a script checked under the default policy that has warnings', async () => {
    const noStage = { op: 'Encode', args: { payload: { text: 'no stage' } } };
    const checked = checkIrs([noStage]);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.script.warnings.map((d) => d.code)).toEqual(['stage-inferred']);
    const store = await freshStore();
    const strict = new Session(store, { now: NOW, policy: 'strict' }).run(checked.script);
    expect(strict.ok).toBe(false);
    expect(strict.diagnostics.map((d) => [d.code, d.severity])).toEqual([['stage-inferred', 'error']]);
    expect(rows(store)).toEqual([]);
    expect(new Session(store, { now: NOW }).run(checked.script).ok).toBe(true);
  });

  it('sweeps in the script\'s transaction: a refused script rolls the sweep back too', async () => {
    const store = await freshStore();
    const setUp = new Session(store, { now: NOW }).run([
      encode('due'), op('Expire', { ids: ['1'] }, { until: '2025-10-22T00:00:00Z', on_expire: 'hard_delete' }),
      encode('locked'), op('Lock', { ids: ['2'] }, { mode: 'read_only' }),
    ]);
    expect(setUp.ok).toBe(true);
    const later = new Session(store, { now: '2025-10-23T00:00:00Z' });
    // Refused as it runs (after its first statement wrote), not before: the sweep had run too.
    const refused = later.run([encode('new'), op('Update', { ids: ['2'] }, { set: { text: 'changed' } })], { sweep: true });
    expect(refused.diagnostics.map((d) => d.code)).toEqual(['record-locked']);
    expect(refused.results).toHaveLength(1);
    expect(rows(store).map((r) => r.text)).toEqual(['due', 'locked']);
    const swept = later.run([encode('after')], { sweep: true });
    expect(swept.ok).toBe(true);
    expect(swept.swept?.applied).toEqual([{ id: 1, action: 'hard_delete' }]);
    expect(rows(store).map((r) => r.text)).toEqual(['locked', 'after']);
  });
});
