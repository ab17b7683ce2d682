/** CI's conformance gate: the whole upstream benchmark with the gold schemas. */
import { describe, expect, it } from 'vitest';
import { runBenchmark, type Sample } from '../../src/conformance/index.js';
import { benchmarkSamples } from '../ir-corpus.js';

describe('Text2Mem benchmark v2 (gold schemas)', () => {
  it('passes at least 99% of assertions and 99% of ranking checks', async () => {
    const report = await runBenchmark(benchmarkSamples() as Sample[]);
    expect(report.samples.total).toBe(1163);
    expect(report.assertions.total).toBe(1862);
    expect(report.ranking.total).toBe(153);
    const failures = report.failures.map((f) => `${f.sample} ${f.kind} ${f.name}`);
    expect(report.assertions.passed / report.assertions.total, failures.join('\n')).toBeGreaterThanOrEqual(0.99);
    expect(report.ranking.passed / report.ranking.total, failures.join('\n')).toBeGreaterThanOrEqual(0.99);
    // The known failures are analysed in spec/semantics.md ("Benchmark"); a new one must be looked at.
    expect(failures.sort()).toEqual([
      't2m-en-direct-single-update-004 assertion field_updated_text',
      't2m-en-direct-single-update-004 assertion tags_updated_json',
      't2m-en-direct-single-update-017 assertion field_updated_text',
      't2m-en-direct-single-update-060 assertion field_updated_text',
      't2m-en-direct-workflow-label-002 assertion tags_added_json',
      't2m-en-direct-workflow-retrieve-018 error schema_list',
    ]);
  }, 120_000);
});
