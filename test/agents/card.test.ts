/**
 * The language card (src/agents/card.ts): generated from src/language's tables, so it names every
 * verb, keyword and enum value; small enough for a system prompt; its snapshots (spec/card.md,
 * spec/card-ir.md) and spec/syntax.md's "Meanings, answered" are current; and every DSL example
 * on it parses, checks clean, converts to the IR the card shows and runs on a store.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CARD_EXAMPLES, CARD_MAX_CHARS, EXAMPLE_SEED, GUIDE, languageCard, SPEC_END, SPEC_START, syntaxSection,
} from '../../src/agents/card.js';
import { ARCHIVE_WEIGHT, BASE_WEIGHT, DEFAULT_MAX_TOKENS } from '../../src/lower/defaults.js';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { ENUMS, GOVERNED_COLUMNS, KEYWORDS, OPS, TYPE_SUGGESTIONS, UPDATE_COLUMNS, VERB_NAMES } from '../../src/language/index.js';
import { textToIr } from '../../src/pipeline.js';

const NOW = '2025-04-20T12:00:00Z';
const spec = (name: string) => readFileSync(new URL(`../../spec/${name}`, import.meta.url), 'utf8');
const dsl = languageCard();
const ir = languageCard({ ir: true });

describe('language card', () => {
  it(`stays under ${CARD_MAX_CHARS} characters, also with a store's types`, () => {
    expect(dsl.length).toBeLessThanOrEqual(CARD_MAX_CHARS);
    expect(ir.length).toBeLessThanOrEqual(CARD_MAX_CHARS);
    const types = ['knowledge', 'meeting', 'task'];
    for (const card of [languageCard({ types }), languageCard({ ir: true, types })]) {
      expect(card.length).toBeLessThanOrEqual(CARD_MAX_CHARS);
      expect(card).toContain('(in this store: knowledge, meeting, task)');
    }
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

  it('names what planners asked: governed columns, UPDATE columns, types, defaults, the ALL rule', () => {
    for (const card of [dsl, ir]) {
      for (const c of ['id', 'owner', 'created_at', 'deleted', 'lineage_parents', 'on_expire', 'utility']) expect(card, c).toMatch(new RegExp(`Never: [^\\n]*\\b${c}\\b`));
      for (const c of UPDATE_COLUMNS.slice(0, 12)) expect(card, c).toMatch(new RegExp(`columns: [^\\n]*\\b${c}\\b`));
      for (const t of TYPE_SUGGESTIONS) expect(card, t).toMatch(new RegExp(`usual: [^\\n]*\\b${t}\\b`));
      expect(card).toContain(`reads as ${BASE_WEIGHT}`);
      expect(card).toContain(`caps it at ${ARCHIVE_WEIGHT}`);
      expect(card).toContain(`default ${DEFAULT_MAX_TOKENS}`);
      expect(card).toContain('low 0.2, normal 0.5, high 0.8, urgent 1');
      expect(card).toMatch(/UTC, from the run's clock/);
    }
    expect(dsl).toContain('a read (RETRIEVE, SUMMARIZE) CONFIRM only');
    expect(ir).toContain('a read (Retrieve, Summarize) may not');
    expect(dsl).toContain('DELETE is SOFT');
    expect(ir).toContain('`soft` defaults to true');
  });

  it('answers the readings held-out planners split on: past periods, a period the records are about, erase, tag as high priority', () => {
    for (const card of [dsl, ir]) {
      expect(card).toMatch(/Last week, month, quarter, year: [^\n]*7\|30\|90\|365/);
      expect(card).toContain('A period the records are about');
      expect(card).toMatch(/delete \/ clean up[^\n]*soft, even for erase \/ purge/);
      expect(card).toMatch(/label \/ tag [^\n]*quoted: verbatim; unquoted: as stored, and high \/ top priority as "high_priority"/);
    }
    expect(dsl).toContain('time IN LAST 7|30|90|365 DAYS');
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
      expect(front.irs).toEqual(Array.isArray(e.ir) ? e.ir : [e.ir]);
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

describe('language card: the request → statement guide works as written', () => {
  it('shows one line per entry: the DSL on the DSL card, op and args on the IR card', () => {
    const section = (card: string) => card.slice(card.indexOf('## Request → statement'), card.indexOf('## Worked examples')).split('\n').filter((l) => l.startsWith('- '));
    expect(section(dsl)).toEqual(GUIDE.map((g) => `- ${g.intent} → ${g.dsl}${g.note ? ` (${g.note})` : ''}`));
    expect(section(ir)).toEqual(GUIDE.map((g) => `- ${g.intent} → ${g.ir.op} ${JSON.stringify(g.ir.args)}${(g.irNote ?? g.note) ? ` (${g.irNote ?? g.note})` : ''}`));
  });
  it('phrases every entry in English and in Chinese', () => {
    for (const g of GUIDE) expect(g.intent, g.intent).toMatch(/[a-z].* — .*[\u4e00-\u9fff]/);
  });
  for (const g of GUIDE) {
    it(g.intent, async () => {
      const r = runText(await seeded(), g.dsl);
      const first = textToIr(g.dsl).irs[0] as { op: string; args?: unknown };
      expect({ op: first.op, args: first.args }).toEqual(g.ir);
      expect(r.diagnostics.filter((d) => d.code === 'no-match')).toEqual([]);
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

describe('language card: the defaults and values are what the engine does', () => {
  const rows = (store: Awaited<ReturnType<typeof seeded>>, sql: string) => store.all({ sql, params: [] });
  it('a read over ALL needs CONFIRM; DRY RUN does not do for a read', async () => {
    const store = await seeded();
    const dry = run(store, textToIr('RETRIEVE ALL DRY RUN;').irs, { now: NOW });
    expect(dry.ok).toBe(false);
    expect(dry.diagnostics.map((d) => d.code)).toContain('all-requires-confirmation');
    expect(runText(store, 'RETRIEVE ALL CONFIRM;').results[0].ids).toHaveLength(3);
  });
  it('UPDATE refuses every governed column and writes the listed ones', async () => {
    for (const c of GOVERNED_COLUMNS) {
      const front = textToIr(`UPDATE ID 1 SET ${c} = "x";`);
      const r = run(await seeded(), front.irs, { now: NOW });
      expect(r.ok, c).toBe(false);
      expect([...front.diagnostics, ...r.diagnostics].map((d) => d.code), c).toContain('governed-column');
    }
    runText(await seeded(), 'UPDATE ID 1 SET text = "t", type = "note", tags = ["a"], subject = "s", weight = 0.8, ttl = "P7D", priority = "high";');
  });
  it('a positive DEMOTE BY lowers; ARCHIVE caps the weight and the record still matches a later filter', async () => {
    const store = await seeded();
    runText(store, 'DEMOTE ID 2 BY 0.2; DEMOTE ID 1 ARCHIVE;');
    expect(rows(store, 'SELECT id, weight FROM memory WHERE id IN (1, 2) ORDER BY id')).toEqual([{ id: 1, weight: ARCHIVE_WEIGHT }, { id: 2, weight: BASE_WEIGHT - 0.2 }]);
    expect(runText(store, 'RETRIEVE WHERE tags HAS "standup" LIMIT 5;').results[0].ids).toEqual([2, 1]);
  });
  it('a record soft-deleted earlier in the script matches no later filter; DELETE is soft', async () => {
    const store = await seeded();
    const r = runText(store, 'DELETE ID 1; RETRIEVE WHERE tags HAS "standup" LIMIT 5;');
    expect(r.results[1].ids).toEqual([2]);
    expect(rows(store, 'SELECT deleted FROM memory WHERE id = 1')).toEqual([{ deleted: 1 }]);
  });
  it('a reference may stand beside plain ids', async () => {
    const r = runText(await seeded(), 'LET $n = ENCODE "x"; LABEL IDS $n, 2 TAGS "k";');
    expect(r.results[1].ids).toEqual([2, 4]);
  });
  it('TTL counts from now, not from the record\'s time', async () => {
    const store = await seeded();
    runText(store, 'EXPIRE ID 1 TTL P7D;');
    expect(rows(store, 'SELECT expire_at FROM memory WHERE id = 1')).toEqual([{ expire_at: '2025-04-27T12:00:00Z' }]);
  });
  it('a reminder starts at the next occurrence after now (now\'s time of day); REMIND <datetime> fires once; COUNT=1 alone never', async () => {
    const store = await seeded();
    runText(store, 'PROMOTE ID 1 REMIND "FREQ=WEEKLY;BYDAY=MO"; PROMOTE ID 2 REMIND 2025-05-01T09:00:00+08:00; PROMOTE ID 3 REMIND "FREQ=DAILY;COUNT=1";');
    expect(rows(store, 'SELECT id, next_auto_update_at AS next FROM memory ORDER BY id')).toEqual([
      { id: 1, next: '2025-04-21T12:00:00Z' }, { id: 2, next: '2025-05-01T01:00:00Z' }, { id: 3, next: null },
    ]);
  });
  it('calendar words are UTC: LAST 1 DAYS ends at the end of the UTC day', async () => {
    const store = await createStore();
    runText(store, 'ENCODE "late" TIME 2025-04-20T23:30:00Z; ENCODE "tomorrow in Beijing" TIME 2025-04-21T00:30:00+08:00;');
    expect(runText(store, 'RETRIEVE WHERE time IN LAST 1 DAYS LIMIT 5;').results[0].ids).toEqual([1, 2]);
    expect(runText(store, 'RETRIEVE WHERE time FROM 2025-04-20T00:00:00Z TO 2025-04-20T23:59:59Z LIMIT 5;').results[0].ids).toEqual([1, 2]);
  });
});

describe('language card: a model constrained by the GBNF can write every statement on it', () => {
  it('grammar.gbnf accepts every guide line and worked example, as written and formatted', async () => {
    const { Gbnf } = await import('../grammar/gbnf.js');
    const { GENERATED_DIR } = await import('../../scripts/grammar-artefacts.js');
    const { formatText } = await import('../../src/pipeline.js');
    const { join } = await import('node:path');
    const gbnf = new Gbnf(readFileSync(join(GENERATED_DIR, 'grammar.gbnf'), 'utf8'));
    const texts = [...GUIDE.map((g) => g.dsl), ...CARD_EXAMPLES.map((e) => e.dsl)];
    for (const text of texts) {
      expect(gbnf.accepts(text), text).toBe(true);
      expect(gbnf.accepts(formatText(text).text ?? ''), `formatted: ${text}`).toBe(true);
    }
  });
});
