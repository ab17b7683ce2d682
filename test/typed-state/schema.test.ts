/**
 * Attribute schemas (spec/semantics.md "Attribute schemas"): declaring (tenant-scoped, audited,
 * versioned, undoable), type checks with spans and fixes, subject normalisation, the conflict
 * policies with confidence and source, `INCLUDE schema_version`, and the audit of facts written
 * before a schema — on sql.js and on PGlite, same answers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditLog, run, undo } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { schemasIo, schemaViolationsIo } from '../../src/execute/schemas.js';
import { checkValue, dateMeant, readSchema } from '../../src/lower/schema.js';
import { irsToText, textToIr } from '../../src/pipeline.js';
import { storeCases, tenantRunner } from './fixture.js';

const NOW = '2026-06-10T00:00:00Z';
const DEADLINE = 'ENCODE ATTRIBUTE passport_deadline SCHEMA { type: "date", normalize: ["trim", "casefold"], conflict: "confidence" };';
let tenants = 0;

describe.each(storeCases('schema'))('attribute schemas on %s', (_name, open) => {
  async function setup() {
    const { store, tenant, exec, ok, refused } = tenantRunner(await open(), `s${++tenants}`, NOW);
    const rows = async (where = 'subject = mira AND attribute = passport_deadline', include = 'text, subject, confidence, episode, source, schema_version') =>
      // Rows always carry their id: left out, the values compare across stores.
      ((await ok(`RETRIEVE WHERE ${where} LIMIT 10 INCLUDE ${include};`)).results[0].rows ?? []).map(({ id: _id, ...r }) => r);
    const count = async () => (await store.driveAsync(function* () {
      return (yield { kind: 'all', sql: `SELECT COUNT(*) AS n FROM memory WHERE tenant = ${store.dialect.placeholder(0)}`, params: [tenant] }) as Record<string, unknown>[];
    }()))[0].n;
    return { store, tenant, exec, ok, refused, rows, count };
  }

  it('a declaration is stored per tenant, versioned, returned in the result and audited', async () => {
    const s = await setup();
    const r = await s.ok(DEADLINE);
    expect(r.results[0]).toMatchObject({ op: 'Encode', ids: [], schema: { attribute: 'passport_deadline', version: 1, schema: { type: 'date', cardinality: 'one', normalize: ['trim', 'casefold'], conflict: 'confidence' } } });
    const again = await s.ok('ENCODE ATTRIBUTE passport_deadline SCHEMA { type: "date" };');
    expect(again.results[0].schema?.version).toBe(2);
    const inForce = await s.store.driveAsync(schemasIo(s.store.dialect, s.tenant));
    expect(inForce.map((x) => [x.attribute, x.version, x.schema.conflict])).toEqual([['passport_deadline', 2, 'latest']]);
    // Another tenant sees no schema.
    expect(await s.store.driveAsync(schemasIo(s.store.dialect, `${s.tenant}-other`))).toEqual([]);
    const entries = (await auditLog(s.store, undefined, s.tenant)).filter((e) => e.op === 'Encode');
    expect(entries.map((e) => e.after)).toEqual([
      { attribute_schema: { attribute: 'passport_deadline', version: 1, schema: { type: 'date', cardinality: 'one', normalize: ['trim', 'casefold'], conflict: 'confidence' } } },
      { attribute_schema: { attribute: 'passport_deadline', version: 2, schema: { type: 'date', cardinality: 'one', normalize: [], conflict: 'latest' } } },
    ]);
  });

  it('undo withdraws a declared version: the previous one is in force again', async () => {
    const s = await setup();
    await s.ok(DEADLINE);
    await s.ok('ENCODE ATTRIBUTE passport_deadline SCHEMA { type: "text" };');
    // Under version 2 (text) "banana" would pass; undo it and version 1 (date) refuses it.
    const entry = (await auditLog(s.store, undefined, s.tenant)).at(-1)!;
    const u = await undo(s.store, entry.id, { now: NOW, tenant: s.tenant });
    expect(u.ok).toBe(true);
    expect((await s.store.driveAsync(schemasIo(s.store.dialect, s.tenant))).map((x) => x.version)).toEqual([1]);
    expect((await s.refused('ENCODE "banana" SUBJECT mira ATTRIBUTE passport_deadline;')).map((d) => d.code)).toEqual(['fact-type-mismatch']);
    expect((await undo(s.store, entry.id, { now: NOW, tenant: s.tenant })).ok).toBe(false);
    // A new declaration takes a new number; the withdrawn one keeps its own.
    expect((await s.ok('ENCODE ATTRIBUTE passport_deadline SCHEMA { type: "date" };')).results[0].schema?.version).toBe(3);
  });

  it('an ill-typed value is refused at the value with a fix, and nothing changes', async () => {
    const s = await setup();
    await s.ok(DEADLINE);
    const before = await s.count();
    const text = 'ENCODE "2026-07-01" SUBJECT mira ATTRIBUTE passport_deadline;\nENCODE "July 15, 2026" SUBJECT mira ATTRIBUTE passport_deadline;';
    const [d] = await s.refused(text);
    expect(d.code).toBe('fact-type-mismatch');
    expect(d.message).toContain('"July 15, 2026" is not a date in the form YYYY-MM-DD');
    expect(d.message).toContain("attribute 'passport_deadline' (schema version 1");
    expect(d.statement).toBe(1);
    // The span is the value as written, and the fix rewrites exactly it.
    expect(text.slice(d.range!.start.offset, d.range!.end.offset)).toBe('"July 15, 2026"');
    expect(d.fix).toEqual({ message: 'write "2026-07-15"', edits: [{ range: d.range, newText: '"2026-07-15"' }] });
    expect(await s.count()).toBe(before);
    const fixed = text.slice(0, d.range!.start.offset) + d.fix!.edits[0].newText + text.slice(d.range!.end.offset);
    await s.ok(fixed);
  });

  it('each type: good values pass, bad ones are refused (with a did-you-mean for an enum)', async () => {
    const s = await setup();
    await s.ok([
      'ENCODE ATTRIBUTE age SCHEMA { type: "number" };',
      'ENCODE ATTRIBUTE vip SCHEMA { type: "boolean" };',
      'ENCODE ATTRIBUTE plan SCHEMA { type: "enum", values: ["free", "pro", "team"] };',
      'ENCODE ATTRIBUTE seen SCHEMA { type: "datetime" };',
      'ENCODE ATTRIBUTE manager SCHEMA { type: "ref" };',
      'ENCODE ATTRIBUTE languages SCHEMA { type: "enum", values: ["en", "fr", "de"], cardinality: "set" };',
    ].join('\n'));
    await s.ok([
      'ENCODE "41" SUBJECT mira ATTRIBUTE age;', 'ENCODE "true" SUBJECT mira ATTRIBUTE vip;', 'ENCODE "pro" SUBJECT mira ATTRIBUTE plan;',
      'ENCODE "2026-06-01T09:00:00+02:00" SUBJECT mira ATTRIBUTE seen;', 'ENCODE "mira" SUBJECT ben ATTRIBUTE manager;',
      'ENCODE "fr, en, fr" SUBJECT mira ATTRIBUTE languages;',
    ].join('\n'));
    expect((await s.rows('subject = mira AND attribute = languages', 'text'))).toEqual([{ text: '["fr","en"]' }]);
    const bad = async (text: string) => (await s.refused(text))[0];
    expect(await bad('ENCODE "1,200" SUBJECT mira ATTRIBUTE age;')).toMatchObject({ code: 'fact-type-mismatch', fix: { edits: [{ newText: '"1200"' }] } });
    expect(await bad('ENCODE "yes" SUBJECT mira ATTRIBUTE vip;')).toMatchObject({ fix: { edits: [{ newText: '"true"' }] } });
    const plan = await bad('ENCODE "prro" SUBJECT mira ATTRIBUTE plan;');
    expect(plan.message).toContain('did you mean "pro"?');
    expect(plan.fix?.edits[0].newText).toBe('"pro"');
    expect(await bad('ENCODE "2026-06-01T09:00:00" SUBJECT mira ATTRIBUTE seen;')).toMatchObject({ fix: { edits: [{ newText: '"2026-06-01T09:00:00Z"' }] } });
    const ref = await bad('ENCODE "mirra" SUBJECT ben ATTRIBUTE manager;');
    expect(ref.message).toContain('names no subject of this tenant');
    expect(ref.message).toContain('did you mean "mira"?');
    expect((await bad('ENCODE "en, es" SUBJECT mira ATTRIBUTE languages;')).message).toContain('set item "es" is not one of');
    // A value with no likely reading has no fix.
    expect((await bad('ENCODE "banana" SUBJECT mira ATTRIBUTE age;')).fix).toBeUndefined();
  });

  it('subject normalisation makes "Mira" and " mira" one subject (one key, one current value)', async () => {
    const s = await setup();
    await s.ok(DEADLINE);
    await s.ok('ENCODE "2026-07-15" SUBJECT "Mira" ATTRIBUTE passport_deadline VALID FROM 2026-06-01T09:00:00Z EPISODE "e1" CONFIDENCE 0.9;');
    await s.ok('ENCODE "2026-06-30" SUBJECT " mira" ATTRIBUTE passport_deadline VALID FROM 2026-06-03T10:00:00Z EPISODE "e2" CONFIDENCE 0.9;');
    expect(await s.rows()).toEqual([{ text: '2026-06-30', subject: 'mira', confidence: 0.9, episode: 'e2', source: null, schema_version: 1 }]);
    const history = (await s.ok('RETRIEVE WHERE subject = mira AND attribute = passport_deadline HISTORY INCLUDE text, supersedes;')).results[0].rows;
    expect(history?.map((r) => r.text)).toEqual(['2026-07-15', '2026-06-30']);
  });

  it("conflict 'confidence': a lower-confidence value does not replace a higher one; results cite confidence and source", async () => {
    const s = await setup();
    await s.ok(DEADLINE);
    await s.ok('ENCODE "2026-07-15" SUBJECT mira ATTRIBUTE passport_deadline VALID FROM 2026-06-01T09:00:00Z EPISODE "e1" SOURCE "passport office" CONFIDENCE 0.9;');
    const [d] = await s.refused('ENCODE "2026-06-30" SUBJECT mira ATTRIBUTE passport_deadline VALID FROM 2026-06-03T10:00:00Z EPISODE "e2" CONFIDENCE 0.1;');
    expect(d.code).toBe('fact-conflict');
    expect(d.message).toContain('"2026-06-30" (confidence 0.1) does not replace the current value "2026-07-15" (#');
    expect(d.message).toContain('confidence 0.9, source "passport office", episode "e1")');
    expect(d.message).toContain('give CONFIDENCE 0.9 or more, or add CONFIRM');
    expect(await s.rows()).toEqual([{ text: '2026-07-15', subject: 'mira', confidence: 0.9, episode: 'e1', source: 'passport office', schema_version: 1 }]);
    // Unstated confidence counts as 0: refused too.
    expect((await s.refused('ENCODE "2026-06-30" SUBJECT mira ATTRIBUTE passport_deadline VALID FROM 2026-06-03T10:00:00Z;')).map((x) => x.code)).toEqual(['fact-conflict']);
    // An equal or higher confidence replaces; so does CONFIRM.
    await s.ok('ENCODE "2026-06-30" SUBJECT mira ATTRIBUTE passport_deadline VALID FROM 2026-06-03T10:00:00Z EPISODE "e2" CONFIDENCE 0.9;');
    expect((await s.rows()).map((r) => r.text)).toEqual(['2026-06-30']);
    await s.ok('ENCODE "2026-06-20" SUBJECT mira ATTRIBUTE passport_deadline VALID FROM 2026-06-05T10:00:00Z EPISODE "e3" CONFIDENCE 0.2 CONFIRM;');
    expect((await s.rows()).map((r) => [r.text, r.confidence])).toEqual([['2026-06-20', 0.2]]);
  });

  it("conflict 'confirm': a different value needs CONFIRM; the same value does not", async () => {
    const s = await setup();
    await s.ok('ENCODE ATTRIBUTE plan SCHEMA { type: "enum", values: ["free", "pro"], conflict: "confirm" };');
    await s.ok('ENCODE "free" SUBJECT mira ATTRIBUTE plan VALID FROM 2026-06-01T00:00:00Z;');
    const [d] = await s.refused('ENCODE "pro" SUBJECT mira ATTRIBUTE plan VALID FROM 2026-06-02T00:00:00Z;');
    expect(d).toMatchObject({ code: 'fact-conflict', path: 'args.payload.text' });
    expect(d.message).toContain('its conflict policy asks for CONFIRM');
    await s.ok('ENCODE "free" SUBJECT mira ATTRIBUTE plan VALID FROM 2026-06-02T00:00:00Z;');
    await s.ok('ENCODE "pro" SUBJECT mira ATTRIBUTE plan VALID FROM 2026-06-03T00:00:00Z CONFIRM;');
    expect((await s.rows('subject = mira AND attribute = plan', 'text')).map((r) => r.text)).toEqual(['pro']);
  });

  it("without a schema (or under 'latest') nothing changes: the latest valid time wins, schema_version reads 1", async () => {
    const s = await setup();
    await s.ok('ENCODE "banana" SUBJECT mira ATTRIBUTE passport_deadline CONFIDENCE 0.9 VALID FROM 2026-06-01T00:00:00Z;');
    await s.ok('ENCODE "2026-06-30" SUBJECT Mira ATTRIBUTE passport_deadline CONFIDENCE 0.1 VALID FROM 2026-06-02T00:00:00Z;');
    expect(await s.rows('attribute = passport_deadline', 'text, subject, schema_version')).toHaveLength(2);
    expect((await s.rows('subject = mira AND attribute = passport_deadline', 'text, schema_version'))).toEqual([{ text: 'banana', schema_version: 1 }]);
  });

  it('facts written before the schema are reported by the audit, not broken', async () => {
    const s = await setup();
    await s.ok('ENCODE "banana" SUBJECT mira ATTRIBUTE passport_deadline;\nENCODE "2026-07-15" SUBJECT " Ben" ATTRIBUTE passport_deadline;\nENCODE "2026-07-01" SUBJECT ada ATTRIBUTE passport_deadline;');
    await s.ok(DEADLINE, { now: '2026-06-11T00:00:00Z' });
    const { violations } = await s.store.driveAsync(schemaViolationsIo(s.store.dialect, s.tenant));
    expect(violations.map((v) => [v.subject, v.value, v.beforeSchema, v.problem])).toEqual([
      ['mira', 'banana', true, '"banana" is not a date in the form YYYY-MM-DD'],
      [' Ben', '2026-07-15', true, 'subject " Ben" is not normalised (trim+casefold): the schema keeps it as "ben"'],
    ]);
    // Still readable as they were.
    expect((await s.rows('subject = mira AND attribute = passport_deadline', 'text')).map((r) => r.text)).toEqual(['banana']);
    expect((await s.store.driveAsync(schemaViolationsIo(s.store.dialect, `${s.tenant}-other`))).violations).toEqual([]);
  });

  it('a declaration inside a refused script is rolled back with it', async () => {
    const s = await setup();
    const r = await s.exec(`${DEADLINE}\nMERGE IDS "1", "99";`);
    expect(r.ok).toBe(false);
    expect(await s.store.driveAsync(schemasIo(s.store.dialect, s.tenant))).toEqual([]);
  });
});

describe('the declaration statement', () => {
  const errors = (text: string) => textToIr(text).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);

  it('round-trips through the IR extension args.schema, and prints canonically', () => {
    const p = textToIr(DEADLINE);
    expect(p.diagnostics).toEqual([]);
    expect(p.irs[0]).toEqual({ stage: 'ENC', op: 'Encode', args: { attribute: 'passport_deadline', schema: { type: 'date', normalize: ['trim', 'casefold'], conflict: 'confidence' } } });
    const printed = irsToText(p.irs);
    expect(printed).toBe('ENCODE\n  ATTRIBUTE "passport_deadline"\n  SCHEMA { type: "date", normalize: ["trim", "casefold"], conflict: "confidence" };\n');
    expect(textToIr(printed).irs).toEqual(p.irs);
  });

  it('is checked: no ATTRIBUTE, a SUBJECT or value beside it, an unknown key or type are bad-schema', async () => {
    const store = await createStore();
    const lowered = (text: string) => run(store, textToIr(text).irs, { now: NOW }).diagnostics.filter((d) => d.severity === 'error');
    expect(errors('ENCODE ATTRIBUTE a SCHEMA { type: "date" };')).toEqual([]);
    expect(lowered('ENCODE SCHEMA { type: "date" };').map((d) => [d.code, d.path])).toEqual([['bad-schema', 'args.schema']]);
    expect(lowered('ENCODE ATTRIBUTE a SUBJECT mira SCHEMA { type: "date" };').map((d) => [d.code, d.path])).toEqual([['bad-schema', 'args.subject']]);
    expect(lowered('ENCODE "x" ATTRIBUTE a SCHEMA { type: "date" };').map((d) => [d.code, d.path])).toEqual([['bad-schema', 'args.payload']]);
    const typo = lowered('ENCODE ATTRIBUTE a SCHEMA { typ: "date", conflict: "latst" };');
    expect(typo.map((d) => [d.code, d.path])).toEqual([['bad-schema', 'args.schema.typ'], ['bad-schema', 'args.schema.conflict']]);
    expect(typo[0].message).toContain("did you mean 'type'?");
    expect(typo[1].message).toContain("did you mean 'latest'?");
    expect(lowered('ENCODE ATTRIBUTE a SCHEMA { type: "enum" };').map((d) => d.path)).toEqual(['args.schema.values']);
    expect(lowered('ENCODE ATTRIBUTE a SCHEMA { type: "color" };').map((d) => d.path)).toEqual(['args.schema.type']);
  });

  it('INCLUDE schema_version is valid', () => {
    expect(errors('RETRIEVE WHERE attribute = a INCLUDE text, schema_version;')).toEqual([]);
  });

  it('args.schema occurs in no upstream IR (the extension leaves the upstream round trip alone)', () => {
    const dir = resolve(import.meta.dirname, '../../fixtures/upstream');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) e.isDirectory() ? walk(join(d, e.name)) : files.push(join(d, e.name));
    };
    walk(dir);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(f, 'utf8')).not.toMatch(/"schema"\s*:/);
  });
});

describe('value checks (src/lower/schema.ts)', () => {
  const schema = (raw: unknown) => readSchema(raw, (path, message) => {
    throw new Error(`${path}: ${message}`);
  })!;

  it('reads dates written other ways only when one reading is possible', () => {
    expect(dateMeant('2026/07/15')).toBe('2026-07-15');
    expect(dateMeant('20260715')).toBe('2026-07-15');
    expect(dateMeant('15/07/2026')).toBe('2026-07-15');
    expect(dateMeant('07/15/2026')).toBe('2026-07-15');
    expect(dateMeant('03/04/2026')).toBeUndefined();
    expect(dateMeant('15 July 2026')).toBe('2026-07-15');
    expect(dateMeant('Jul 15th, 2026')).toBe('2026-07-15');
    expect(dateMeant('2026-02-30')).toBeUndefined();
    expect(dateMeant('2026-07-15T10:00:00Z')).toBe('2026-07-15');
  });

  it('checks each type', () => {
    expect(checkValue(schema({ type: 'date' }), '2026-02-29')).toMatchObject({ ok: false });
    expect(checkValue(schema({ type: 'date' }), '2028-02-29')).toEqual({ ok: true, value: '2028-02-29' });
    expect(checkValue(schema({ type: 'number' }), '-1.5e3')).toEqual({ ok: true, value: '-1.5e3' });
    expect(checkValue(schema({ type: 'number' }), '3,5')).toMatchObject({ ok: false, suggestion: '3.5' });
    expect(checkValue(schema({ type: 'boolean' }), 'No')).toMatchObject({ ok: false, suggestion: 'false' });
    expect(checkValue(schema({ type: 'enum', values: ['Active', 'Paused'] }), 'active')).toMatchObject({ ok: false, suggestion: 'Active' });
    expect(checkValue(schema({ type: 'text' }), '  ')).toMatchObject({ ok: false });
    expect(checkValue(schema({ type: 'number', cardinality: 'set' }), '["1", "x"]')).toMatchObject({ ok: false });
    expect(checkValue(schema({ type: 'number', cardinality: 'set' }), '[1]')).toMatchObject({ ok: false });
  });
});
