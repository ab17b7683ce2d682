/**
 * The planning benchmark end to end against a local server: replaying each sample's gold
 * schema (as DSL, and as IR JSON) scores 100%; corrupted plans (wrong op, dropped filter) score less.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIProvider } from '../../src/agents/openai.js';
import { runPlanBenchmark, sampleRequest, type PlanSample } from '../../src/agents/plan-bench.js';
import { cosineSimilarity, levenshteinSimilarity } from '../../src/agents/metrics.js';
import { runBenchmark, parseSamples, sampleOp } from '../../src/conformance/index.js';
import { irsToText } from '../../src/pipeline.js';
import type { IR } from '../../src/ir/schema.js';
import { fakeServer, requestOf, type FakeServer } from './server.js';

const FILE = resolve(import.meta.dirname, '../../fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl');

/** About 30 samples across every op whose request text is unique and whose gold schema passes `t2m bench`. */
export async function goldSubset(perOp = 3): Promise<PlanSample[]> {
  const { samples } = parseSamples(readFileSync(FILE, 'utf8')) as { samples: PlanSample[] };
  const counts = new Map<string, number>();
  for (const s of samples) counts.set(sampleRequest(s) ?? '', (counts.get(sampleRequest(s) ?? '') ?? 0) + 1);
  const byOp = new Map<string, PlanSample[]>();
  for (const s of samples) {
    if (counts.get(sampleRequest(s) ?? '') !== 1) continue;
    const list = byOp.get(sampleOp(s)) ?? [];
    if (list.length < perOp + 1) byOp.set(sampleOp(s), [...list, s]);
  }
  const candidates = [...byOp.values()].flat();
  const gold = await runBenchmark(candidates);
  const failing = new Set(gold.failures.map((f) => f.sample));
  const chosen: PlanSample[] = [];
  for (const list of byOp.values()) chosen.push(...list.filter((s) => !failing.has(s.id)).slice(0, perOp));
  return chosen;
}

let subset: PlanSample[];
let server: FakeServer;
let mode: 'dsl-gold' | 'ir-gold' | 'corrupt' = 'dsl-gold';

beforeAll(async () => {
  subset = await goldSubset();
  const byRequest = new Map(subset.map((s) => [sampleRequest(s)!, s]));
  server = await fakeServer((body) => {
    const sample = byRequest.get(requestOf(body));
    if (!sample) return { status: 404, body: '{"error":{"message":"unknown request"}}' };
    const gold = sample.schema_list as IR[];
    if (mode === 'ir-gold') return JSON.stringify({ schema_list: gold });
    if (mode === 'dsl-gold') return irsToText(gold);
    return irsToText(gold.map(corrupt));
  });
}, 120_000);
afterAll(() => server?.close());

/** A wrong op (Promote ↔ Demote, Retrieve → Summarize, Label → Retrieve…) or a dropped filter condition. */
function corrupt(ir: IR, i: number): IR {
  const swap: Record<string, [string, string]> = { Promote: ['Demote', 'STO'], Demote: ['Promote', 'STO'], Retrieve: ['Summarize', 'RET'], Summarize: ['Retrieve', 'RET'] };
  const s = swap[ir.op];
  if (s && i === 0) return { stage: s[1], op: s[0], target: ir.target } as IR;
  const filter = (ir.target as { filter?: Record<string, unknown> } | undefined)?.filter;
  if (filter && (filter.has_tags || filter.type)) {
    const { has_tags: _t, type: _y, ...rest } = filter;
    return { ...ir, target: { ...ir.target, filter: { ...rest, ...(Object.keys(rest).some((k) => k !== 'limit') ? {} : { limit: 1 }) } } } as IR;
  }
  if (ir.op === 'Encode') return { ...ir, args: { ...ir.args, tags: ['corrupted'], payload: { text: 'corrupted' } } } as IR;
  return { stage: 'RET', op: 'Retrieve', target: ir.target ?? { ids: ['1'] } } as IR;
}

describe('t2m bench --plan (library)', () => {
  it('picks a subset across every op', () => {
    expect(subset.length).toBeGreaterThanOrEqual(30);
    expect(new Set(subset.map(sampleOp)).size).toBeGreaterThanOrEqual(10); // the English file's samples span 10 ops
  });

  for (const m of ['dsl-gold', 'ir-gold'] as const) {
    it(`scores 100% replaying the gold plans (${m})`, async () => {
      mode = m;
      const provider = openAIProvider({ baseUrl: server.baseUrl, model: 'replay', stream: m === 'dsl-gold' });
      const report = await runPlanBenchmark(subset, { provider, mode: m === 'ir-gold' ? 'ir' : 'dsl' });
      const problems = report.results.filter((r) => r.problems.length).map((r) => `${r.sample}: ${r.problems.join('; ')}`);
      expect(problems).toEqual([]);
      const o = report.overall;
      expect(o.samples).toBe(subset.length);
      expect([o.sma_lev, o.sma_cos, o.sma, o.esr, o.emr]).toEqual([1, 1, 1, 1, 1]);
      expect(o.passed).toBe(subset.length);
      expect(o.attempts).toBe(1);
      for (const op of Object.values(report.by_op)) expect(op.esr).toBe(1);
      console.log(`gold replay (${m}): ${JSON.stringify({ samples: o.samples, sma: o.sma, esr: o.esr, emr: o.emr, assertions: o.assertions })}`);
    }, 120_000);
  }

  it('scores below 100% on corrupted plans', async () => {
    mode = 'corrupt';
    const provider = openAIProvider({ baseUrl: server.baseUrl, model: 'corrupt' });
    const report = await runPlanBenchmark(subset, { provider });
    const o = report.overall;
    expect(o.sma_lev).toBeLessThan(1);
    expect(o.sma_cos).toBeLessThan(1);
    expect(o.emr).toBeLessThan(1);
    expect(o.passed).toBeLessThan(subset.length);
    console.log(`corrupted: ${JSON.stringify({ samples: o.samples, sma_lev: o.sma_lev, sma_cos: o.sma_cos, esr: o.esr, emr: o.emr, passed: o.passed })}`);
  }, 120_000);
});

describe('string-match measures', () => {
  it('Levenshtein and cosine similarity', () => {
    expect(levenshteinSimilarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7);
    expect(levenshteinSimilarity('', '')).toBe(1);
    expect(cosineSimilarity('a b', 'a b')).toBeCloseTo(1);
    expect(cosineSimilarity('a', 'b')).toBe(0);
    expect(cosineSimilarity('垃圾邮件', '垃圾')).toBeGreaterThan(0.5);
  });
});
