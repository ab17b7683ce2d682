/** CI's conformance gate: the whole upstream benchmark with the gold schemas. */
import { describe, expect, it } from 'vitest';
import { runBenchmark, type BenchBackend, type Sample, type SampleOutcome } from '../../src/conformance/index.js';
import { type AnySqlDriver, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { openMemoryStore } from '../../src/dialect/sqlite/native.js';
import { benchmarkSamples } from '../ir-corpus.js';

/** Every sample's outcome (ids of every statement, each assertion's count, the ranking) from the shared-store run. */
let shared: SampleOutcome[] = [];

describe('Text2Mem benchmark v2 (gold schemas)', () => {
  it('passes at least 99% of assertions and 99% of ranking checks', async () => {
    const report = await runBenchmark(benchmarkSamples() as Sample[], { onSample: (o) => shared.push(o) });
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

  it('gives every sample the same outcome on the shared store (rolled back after each sample) as on a fresh store per sample', async () => {
    expect(shared).toHaveLength(1163);
    const fresh: SampleOutcome[] = [];
    const backend: BenchBackend = {
      open: async () => (await createStore()) as Store<AnySqlDriver>,
      release: async (store) => (store as Store).close(),
    };
    await runBenchmark(benchmarkSamples() as Sample[], { backend, onSample: (o) => fresh.push(o) });
    // Compared as text: the same ids, counts, errors and ranking, sample by sample.
    for (const [i, o] of fresh.entries()) expect(JSON.stringify(shared[i]), o.sample).toBe(JSON.stringify(o));
  }, 120_000);

  it('gives every sample the same outcome on native SQLite in memory (what `t2m bench` runs on) as on sql.js', async () => {
    expect(shared).toHaveLength(1163);
    const native: SampleOutcome[] = [];
    await runBenchmark(benchmarkSamples() as Sample[], { store: openMemoryStore(), onSample: (o) => native.push(o) });
    expect(native).toHaveLength(1163);
    for (const [i, o] of native.entries()) expect(JSON.stringify(o), o.sample).toBe(JSON.stringify(shared[i]));
  }, 120_000);
});
