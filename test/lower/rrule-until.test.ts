import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { basicUntil } from '../../src/lower/rrule.js';
import { readInput } from '../../src/pipeline.js';

describe('RRULE UNTIL in extended ISO-8601 (spec/checks.md#invalid-rrule)', () => {
  it('is rewritten in the RFC 5545 basic form', () => {
    expect(basicUntil('FREQ=DAILY;UNTIL=2025-10-24T00:00:00Z')).toBe('FREQ=DAILY;UNTIL=20251024T000000Z');
    expect(basicUntil('UNTIL=2025-10-24;FREQ=WEEKLY')).toBe('UNTIL=20251024;FREQ=WEEKLY');
    expect(basicUntil('FREQ=DAILY;UNTIL=2025-10-24T08:30Z')).toBe('FREQ=DAILY;UNTIL=20251024T083000Z');
    expect(basicUntil('FREQ=DAILY;UNTIL=20251024T000000Z')).toBe('FREQ=DAILY;UNTIL=20251024T000000Z');
  });

  it('runs with a warning, stops the reminder at UNTIL, and is refused under --strict', async () => {
    const store = await createStore();
    const now = '2025-10-21T00:00:00Z';
    run(store, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'a' }, time: now } }], { now });
    const promote = (rrule: string) => ({ stage: 'STO', op: 'Promote', target: { ids: ['1'] }, args: { remind: { rrule } } });
    const r = run(store, [promote('FREQ=DAILY;UNTIL=2025-10-24T00:00:00Z')], { now });
    expect(r.ok).toBe(true);
    expect(r.diagnostics.map((d) => `${d.code}:${d.severity}`)).toContain('rrule-until-normalised:warning');
    const after = run(store, [promote('FREQ=DAILY;UNTIL=2025-10-20T00:00:00Z')], { now });
    expect(after.ok).toBe(true);
    const strict = readInput(JSON.stringify(promote('FREQ=DAILY;UNTIL=2025-10-24T00:00:00Z')), { policy: 'strict' });
    expect(strict.diagnostics.map((d) => `${d.code}:${d.severity}`)).toContain('rrule-until-normalised:error');
    expect(readInput(JSON.stringify(promote('FREQ=DAILY;UNTIL=20251024T000000Z'))).diagnostics).toEqual([]);
  });
});
