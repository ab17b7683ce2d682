import { afterEach, describe, expect, it } from 'vitest';
import { openAIProvider, parseCompletion } from '../../src/agents/openai.js';
import { plan, planJsonSchema } from '../../src/agents/planner.js';
import { extractScript, storeSection } from '../../src/agents/prompt.js';
import { storeVocabulary } from '../../src/agents/context.js';
import { GBNF } from '../../src/agents/gbnf.js';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { fakeServer, type FakeServer } from './server.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const NOW = '2025-10-21T00:00:00Z';
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function seeded() {
  const store = await createStore();
  const r = run(store, [
    { stage: 'ENC', op: 'Encode', args: { payload: { text: 'SEV-1 network incident timeline' }, type: 'incident', tags: ['incident', 'network'], subject: 'outage', time: '2025-10-20T10:00:00Z' } },
    { stage: 'ENC', op: 'Encode', args: { payload: { text: 'Q3 OKR review notes' }, type: 'note', tags: ['OKR'], time: '2025-10-19T10:00:00Z' } },
  ], { now: NOW });
  expect(r.ok, JSON.stringify(r.diagnostics)).toBe(true);
  const bob = run(store, [
    { stage: 'ENC', op: 'Encode', args: { payload: { text: 'private diary' }, type: 'secret', tags: ['hidden-tag'], time: '2025-10-19T10:00:00Z', read_perm_level: 'private' } },
  ], { now: NOW, actor: 'bob' });
  expect(bob.ok, JSON.stringify(bob.diagnostics)).toBe(true);
  return store;
}

const DRAFT = 'LOCK WHERE tags HAS "incident" LIMIT 10 MODE readonly REASON "audit";';
const FIXED = 'LOCK WHERE tags HAS "incident" LIMIT 10 MODE read_only REASON "audit";';

describe('plan (check → repair)', () => {
  for (const stream of [false, true]) {
    it(`repairs a misspelt enum in a second round (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      server = await fakeServer((_, i) => (i === 0 ? DRAFT : FIXED));
      const store = await seeded();
      const provider = openAIProvider({ baseUrl: server.baseUrl, model: 'test-model', apiKey: 'sk-test', stream });
      const r = await plan('Lock the incident records for the audit', { provider, store, now: NOW });
      expect(r.ok, JSON.stringify(r.diagnostics)).toBe(true);
      expect(r.attempts).toBe(2);
      expect(r.dsl).toBe(FIXED);
      expect(r.irs[0]).toMatchObject({ op: 'Lock', args: { mode: 'read_only' } });
      // The repair message carries the diagnostic with its code frame and fix.
      const repair = server.requests[1].messages.at(-1);
      expect(repair.role).toBe('user');
      expect(repair.content).toContain("invalid-enum 'readonly' is not a valid MODE");
      expect(repair.content).toContain('^^^^^^^^');
      expect(repair.content).toContain("did you mean 'read_only'");
      expect(server.requests[1].messages.at(-2)).toEqual({ role: 'assistant', content: DRAFT });
      expect(server.requests.every((b) => b.stream === stream && b.model === 'test-model')).toBe(true);
      expect(server.headers[0].authorization).toBe('Bearer sk-test');
      // The dry run names the ids it would touch; nothing was written.
      expect(r.dryRun?.results[0].ids).toEqual([1]);
      expect(store.query('SELECT lock_mode FROM memory WHERE id = 1')[0].lock_mode).toBeNull();
    });
  }

  it('repairs a missing CONFIRM, and runs the plan when asked', async () => {
    server = await fakeServer((_, i) => (i === 0 ? 'DELETE ALL SOFT;' : '```t2m\nDELETE ALL SOFT CONFIRM;\n```'));
    const store = await seeded();
    const r = await plan('forget everything', { provider: openAIProvider({ baseUrl: server.baseUrl, model: 'm' }), store, now: NOW, execute: true });
    expect(r.ok).toBe(true);
    expect(r.attempts).toBe(2);
    expect(server.requests[1].messages.at(-1).content).toContain('all-requires-confirmation');
    expect(r.run?.ok).toBe(true);
    expect(r.dryRun?.results[0].ids.length).toBeGreaterThan(1);
    expect(store.query('SELECT COUNT(*) AS n FROM memory WHERE deleted = 1')[0].n).toBe(r.dryRun?.results[0].ids.length);
  });

  it('gives up after --max-rounds with plan-unrepaired', async () => {
    server = await fakeServer(() => DRAFT);
    const r = await plan('lock', { provider: openAIProvider({ baseUrl: server.baseUrl, model: 'm' }), maxRounds: 2 });
    expect(r.ok).toBe(false);
    expect(r.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['invalid-enum', 'plan-unrepaired']);
  });

  it('puts the store vocabulary (readable records only) and related memories into the system prompt', async () => {
    server = await fakeServer(() => 'RETRIEVE WHERE tags HAS "OKR" LIMIT 5;');
    const store = await seeded();
    const r = await plan('what about the network incident?', { provider: openAIProvider({ baseUrl: server.baseUrl, model: 'm' }), store, now: NOW, card: 'CARD-TEXT' });
    expect(r.ok).toBe(true);
    const system = server.requests[0].messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('CARD-TEXT');
    expect(system.content).toMatch(/- tags: .*"incident" \(1\)/);
    expect(system.content).toContain('"outage" (1)');
    expect(system.content).not.toContain('hidden-tag');
    expect(system.content).toContain('SEV-1 network incident timeline');
    expect(server.requests[0].messages[1]).toEqual({ role: 'user', content: 'what about the network incident?' });
    expect(storeVocabulary(store, { actor: 'bob', now: NOW }).tags.map((t) => t.value)).toContain('hidden-tag');
  });

  it('shows the model the run\'s clock, the one the dry run and the run use; without one, this moment', async () => {
    // "Today" can only be written as a range by a model that knows the date.
    server = await fakeServer(() => 'RETRIEVE WHERE time FROM 2025-10-20T00:00:00Z TO 2025-10-20T23:59:59Z INCLUDE id, text;');
    const store = await seeded();
    const r = await plan('what happened yesterday?', { provider: openAIProvider({ baseUrl: server.baseUrl, model: 'm' }), store, now: NOW, card: 'CARD-TEXT', execute: true });
    expect(r.ok).toBe(true);
    expect(server.requests[0].messages[0].content).toContain(`## Now\n\nThe run's clock: ${NOW} (UTC).`);
    expect(r.run?.results[0]).toMatchObject({ rows: [expect.objectContaining({ text: 'SEV-1 network incident timeline' })] });
    const before = Date.now();
    await plan('anything', { provider: openAIProvider({ baseUrl: server.baseUrl, model: 'm' }), card: 'CARD-TEXT' });
    const shown = /The run's clock: (\S+) \(UTC\)/.exec(server.requests[1].messages[0].content)?.[1];
    expect(Math.abs(Date.parse(shown!) - before)).toBeLessThan(60_000);
  });

  it('counts the store\'s live memories in words that agree with the number', () => {
    const empty = { tags: [], types: [], subjects: [] };
    expect(storeSection({ ...empty, memories: 1 }, [])).toContain('1 live memory.');
    expect(storeSection({ ...empty, memories: 3 }, [])).toContain('3 live memories.');
  });

  it('IR mode sends response_format json_schema and reads {schema_list}', async () => {
    const ir = { stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['OKR'], limit: 5 } } };
    server = await fakeServer(() => JSON.stringify({ schema_list: [ir] }));
    const r = await plan('find OKR notes', { provider: openAIProvider({ baseUrl: server.baseUrl, model: 'm' }), mode: 'ir' });
    expect(r.ok).toBe(true);
    expect(r.irs).toEqual([ir]);
    expect(r.dsl).toBe('RETRIEVE WHERE tags HAS "OKR" LIMIT 5;\n');
    const format = server.requests[0].response_format;
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.schema).toEqual(planJsonSchema());
    expect(format.json_schema.schema.properties.schema_list.items.oneOf).toHaveLength(12);
    expect(server.requests[0].grammar).toBeUndefined();
  });

  it('IR mode repairs JSON with a bad enum', async () => {
    const bad = { stage: 'STO', op: 'Lock', target: { ids: ['1'] }, args: { mode: 'readonly' } };
    server = await fakeServer((_, i) => JSON.stringify({ schema_list: [i ? { ...bad, args: { mode: 'read_only' } } : bad] }));
    const r = await plan('lock 1', { provider: openAIProvider({ baseUrl: server.baseUrl, model: 'm' }), mode: 'ir' });
    expect(r.attempts).toBe(2);
    expect(r.ok).toBe(true);
    expect(server.requests[1].messages.at(-1).content).toContain('plan.json:');
  });

  it('DSL mode sends the GBNF in the grammar field when asked', async () => {
    server = await fakeServer(() => 'RETRIEVE WHERE tags HAS "OKR" LIMIT 5;');
    await plan('okr', { provider: openAIProvider({ baseUrl: server.baseUrl, model: 'm' }), grammar: GBNF });
    await plan('okr', { provider: openAIProvider({ baseUrl: server.baseUrl, model: 'm' }) });
    expect(server.requests[0].grammar).toBe(GBNF);
    expect(server.requests[0].response_format).toBeUndefined();
    expect(server.requests[1].grammar).toBeUndefined();
  });

  it('GBNF is the generated grammar (npx tsx scripts/gen-grammar.ts)', () => {
    expect(GBNF).toBe(readFileSync(resolve(import.meta.dirname, '../../grammar/generated/grammar.gbnf'), 'utf8'));
  });
});

describe('the OpenAI-compatible client', () => {
  it('reports an HTTP 500 as llm-http-error with the server message', async () => {
    server = await fakeServer(() => ({ status: 500, body: '{"error":{"message":"model exploded"}}' }));
    const r = await plan('x', { provider: openAIProvider({ baseUrl: server.baseUrl, model: 'm' }) });
    expect(r.ok).toBe(false);
    expect(r.attempts).toBe(1);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0].code).toBe('llm-http-error');
    expect(r.diagnostics[0].message).toMatch(/HTTP 500.*model exploded/);
  });

  it('reports a garbage body as llm-bad-response', async () => {
    server = await fakeServer(() => ({ raw: '<html>gateway</html>' }));
    const r = await plan('x', { provider: openAIProvider({ baseUrl: server.baseUrl, model: 'm' }) });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['llm-bad-response']);
    for (const stream of [false, true]) {
      const p = openAIProvider({ baseUrl: server.baseUrl, model: 'm', stream });
      const s = await p.complete([{ role: 'user', content: 'x' }]);
      expect(s.ok).toBe(false);
    }
    expect(parseCompletion('{"choices":[]}').ok).toBe(false);
    expect(parseCompletion('{"choices":[{"message":{"content":"hi"}}]}')).toEqual({ ok: true, text: 'hi' });
  });

  it('reports a broken event stream and a mid-stream error', async () => {
    server = await fakeServer((_, i) => ({ raw: i ? 'data: {"error":{"message":"overloaded"}}\n\n' : 'data: {not json\n\ndata: [DONE]\n\n', contentType: 'text/event-stream' }));
    const p = openAIProvider({ baseUrl: server.baseUrl, model: 'm', stream: true });
    const a = await p.complete([{ role: 'user', content: 'x' }]);
    expect(!a.ok && a.diagnostics[0].code).toBe('llm-bad-response');
    const b = await p.complete([{ role: 'user', content: 'x' }]);
    expect(!b.ok && b.diagnostics[0].message).toContain('overloaded');
  });

  it('reports a timeout and an unreachable server', async () => {
    const { createServer } = await import('node:http');
    const hang = createServer(() => undefined);
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    const port = (hang.address() as { port: number }).port;
    const t = await openAIProvider({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', timeoutMs: 200 }).complete([{ role: 'user', content: 'x' }]);
    expect(!t.ok && t.diagnostics[0].code).toBe('llm-timeout');
    hang.closeAllConnections();
    await new Promise((r) => hang.close(r));
    const u = await openAIProvider({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }).complete([{ role: 'user', content: 'x' }]);
    expect(!u.ok && u.diagnostics[0].code).toBe('llm-unreachable');
  });

  it('extracts a fenced script', () => {
    expect(extractScript('Here:\n```t2m\nRETRIEVE ALL CONFIRM;\n```\nDone.', 'dsl')).toBe('RETRIEVE ALL CONFIRM;');
    expect(extractScript('Sure: {"schema_list": []}', 'ir')).toBe('{"schema_list": []}');
  });
});
