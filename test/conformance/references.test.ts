/**
 * The plain benchmark runner (`t2m bench`) resolves references across a sample's statements as
 * `t2m run` does, while each statement still runs on its own (a refused one is reported and the
 * next ones run).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSamples, runBenchmark, type Sample, type SampleOutcome } from '../../src/conformance/index.js';
import { textToIr } from '../../src/pipeline.js';

const FILE = resolve(import.meta.dirname, '../../fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl');
const spam = parseSamples(readFileSync(FILE, 'utf8')).samples.find((s) => s.id === 't2m-command-direct-single-delete-001')!;

const irs = (text: string) => {
  const r = textToIr(text);
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return r.irs;
};

describe('references through the plain benchmark runner', () => {
  it('a benchmark sample whose schema_list uses LET passes', async () => {
    const sample: Sample = { ...spam, id: `${spam.id}-let`, schema_list: irs('LET $spam = RETRIEVE WHERE tags HAS "垃圾邮件";\nDELETE IDS $spam SOFT;') };
    const outcomes: SampleOutcome[] = [];
    const report = await runBenchmark([sample], { onSample: (o) => outcomes.push(o) });
    expect(report.failures).toEqual([]);
    expect(report.assertions).toEqual({ total: 2, passed: 2 });
    expect(outcomes[0].ids).toEqual([[1], [1], [1]]);
  });

  it('prerequisites may use LET too', async () => {
    const sample: Sample = {
      ...spam,
      id: `${spam.id}-let-pre`,
      prerequisites: [...spam.prerequisites, ...irs('LET $n = ENCODE "another spam" TAGS "垃圾邮件" AT "2025-10-20T16:00:00Z";\nLOCK IDS $n MODE read_only;')],
      expected: { ...spam.expected, assertions: [{ name: 'locked_one_not_deleted', select: { from: 'memory', where: ['deleted=0', 'id = 2'] }, expect: { op: '==', value: 1 } }] },
    };
    const outcomes: SampleOutcome[] = [];
    const report = await runBenchmark([sample], { onSample: (o) => outcomes.push(o) });
    expect(outcomes[0].errors.prerequisites).toEqual([]);
    expect(report.assertions).toEqual({ total: 1, passed: 1 });
  });

  it('a refused statement is reported with its index and the ones after it still run', async () => {
    const sample: Sample = {
      ...spam,
      id: `${spam.id}-refused`,
      schema_list: [
        { stage: 'STO', op: 'Merge', target: { ids: ['1'] } },
        ...irs('DELETE WHERE tags HAS "垃圾邮件" SOFT;'),
      ],
    };
    const outcomes: SampleOutcome[] = [];
    const report = await runBenchmark([sample], { onSample: (o) => outcomes.push(o) });
    expect(outcomes[0].errors.schema_list).toHaveLength(1);
    expect(outcomes[0].errors.schema_list[0]).toMatch(/^\[0\] /);
    expect(report.assertions).toEqual({ total: 2, passed: 2 });
  });
});
