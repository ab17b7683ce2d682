/**
 * The language card (src/agents/card.ts): generated from src/language's tables, so it names every
 * verb, keyword and enum value; small enough for a system prompt; its snapshots (spec/card.md,
 * spec/card-ir.md) and spec/syntax.md's "Meanings, answered" are current; and every DSL example
 * on it parses, checks clean, converts to the IR the card shows and runs on a store.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CARD_EXAMPLES, CARD_MAX_CHARS, EXAMPLE_SEED, languageCard, SPEC_END, SPEC_START, syntaxSection,
} from '../../src/agents/card.js';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { ENUMS, KEYWORDS, OPS, VERB_NAMES } from '../../src/language/index.js';
import { textToIr } from '../../src/pipeline.js';

const NOW = '2025-04-20T12:00:00Z';
const spec = (name: string) => readFileSync(new URL(`../../spec/${name}`, import.meta.url), 'utf8');
const dsl = languageCard();
const ir = languageCard({ ir: true });

describe('language card', () => {
  it(`stays under ${CARD_MAX_CHARS} characters`, () => {
    expect(dsl.length).toBeLessThanOrEqual(CARD_MAX_CHARS);
    expect(ir.length).toBeLessThanOrEqual(CARD_MAX_CHARS);
  });

  it('names every verb and every keyword (DSL), every op (IR)', () => {
    for (const v of VERB_NAMES) expect(dsl).toContain(`**${v}**`);
    for (const k of KEYWORDS) expect(dsl, k).toMatch(new RegExp(`\\b${k}\\b`));
    for (const op of OPS) expect(ir).toContain(`**${op}**`);
  });

  it('lists every enum value with its doc, and its default', () => {
    for (const [name, e] of Object.entries(ENUMS)) {
      for (const card of [dsl, ir]) {
        const line = card.split('\n').find((l) => l.startsWith(`- ${name} (`));
        expect(line, name).toBeDefined();
        for (const v of e.values) expect(line, `${name}.${v}`).toContain(`\`${v}\``);
        if (e.default) expect(line).toContain(`default ${e.default}`);
      }
    }
  });

  it('is the snapshot in spec/card.md and spec/card-ir.md (npx tsx scripts/gen-card.ts)', () => {
    expect(spec('card.md')).toBe(dsl);
    expect(spec('card-ir.md')).toBe(ir);
  });

  it("spec/syntax.md carries the card's meanings and enum table (npx tsx scripts/gen-card.ts)", () => {
    const text = spec('syntax.md');
    const at = text.indexOf(SPEC_START);
    const end = text.indexOf(SPEC_END);
    expect(at).toBeGreaterThan(0);
    expect(text.slice(at + SPEC_START.length, end)).toBe(`\n${syntaxSection()}\n`);
  });

  it('shows every worked example, DSL on the DSL card and IR on the IR card', () => {
    for (const e of CARD_EXAMPLES) {
      expect(dsl).toContain(e.dsl);
      expect(ir).toContain(JSON.stringify(e.ir));
    }
    expect(CARD_EXAMPLES.length).toBeGreaterThanOrEqual(6);
    expect(CARD_EXAMPLES.length).toBeLessThanOrEqual(10);
  });

  it('seeds a store with three memories', async () => {
    const seed = textToIr(EXAMPLE_SEED);
    expect(seed.diagnostics).toEqual([]);
    const result = run(await createStore(), seed.irs, { now: NOW });
    expect(result.ok).toBe(true);
    expect(result.results.map((r) => r.ids)).toEqual([[1], [2], [3]]);
  });

  for (const e of CARD_EXAMPLES) {
    it(`example "${e.request}" checks clean, is the IR shown, and runs`, async () => {
      const front = textToIr(e.dsl);
      expect(front.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
      expect(front.irs).toEqual([e.ir]);
      const store = await createStore();
      const seeded = run(store, textToIr(EXAMPLE_SEED).irs, { now: NOW });
      expect(seeded.ok).toBe(true);
      const result = run(store, front.irs, { now: NOW });
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.diagnostics.filter((d) => d.code === 'no-match')).toEqual([]);
    });
  }
});

/** Each line of the card's request → verb guide, as statements that must check clean and run. */
const GUIDE: ReadonlyArray<readonly [string, string]> = [
  ['remember', 'ENCODE "Call Bob" TYPE task TAGS "todo" TIME 2025-04-10T15:30:00+08:00;'],
  ['change', 'UPDATE ID "3" SET text = "Pay the rent today", status = "done";'],
  ['tag', 'LABEL IDS "1", "2" TAGS "project:x"; LABEL ID "3" FACETS { related_to: "1" };'],
  ['important', 'PROMOTE ID "1" SET weight 0.9; PROMOTE ID "1" BY 0.1; DEMOTE ID "2" BY -0.2; DEMOTE ID "2" ARCHIVE;'],
  ['remind', 'PROMOTE ID "3" REMIND "FREQ=WEEKLY;BYDAY=MO" UNTIL 2025-12-31T00:00:00Z;'],
  ['combine', 'MERGE IDS "1", "2" INTO "2"; SPLIT ID "3" STRATEGY by_sentences;'],
  ['protect', 'LOCK ID "1" MODE read_only; LOCK ID "2" POLICY { deny: [Delete] };'],
  ['forget later', 'EXPIRE ID "3" TTL P7D THEN soft_delete; DELETE ID "1" SOFT;'],
  ['a changing fact', 'ENCODE "2026-07-15" SUBJECT mira ATTRIBUTE deadline VALID FROM 2025-10-01T00:00:00Z; ENCODE "2026-06-30" SUBJECT mira ATTRIBUTE deadline VALID FROM 2025-10-10T00:00:00Z; RETRIEVE WHERE subject = mira AND attribute = deadline AS OF 2025-10-05T00:00:00Z;'],
  ['act on what an earlier statement made', 'LET $n = ENCODE "Deploy checklist" TAGS "standup"; EXPIRE ID $n TTL P7D; LET $p = SPLIT ID "1" STRATEGY by_sentences; LABEL IDS $p TAGS "piece";'],
  ['find', 'RETRIEVE WHERE search "rent" LIMIT 5; RETRIEVE WHERE tags HAS "todo" LIMIT 5; SUMMARIZE WHERE tags HAS "standup" LIMIT 5;'],
  ['bulk change', 'DEMOTE WHERE tags HAS "standup" LIMIT 10 BY -0.1; DELETE ALL SOFT DRY RUN; DELETE ALL SOFT CONFIRM;'],
];

async function seeded() {
  const store = await createStore();
  expect(run(store, textToIr(EXAMPLE_SEED).irs, { now: NOW }).ok).toBe(true);
  return store;
}

function runText(store: Awaited<ReturnType<typeof createStore>>, text: string) {
  const front = textToIr(text);
  expect(front.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
  const result = run(store, front.irs, { now: NOW });
  expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual([]);
  expect(result.ok).toBe(true);
  return result;
}

describe('language card: the request → verb guide works as written', () => {
  it('has one tested entry per guide line', () => {
    const section = dsl.slice(dsl.indexOf('## Request → verb'), dsl.indexOf('## Worked examples'));
    const lines = section.split('\n').filter((l) => l.startsWith('- '));
    expect(lines.map((l, i) => l.startsWith(`- ${GUIDE[i]?.[0]}`))).toEqual(lines.map(() => true));
    expect(lines.length).toBe(GUIDE.length);
  });
  for (const [intent, text] of GUIDE) {
    it(intent, async () => {
      runText(await seeded(), text);
    });
  }
});

describe('language card: the meanings answered are what the engine does', () => {
  it('tags HAS "a", "b" needs all of them', async () => {
    const r = runText(await seeded(), 'RETRIEVE WHERE tags HAS "standup", "api" LIMIT 10;');
    expect(r.results[0].ids).toEqual([1]);
  });
  it('ID 1, ID "1" and ID "001" are the same record', async () => {
    const store = await seeded();
    for (const id of ['1', '"1"', '"001"']) expect(runText(store, `RETRIEVE ID ${id};`).results[0].ids).toEqual([1]);
  });
  it('SUMMARIZE stores nothing', async () => {
    const store = await seeded();
    const before = runText(store, 'RETRIEVE ALL CONFIRM;').results[0].rows;
    const s = runText(store, 'SUMMARIZE WHERE tags HAS "standup" LIMIT 5 FOCUS "deploy";');
    expect(s.results[0].summary).toBeTruthy();
    expect(runText(store, 'RETRIEVE ALL CONFIRM;').results[0].rows).toEqual(before);
  });
  it('INTO auto is the lowest id of IDS, the newest of a filter', async () => {
    let store = await seeded();
    runText(store, 'MERGE IDS "2", "1" INTO auto;');
    expect(runText(store, 'RETRIEVE ALL CONFIRM;').results[0].ids).toEqual([3, 1]);
    store = await seeded();
    runText(store, 'MERGE WHERE tags HAS "standup" LIMIT 5 INTO auto;');
    expect(runText(store, 'RETRIEVE ALL CONFIRM;').results[0].ids).toEqual([3, 2]);
  });
  it('LAST 1 MONTHS is a rolling window from one calendar month before now to the end of today', async () => {
    const store = await createStore();
    runText(store, 'ENCODE "in" TIME 2025-03-20T12:00:00Z; ENCODE "out" TIME 2025-03-20T11:59:59Z; ENCODE "today" TIME 2025-04-20T23:00:00Z;');
    expect(runText(store, 'RETRIEVE WHERE time IN LAST 1 MONTHS LIMIT 10;').results[0].ids).toEqual([3, 1]);
  });
  it('SPLIT reads only the params entry its strategy names; other keys pass', async () => {
    const r = runText(await seeded(), 'SPLIT ID "1" STRATEGY by_sentences SET params = { by_sentences: { max_sentences: 1, x: 1 }, by_chunks: { num_chunks: 9 } };');
    expect(r.results[0].ids).toHaveLength(3);
  });
  it('a write LIMIT over a filter takes the newest', async () => {
    const store = await seeded();
    expect(runText(store, 'DELETE WHERE tags HAS "standup" LIMIT 1 SOFT;').results[0].ids).toEqual([2]);
  });
  it('an invented field is a facet: UPDATE SET status, WHERE facets = { status }', async () => {
    const store = await seeded();
    runText(store, 'UPDATE ID "3" SET status = "done";');
    expect(runText(store, 'RETRIEVE WHERE facets = { status: "done" } LIMIT 5;').results[0].ids).toEqual([3]);
  });
});
