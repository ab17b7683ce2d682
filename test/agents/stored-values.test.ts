/**
 * Stored values reach the planner's prompt as data (src/agents/prompt.ts): a record whose type,
 * tags, subject or text holds a Markdown heading, a code fence, line breaks of every kind,
 * terminal escapes, a bidirectional override or an instruction cannot add a section to the
 * system prompt or to a repair message, nor end a block early. Each value is one JSON string, and
 * reading it back gives the stored value exactly.
 */
import { describe, expect, it } from 'vitest';
import { plan, systemPrompt } from '../../src/agents/planner.js';
import { fenceFor, quoteData, repairMessage, storeSection } from '../../src/agents/prompt.js';
import { selectorMessages } from '../../src/agents/selector.js';
import type { ChatMessage, ChatProvider } from '../../src/agents/provider.js';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { expectNoInjectedStructure, HOSTILE, PROMPT_HEADERS, RAW_BUT_LF } from './hostile.js';

const NOW = '2025-10-21T00:00:00Z';


async function hostileStore() {
  const store = await createStore();
  const irs = HOSTILE.map((h, i) => ({
    stage: 'ENC', op: 'Encode',
    args: { payload: { text: `budget review ${i}: ${h}` }, type: h, tags: [h, 'budget'], subject: h, facets: { note: h }, time: '2025-10-20T10:00:00Z' },
  }));
  const r = run(store, [...irs, { stage: 'STO', op: 'Lock', target: { ids: ['1'] }, args: { mode: 'read_only', reason: HOSTILE[0] } }], { now: NOW });
  expect(r.ok, JSON.stringify(r.diagnostics)).toBe(true);
  return store;
}

describe('stored values in the planner prompt', () => {
  it('quoteData is one JSON line that reads back as the value', () => {
    for (const h of HOSTILE) {
      const q = quoteData(h);
      expect(q).not.toMatch(RAW_BUT_LF);
      expect(q).not.toContain('\n');
      expect(JSON.parse(q)).toBe(h);
    }
    expect(JSON.parse(quoteData({ tags: HOSTILE }))).toEqual({ tags: HOSTILE });
  });

  it('the system prompt has only its own sections, and every stored value reads back from its JSON', async () => {
    const store = await hostileStore();
    const prompt = systemPrompt('budget review', { store, now: NOW, card: 'CARD', related: HOSTILE.length });
    expectNoInjectedStructure(prompt, PROMPT_HEADERS);
    // The related memories: one JSON object a line, the stored values exact.
    const related = prompt.split('\n').filter((l) => l.startsWith('- {')).map((l) => JSON.parse(l.slice(2)));
    expect(related.length).toBe(HOSTILE.length);
    for (const m of related) {
      const i = Number(/budget review (\d+)/.exec(m.text)![1]);
      expect(m).toMatchObject({ type: HOSTILE[i], tags: [HOSTILE[i], 'budget'], text: `budget review ${i}: ${HOSTILE[i]}` });
    }
    // The vocabulary: each value a JSON string with its count.
    for (const kind of ['tags', 'types', 'subjects']) {
      const line = prompt.split('\n').find((l) => l.startsWith(`- ${kind}: `))!;
      const values = JSON.parse(`[${line.slice(`- ${kind}: `.length).replace(/ \(\d+\)(?=, "|$)/g, '')}]`);
      for (const h of HOSTILE) expect(values, kind).toContain(h);
    }
  });

  it('IR mode too', async () => {
    const store = await hostileStore();
    expectNoInjectedStructure(systemPrompt('budget review', { store, now: NOW, card: 'CARD', mode: 'ir' }), PROMPT_HEADERS);
  });

  it('a lock reason in a refusal stays on one line of the repair message, inside a fence it cannot close', async () => {
    const store = await hostileStore();
    const seen: ChatMessage[][] = [];
    const provider: ChatProvider = {
      async complete(messages) {
        seen.push([...messages]);
        return { ok: true, text: seen.length === 1 ? 'DELETE WHERE tags HAS "budget" LIMIT 20;' : 'RETRIEVE WHERE tags HAS "budget" LIMIT 1;' };
      },
    };
    const r = await plan('forget the budget reviews', { provider, store, now: NOW });
    expect(r.attempts).toBe(2);
    const repair = seen[1].at(-1)!;
    expect(repair.role).toBe('user');
    expect(repair.content).toContain('record-locked');
    expect(repair.content).toContain(JSON.stringify(HOSTILE[0]).slice(1, -1));
    // The report is fenced; the only structure is that fence, opened and closed once.
    const open = repair.content.split('\n')[2];
    expect(open).toMatch(/^`{3,}text$/);
    expectNoInjectedStructure(repair.content, [open, open.slice(0, -'text'.length)]);
  });

  it('a report holding fences is wrapped in a longer one', () => {
    const report = 'plan.t2m:1:1: error x ````` and ```';
    const message = repairMessage('dsl', report);
    const lines = message.split('\n');
    expect(lines[2]).toBe('``````text');
    expect(lines[4]).toBe('``````');
    expect(fenceFor('no backticks')).toBe('```');
  });

  it('storeSection with no store values says (none)', () => {
    const section = storeSection({ tags: [], types: [], subjects: [], memories: 0 }, []);
    expect(section).toContain('- tags: (none)');
    expectNoInjectedStructure(section, ['## The store']);
  });
});

describe('the LLM selector', () => {
  it('sends stored texts as data: one JSON line, every control and reordering character escaped, read back exactly', () => {
    const candidates = HOSTILE.map((text, i) => ({ id: i + 1, text, level: 'episode' as const, episodeId: null, similarity: 0.5, utility: null, utilityN: 0 }));
    const [, user] = selectorMessages({ level: 'episode', query: HOSTILE[0], candidates, pick: 2 }, 10_000);
    expect(user.content).not.toMatch(RAW_BUT_LF);
    expect(user.content).not.toContain('\n');
    const back = JSON.parse(user.content) as { candidates: { text: string }[] };
    expect(back.candidates.map((c) => c.text)).toEqual(HOSTILE);
  });
});
