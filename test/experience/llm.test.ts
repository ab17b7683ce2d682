/** The LLM selector through the OpenAI-compatible client, against a local server on 127.0.0.1 (test/agents/server.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { llmSelector, llmTurnScorer, runWithSelector } from '../../src/agents/selector.js';
import { openAIProvider } from '../../src/agents/openai.js';
import { auditLog, type Store } from '../../src/engine/index.js';
import { textToIr } from '../../src/pipeline.js';
import { freshStore, NOW, rows } from '../engine/harness.js';
import { fakeServer, type FakeServer } from '../agents/server.js';

const SEED = [
  'LET $a = ENCODE "request: monthly revenue by region from sales" LEVEL episode;',
  'LET $b = ENCODE "request: revenue by region per month" LEVEL episode;',
  'ENCODE "state: error no such column region; action: join regions" LEVEL turn OF $b;',
  'ENCODE "state: error no such column amt; action: inspect schema" LEVEL turn OF $a;',
].join('\n');

let server: FakeServer | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

async function seeded(): Promise<Store> {
  const store = await freshStore();
  const { irs } = textToIr(SEED);
  await runWithSelector(store, irs, { now: NOW, selector: async () => ({ ids: [] }) });
  return store;
}

describe('llmSelector + runWithSelector', () => {
  it('asks the model once per two-stage retrieval, in order, and runs the script once with its choices', async () => {
    server = await fakeServer((body) => {
      const situation = JSON.parse(body.messages[1].content);
      // The model prefers the least similar candidate, so its choice is visible.
      const last = situation.candidates[situation.candidates.length - 1];
      return JSON.stringify({ ids: [last.id], why: `${situation.level}: ${last.id} fits` });
    });
    const store = await seeded();
    const selector = llmSelector(openAIProvider({ baseUrl: server.baseUrl, model: 'selector-test' }));
    const script = 'LET $ep = RETRIEVE WHERE search "revenue by region per month" LEVEL episode;\nPROMOTE IDS $ep REWARD 1;\nRETRIEVE WHERE search CONTEXT "no such column amt" LEVEL turn EXPAND episode;';
    const { irs, sourceMaps } = textToIr(script);
    const r = await runWithSelector(store, irs, { now: NOW, sourceMaps, selector });
    expect(r.ok).toBe(true);
    expect(server.requests.length).toBe(2);
    expect(server.requests[0].response_format).toEqual({ type: 'json_object' });
    const first = JSON.parse(server.requests[0].messages[1].content);
    expect(first.request).toBe('revenue by region per month');
    expect(first.candidates.map((c: { id: number }) => c.id)).toEqual([2, 1]);
    expect(JSON.parse(server.requests[1].messages[1].content).state).toBe('no such column amt');
    expect(r.results[0].experience!.selected).toEqual([1]);
    expect(r.results[0].experience!.why).toEqual({ 1: 'model: episode: 1 fits' });
    // The reward went to the model's choice, once: the script ran for real exactly once.
    expect(rows(store).find((x) => x.id === 1)!.utility_n).toBe(1);
    expect(auditLog(store).filter((e) => e.op === 'Promote').length).toBe(1);
  });

  it('an unusable answer falls back to the default selector with a selector-fallback warning', async () => {
    server = await fakeServer(() => 'I think #2 is best');
    const store = await seeded();
    const selector = llmSelector(openAIProvider({ baseUrl: server.baseUrl, model: 'selector-test' }));
    const { irs } = textToIr('RETRIEVE WHERE search "revenue by region per month" LEVEL episode;');
    const r = await runWithSelector(store, irs, { now: NOW, selector });
    expect(r.ok).toBe(true);
    expect(r.results[0].experience!.selected).toEqual([2]);
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([['selector-fallback', 'warning']]);
  });

  it('a server error falls back too, and a model naming no candidate is not obeyed', async () => {
    server = await fakeServer((_b, i) => (i === 0 ? { status: 500, body: '{"error":{"message":"boom"}}' } : JSON.stringify({ ids: [99] })));
    const store = await seeded();
    const selector = llmSelector(openAIProvider({ baseUrl: server.baseUrl, model: 'selector-test' }));
    const { irs } = textToIr('RETRIEVE WHERE search "revenue by region per month" LEVEL episode;\nRETRIEVE WHERE search "monthly revenue" LEVEL episode;');
    const r = await runWithSelector(store, irs, { now: NOW, selector });
    expect(r.ok).toBe(true);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['selector-fallback', 'selector-fallback']);
    expect(r.results.map((x) => x.experience!.selector)).toEqual(['caller', 'caller']);
  });
});

describe('llmTurnScorer (a rubric process reward model over the OpenAI-compatible client)', () => {
  it('scores a turn from the model\'s rubric answer, and falls back to the status reward on an unusable one', async () => {
    server = await fakeServer((body, i) => {
      const asked = JSON.parse(body.messages[1].content);
      return i === 0 ? JSON.stringify({ score: asked.status === 'ok' ? 0.8 : 0.1, why: 'fits' }) : 'no idea';
    });
    const scorer = llmTurnScorer(openAIProvider({ baseUrl: server.baseUrl, model: 'prm-test' }));
    const input = { state: 'error: no such column town', memory: { replace: 'town', with: 'city' }, status: 'ok' as const, observation: '1 row' };
    expect(await scorer(input)).toEqual({ score: 0.8, warnings: [] });
    const fallback = await scorer({ ...input, status: 'error' });
    expect(fallback.score).toBe(0);
    expect(fallback.warnings.map((d) => d.code)).toEqual(['selector-fallback']);
    expect(server.requests[0].response_format).toEqual({ type: 'json_object' });
    expect(JSON.parse(server.requests[0].messages[1].content)).toMatchObject({ state: 'error: no such column town', status: 'ok' });
  });
});
