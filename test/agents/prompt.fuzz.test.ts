/**
 * Fuzz of the planner's prompt builder with hostile stored values (./hostile.ts): whatever a
 * record's type, tags, subject and text hold, and whatever a refusal's message quotes, no stored
 * value starts a line that looks like a section header, a fence or a role marker, no raw control
 * or reordering character reaches the model, and every value reads back exactly from its JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { systemPrompt } from '../../src/agents/planner.js';
import { oneLineDiagnostic, repairMessage, storeSection } from '../../src/agents/prompt.js';
import { formatDiagnostics } from '../../src/diagnostics/codeFrame.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { expectNoInjectedStructure, hostileString, PROMPT_HEADERS } from './hostile.js';

const NOW = '2025-10-21T00:00:00Z';
const SEED = 28;

const term = fc.record({ value: hostileString, count: fc.integer({ min: 1, max: 999 }) });
const memory = fc.record({
  id: fc.integer({ min: 1, max: 1e6 }).map(String),
  type: fc.option(hostileString, { nil: undefined }),
  tags: fc.option(fc.array(hostileString, { maxLength: 4 }), { nil: undefined }),
  time: fc.option(hostileString, { nil: undefined }),
  text: hostileString,
});

/** The values of a `- tags: "a" (1), "b" (2)` line. */
function vocabularyValues(line: string, kind: string): string[] {
  const list = line.slice(`- ${kind}: `.length);
  return list === '(none)' ? [] : JSON.parse(`[${list.replace(/ \(\d+\)(?=, "|$)/g, '')}]`);
}

describe('fuzz: the planner prompt with hostile stored values', () => {
  it('storeSection: only its own headers; each value reads back from its JSON (2,000 runs)', () => {
    fc.assert(
      fc.property(fc.array(term, { maxLength: 5 }), fc.array(term, { maxLength: 5 }), fc.array(term, { maxLength: 5 }), fc.array(memory, { maxLength: 4 }), (tags, types, subjects, related) => {
        const section = storeSection({ tags, types, subjects, memories: 7 }, related);
        expectNoInjectedStructure(section, related.length ? ['## The store', '## Memories related to the request'] : ['## The store']);
        const lines = section.split('\n');
        for (const [kind, terms] of [['tags', tags], ['types', types], ['subjects', subjects]] as const) {
          const line = lines.find((l) => l.startsWith(`- ${kind}: `))!;
          expect(vocabularyValues(line, kind)).toEqual(terms.map((t) => t.value));
        }
        const shown = lines.filter((l) => l.startsWith('- {')).map((l) => JSON.parse(l.slice(2)));
        expect(shown).toEqual(related.map((m) => ({ id: Number(m.id), ...(m.type !== undefined ? { type: m.type } : {}), tags: m.tags ?? [], ...(m.time !== undefined ? { time: m.time } : {}), text: m.text })));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('the repair message: a hostile message, note or fix stays on its line inside the fence (2,000 runs)', () => {
    const reply = 'DELETE WHERE tags HAS "x" LIMIT 3;\nRETRIEVE LIMIT 1;';
    fc.assert(
      fc.property(fc.array(fc.record({ message: hostileString, note: hostileString, fix: hostileString, line: fc.integer({ min: 1, max: 2 }) }), { minLength: 1, maxLength: 3 }), (found) => {
        const diagnostics: Diagnostic[] = found.map((f) => ({
          code: 'record-locked', severity: 'error', message: f.message,
          range: { start: { line: f.line, column: 1, offset: 0 }, end: { line: f.line, column: 4, offset: 3 } },
          related: [{ message: f.note }], fix: { message: f.fix, edits: [] },
        }));
        const message = repairMessage('dsl', formatDiagnostics(diagnostics.map(oneLineDiagnostic), { path: 'plan.t2m', text: reply }));
        const open = message.split('\n')[2];
        expect(open).toMatch(/^`{3,}text$/);
        expectNoInjectedStructure(message, [open, open.slice(0, -'text'.length)]);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('systemPrompt on a real store holding hostile records (40 runs)', async () => {
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ text: hostileString, type: hostileString, tag: hostileString, subject: hostileString }), { minLength: 1, maxLength: 3 }), async (records) => {
        const store = await createStore();
        const r = run(store, records.map((x) => ({
          stage: 'ENC', op: 'Encode',
          args: { payload: { text: `budget ${x.text}` }, type: x.type, tags: [x.tag, 'budget'], subject: x.subject, time: '2025-10-20T10:00:00Z' },
        })), { now: NOW });
        // A value the checker refuses (e.g. too long) is not stored: nothing to show.
        if (!r.ok) return;
        stored++;
        for (const mode of ['dsl', 'ir'] as const) {
          expectNoInjectedStructure(systemPrompt('budget', { store, now: NOW, card: 'CARD', mode }), PROMPT_HEADERS);
        }
      }),
      { seed: SEED, numRuns: 40 },
    );
    expect(stored).toBeGreaterThan(20);
  });
});
