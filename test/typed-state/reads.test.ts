/**
 * Reads of facts (spec/semantics.md "Typed state", "Attribute schemas"): a read about facts shows
 * the fact columns by default (confidence and source among them), and every statement's subject
 * condition is normalised as the tenant's attribute schemas store subjects — reads now, AS OF,
 * KNOWN AT, HISTORY, SUMMARIZE and the writes that target facts by subject — on sql.js, PGlite and
 * the PostgreSQL server.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_INCLUDE, FACT_INCLUDE } from '../../src/lower/index.js';
import { storeCases, tenantRunner } from './fixture.js';

const NOW = '2026-06-10T00:00:00Z';
const SCHEMAS = `ENCODE ATTRIBUTE passport_deadline SCHEMA { type: "date", normalize: ["trim", "casefold"] };
ENCODE ATTRIBUTE nickname SCHEMA { type: "text", normalize: ["trim"] };`;
const FACTS = `ENCODE "2026-07-15" SUBJECT " Mira" ATTRIBUTE passport_deadline VALID FROM 2026-06-01T09:00:00Z EPISODE "e1" CONFIDENCE 0.9 SOURCE "email";
ENCODE "2026-06-30" SUBJECT "MIRA" ATTRIBUTE passport_deadline VALID FROM 2026-06-03T10:00:00Z EPISODE "e2" CONFIDENCE 0.95 SOURCE "call";
ENCODE "Mimi" SUBJECT " Mira " ATTRIBUTE nickname;
ENCODE "a note" SUBJECT "Mira";`;
let tenants = 0;

describe.each(storeCases('reads'))('fact reads on %s', (_name, open) => {
  async function setup() {
    const s = tenantRunner(await open(), `f${++tenants}`, NOW);
    await s.ok(`${SCHEMAS}\n${FACTS}`);
    const texts = async (statement: string) => ((await s.ok(statement)).results[0].rows ?? []).map((r) => r.text);
    return { ...s, texts };
  }

  it('a read about facts shows the fact columns by default; an explicit INCLUDE wins; other reads keep theirs', async () => {
    const s = await setup();
    const [current] = (await s.ok('RETRIEVE WHERE subject = mira AND attribute = passport_deadline;')).results[0].rows!;
    expect(Object.keys(current)).toEqual(FACT_INCLUDE);
    expect(current).toMatchObject({ text: '2026-06-30', subject: 'mira', attribute: 'passport_deadline', valid_from: '2026-06-03T10:00:00Z', valid_to: null, confidence: 0.95, source: 'call', episode: 'e2' });
    const history = (await s.ok('RETRIEVE WHERE subject = mira HISTORY;')).results[0].rows!;
    expect(history.map((r) => [r.text, r.valid_to, r.confidence, r.source])).toEqual([['2026-07-15', '2026-06-03T10:00:00Z', 0.9, 'email'], ['2026-06-30', null, 0.95, 'call']]);
    expect(history.every((r) => Object.keys(r).join() === FACT_INCLUDE.join())).toBe(true);
    expect((await s.ok('RETRIEVE WHERE subject = mira AND attribute = passport_deadline INCLUDE text;')).results[0].rows).toEqual([{ id: current.id, text: '2026-06-30' }]);
    // Reads that name no attribute and are no HISTORY (AS OF and KNOWN AT included) keep the default columns.
    for (const read of ['RETRIEVE WHERE subject = "Mira" LIMIT 10;', 'RETRIEVE WHERE subject = mira AS OF 2026-06-02T00:00:00Z;', 'RETRIEVE WHERE subject = mira KNOWN AT 2026-06-20T00:00:00Z;']) {
      const rows = (await s.ok(read)).results[0].rows!;
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(Object.keys(r)).toEqual(DEFAULT_INCLUDE);
    }
  });

  it('a subject condition naming an attribute is normalised by its schema: now, AS OF, KNOWN AT, HISTORY, SUMMARIZE', async () => {
    const s = await setup();
    expect(await s.texts('RETRIEVE WHERE subject = " Mira" AND attribute = passport_deadline;')).toEqual(['2026-06-30']);
    expect(await s.texts('RETRIEVE WHERE subject = "MIRA " AND attribute = passport_deadline AS OF 2026-06-02T00:00:00Z;')).toEqual(['2026-07-15']);
    expect(await s.texts('RETRIEVE WHERE subject = "Mira" AND attribute = passport_deadline AS OF 2026-06-04T00:00:00Z KNOWN AT 2026-06-20T00:00:00Z;')).toEqual(['2026-06-30']);
    expect(await s.texts('RETRIEVE WHERE subject = " mIRA" AND attribute = passport_deadline HISTORY;')).toEqual(['2026-07-15', '2026-06-30']);
    const summary = (await s.ok('SUMMARIZE WHERE subject = " Mira" AND attribute = passport_deadline;')).results[0];
    expect(summary.ids).toHaveLength(1);
    // A schema that only trims keeps the case: "MIRA" is another subject of its attribute.
    expect(await s.texts('RETRIEVE WHERE subject = " Mira" AND attribute = nickname;')).toEqual(['Mimi']);
    expect(await s.texts('RETRIEVE WHERE subject = "MIRA" AND attribute = nickname;')).toEqual([]);
    // An attribute without a schema compares the subject as written.
    await s.ok('ENCODE "blue" SUBJECT "Mira" ATTRIBUTE colour;');
    expect(await s.texts('RETRIEVE WHERE subject = "Mira" AND attribute = colour;')).toEqual(['blue']);
    expect(await s.texts('RETRIEVE WHERE subject = mira AND attribute = colour;')).toEqual([]);
  });

  it('without an attribute, the subject matches as written, and on each normalising attribute\'s facts in its form', async () => {
    const s = await setup();
    // "Mira": the note as written, the deadline (casefold) as "mira", the nickname (trim) as "Mira".
    expect((await s.texts('RETRIEVE WHERE subject = "Mira" INCLUDE text;')).sort()).toEqual(['2026-06-30', 'Mimi', 'a note']);
    // " MIRA": only the deadline's form ("mira"); the nickname keeps "MIRA", and no record has " MIRA".
    expect(await s.texts('RETRIEVE WHERE subject = " MIRA" INCLUDE text;')).toEqual(['2026-06-30']);
    // A subject every normalisation leaves as it is reads nothing more.
    expect(await s.texts('RETRIEVE WHERE subject = "mira" INCLUDE text;')).toEqual(['2026-06-30']);
    // Another tenant's schemas do not apply.
    const other = tenantRunner(s.store, `${s.tenant}-other`, NOW);
    await other.ok('ENCODE "x" SUBJECT "mira" ATTRIBUTE passport_deadline;');
    expect(((await other.ok('RETRIEVE WHERE subject = "Mira" INCLUDE text;')).results[0].rows ?? [])).toEqual([]);
  });

  it('writes that target facts by subject find them in the normalised form', async () => {
    const s = await setup();
    const label = await s.ok('LABEL WHERE subject = " MIRA " AND attribute = passport_deadline LIMIT 5 TAGS ["checked"];');
    expect(label.results[0].ids).toHaveLength(1);
    const update = await s.ok('UPDATE WHERE subject = "Mira" AND attribute = passport_deadline LIMIT 5 SET source = "passport office";');
    expect(update.results[0].ids).toEqual(label.results[0].ids);
    expect((await s.ok('RETRIEVE WHERE subject = mira AND attribute = passport_deadline INCLUDE tags, source;')).results[0].rows).toEqual([{ id: label.results[0].ids[0], tags: ['checked'], source: 'passport office' }]);
    const removed = await s.ok('DELETE WHERE subject = "Mira " AND attribute = passport_deadline LIMIT 5;');
    expect(removed.results[0].ids).toEqual(label.results[0].ids);
    // The retracted current version leaves the earlier one current again.
    expect(await s.texts('RETRIEVE WHERE subject = mira AND attribute = passport_deadline INCLUDE text;')).toEqual(['2026-07-15']);
  });
});
