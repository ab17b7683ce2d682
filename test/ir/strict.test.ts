/**
 * `--strict` refuses the slips validation otherwise reads as meant with a warning
 * (spec/semantics.md#benchmark): on `t2m check`, `t2m run`, `t2m bench`, and with `policy: 'strict'`
 * in the library (`readInput`, the engine's `run`, the benchmark runner).
 */
import { describe, expect, it } from 'vitest';
import { runBenchmark, type Sample } from '../../src/conformance/index.js';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { readInput } from '../../src/pipeline.js';
import { files, t2m } from '../cli/run-cli.js';

const ENCODE = { stage: 'ENC', op: 'Encode', args: { payload: { text: 'a' }, tags: ['x'], time: '2025-10-20T00:00:00Z' } };
const NOW = '2025-10-21T00:00:00Z';

/** Each slip, as one Retrieve (the code it is reported with). */
const SLIPS: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
  ['no stage', { op: 'Retrieve', target: { ids: ['1'] } }, 'stage-inferred'],
  ['an unknown stage', { stage: 'READ', op: 'Retrieve', target: { ids: ['1'] } }, 'stage-inferred'],
  ['filter.tags for has_tags', { stage: 'RET', op: 'Retrieve', target: { filter: { tags: ['x'], limit: 5 } } }, 'misplaced-field'],
  ['time_range beside the filter', { stage: 'RET', op: 'Retrieve', target: { filter: { limit: 5 }, time_range: { relative: 'last', amount: 7, unit: 'days' } } }, 'misplaced-field'],
];

const severities = (ds: readonly { code: string; severity: string }[], code: string) => ds.filter((d) => d.code === code).map((d) => d.severity);

describe.each(SLIPS)('%s', (_, ir, code) => {
  it('is a warning by default and an error under policy strict (readInput)', () => {
    const text = JSON.stringify(ir);
    expect(severities(readInput(text).diagnostics, code)).toEqual(['warning']);
    const strict = readInput(text, { policy: 'strict' });
    expect(severities(strict.diagnostics, code)).toEqual(['error']);
  });

  it("runs by default and is refused under the engine's strict policy", async () => {
    const store = await createStore();
    run(store, [ENCODE], { now: NOW });
    const loose = run(store, [ir], { now: NOW });
    expect(loose.ok).toBe(true);
    expect(severities(loose.diagnostics, code)).toEqual(['warning']);
    const strict = run(store, [ir], { now: NOW, policy: 'strict' });
    expect(strict.ok).toBe(false);
    expect(severities(strict.diagnostics, code)).toEqual(['error']);
  });

  it('fails a benchmark sample only under strict', async () => {
    const sample: Sample = { id: 't2m-test-single-retrieve-001', prerequisites: [ENCODE], schema_list: [ir], expected: { assertions: [], ranking: null, meta: { eval_time_utc: NOW } } };
    expect((await runBenchmark([sample])).samples).toEqual({ total: 1, passed: 1 });
    const strict = await runBenchmark([sample], { policy: 'strict' });
    expect(strict.samples).toEqual({ total: 1, passed: 0 });
    expect(strict.failures[0].why).toContain(code);
  });
});

describe('t2m --strict', () => {
  const f = files({
    'slips.jsonl': `${SLIPS.map(([, ir]) => JSON.stringify(ir)).join('\n')}\n`,
    'bench.jsonl': `${JSON.stringify({ id: 't2m-test-single-retrieve-001', prerequisites: [ENCODE], schema_list: [SLIPS[2][1]], expected: { assertions: [], ranking: null, meta: { eval_time_utc: NOW } } })}\n`,
  });

  it('check: warnings by default, errors under --strict', () => {
    const loose = t2m(['check', f['slips.jsonl'], '--json']);
    expect(loose.status).toBe(0);
    const strict = t2m(['check', f['slips.jsonl'], '--json', '--strict']);
    expect(strict.status).toBe(1);
    const codes = JSON.parse(strict.stdout).filter((d: { severity: string }) => d.severity === 'error').map((d: { code: string }) => d.code);
    expect(codes).toEqual(SLIPS.map(([, , code]) => code));
  });

  it('run: runs by default, refuses under --strict and changes nothing', () => {
    const loose = t2m(['run', f['slips.jsonl'], '--now', NOW]);
    expect(loose.status).toBe(0);
    const strict = t2m(['run', f['slips.jsonl'], '--now', NOW, '--strict', '--json']);
    expect(strict.status).toBe(1);
    const out = JSON.parse(strict.stdout);
    expect(out.ok).toBe(false);
    expect(out.diagnostics.filter((d: { severity: string }) => d.severity === 'error').map((d: { code: string }) => d.code)).toEqual(SLIPS.map(([, , code]) => code));
  });

  it('bench: the sample passes by default and fails under --strict', () => {
    const loose = t2m(['bench', f['bench.jsonl'], '--json']);
    expect(JSON.parse(loose.stdout).samples).toEqual({ total: 1, passed: 1 });
    const strict = t2m(['bench', f['bench.jsonl'], '--json', '--strict']);
    expect(JSON.parse(strict.stdout).samples).toEqual({ total: 1, passed: 0 });
  });
});
