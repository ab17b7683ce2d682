/**
 * The seed's evaluation checklist (shared/seeds/001: "Evaluation checklist") as tests: supersession
 * correctness, stale-fact invalidation, point-in-time accuracy, tenant isolation, deletion
 * correctness — plus retention, provenance and the checker's diagnostics for facts.
 */
import { describe, expect, it } from 'vitest';
import { auditLog, run, sweep, why, type RunOptions, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { textToIr } from '../../src/pipeline.js';

const parseScript = textToIr;

const NOW = '2026-06-10T00:00:00Z';

/** Runs DSL text; fails the test on an error. */
function dsl(store: Store, text: string, options: RunOptions = {}) {
  const parsed = parseScript(text);
  expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const r = run(store, parsed.irs, { now: NOW, sourceMaps: parsed.sourceMaps, ...options });
  expect(r.diagnostics.filter((d) => d.severity === 'error'), JSON.stringify(r.diagnostics)).toEqual([]);
  return r;
}
const fact = (value: string, validFrom: string, episode: string, attribute = 'passport_deadline') =>
  `ENCODE "${value}" SUBJECT "mira" ATTRIBUTE "${attribute}" VALID FROM ${validFrom} EPISODE "${episode}";`;
const versions = (store: Store, tenant = 'default') =>
  store.query(`SELECT id, text, valid_from, valid_to, supersedes FROM memory WHERE tenant = ? AND attribute = 'passport_deadline' ORDER BY valid_from`, [tenant]);
const values = (r: ReturnType<typeof dsl>, i: number) => (r.results[i].rows ?? []).map((row) => row.text);

describe('supersession correctness', () => {
  it('a new value closes the current one at its valid_from and links it, in the same transaction', async () => {
    const store = await createStore();
    dsl(store, fact('2026-07-15', '2026-06-01T09:00:00Z', 'e1') + fact('2026-06-30', '2026-06-03T10:00:00Z', 'e2'));
    expect(versions(store)).toEqual([
      { id: 1, text: '2026-07-15', valid_from: '2026-06-01T09:00:00Z', valid_to: '2026-06-03T10:00:00Z', supersedes: null },
      { id: 2, text: '2026-06-30', valid_from: '2026-06-03T10:00:00Z', valid_to: null, supersedes: 1 },
    ]);
    // Both writes and the closing are audited as one run (one trace id).
    const entries = auditLog(store);
    expect(new Set(entries.map((e) => e.traceId)).size).toBe(1);
    expect(entries.at(-1)!.after).toMatchObject({ 1: { valid_to: '2026-06-03T10:00:00Z' } });
  });

  it('a back-dated fact lands in its place in history: closed by the next version, closing the previous one', async () => {
    const store = await createStore();
    dsl(store, fact('A', '2026-06-01T00:00:00Z', 'e1') + fact('C', '2026-06-05T00:00:00Z', 'e3'));
    dsl(store, fact('B', '2026-06-03T00:00:00Z', 'e2'));
    expect(versions(store)).toEqual([
      { id: 1, text: 'A', valid_from: '2026-06-01T00:00:00Z', valid_to: '2026-06-03T00:00:00Z', supersedes: null },
      { id: 3, text: 'B', valid_from: '2026-06-03T00:00:00Z', valid_to: '2026-06-05T00:00:00Z', supersedes: 1 },
      { id: 2, text: 'C', valid_from: '2026-06-05T00:00:00Z', valid_to: null, supersedes: 3 },
    ]);
  });

  it('a refused script leaves the history as it was (the closing rolls back with it)', async () => {
    const store = await createStore();
    dsl(store, fact('A', '2026-06-01T00:00:00Z', 'e1'));
    const parsed = parseScript(fact('B', '2026-06-03T00:00:00Z', 'e2') + 'MERGE IDS "1", "99";');
    expect(run(store, parsed.irs, { now: NOW }).ok).toBe(false);
    expect(versions(store)).toEqual([{ id: 1, text: 'A', valid_from: '2026-06-01T00:00:00Z', valid_to: null, supersedes: null }]);
  });

  it('facts of other subjects or attributes are not touched; ordinary memories keep working', async () => {
    const store = await createStore();
    dsl(store, fact('A', '2026-06-01T00:00:00Z', 'e1') + fact('concise', '2026-06-01T00:00:00Z', 'e1', 'answer_style')
      + 'ENCODE "a plain note about mira" SUBJECT "mira";' + fact('B', '2026-06-02T00:00:00Z', 'e2'));
    const r = dsl(store, 'RETRIEVE WHERE subject = "mira" INCLUDE text;');
    expect(values(r, 0).sort()).toEqual(['B', 'a plain note about mira', 'concise']);
  });
});

describe('stale-fact invalidation', () => {
  it('a superseded version is not returned by default, by any target (filter, search, ids)', async () => {
    const store = await createStore();
    dsl(store, fact('2026-07-15', '2026-06-01T09:00:00Z', 'e1') + fact('2026-06-30', '2026-06-03T10:00:00Z', 'e2'));
    const r = dsl(store, `RETRIEVE WHERE subject = "mira" AND attribute = "passport_deadline" INCLUDE text;
RETRIEVE WHERE search "2026" LIMIT 10 INCLUDE text;
RETRIEVE IDS "1", "2" INCLUDE text;
SUMMARIZE WHERE subject = "mira";`);
    expect(values(r, 0)).toEqual(['2026-06-30']);
    expect(values(r, 1)).toEqual(['2026-06-30']);
    expect(values(r, 2)).toEqual(['2026-06-30']);
    expect(r.results[3].summary).toBe('2026-06-30');
  });

  it('writes act on the current version only; HISTORY lists every version, oldest first', async () => {
    const store = await createStore();
    dsl(store, fact('A', '2026-06-01T00:00:00Z', 'e1') + fact('B', '2026-06-03T00:00:00Z', 'e2'));
    const label = dsl(store, 'LABEL WHERE subject = "mira" AND attribute = "passport_deadline" LIMIT 10 TAGS "checked";');
    expect(label.results[0].ids).toEqual([2]);
    const h = dsl(store, 'RETRIEVE WHERE subject = "mira" AND attribute = "passport_deadline" HISTORY INCLUDE text, valid_from, valid_to, supersedes;');
    expect(h.results[0].rows).toEqual([
      { id: 1, text: 'A', valid_from: '2026-06-01T00:00:00Z', valid_to: '2026-06-03T00:00:00Z', supersedes: null },
      { id: 2, text: 'B', valid_from: '2026-06-03T00:00:00Z', valid_to: null, supersedes: 1 },
    ]);
  });
});

describe('point-in-time accuracy', () => {
  it('AS OF returns the version valid then, for every instant around the change', async () => {
    const store = await createStore();
    dsl(store, fact('2026-07-15', '2026-06-01T09:00:00Z', 'e1') + fact('2026-06-30', '2026-06-03T10:00:00Z', 'e2'));
    const at = (t: string) => values(dsl(store, `RETRIEVE WHERE subject = "mira" AND attribute = "passport_deadline" AS OF ${t} INCLUDE text;`), 0);
    expect(at('2026-05-31T00:00:00Z')).toEqual([]);
    expect(at('2026-06-01T09:00:00Z')).toEqual(['2026-07-15']);
    expect(at('2026-06-02T00:00:00Z')).toEqual(['2026-07-15']);
    expect(at('2026-06-03T09:59:59Z')).toEqual(['2026-07-15']);
    expect(at('2026-06-03T10:00:00Z')).toEqual(['2026-06-30']);
    expect(at('2026-06-03T12:00:00+02:00')).toEqual(['2026-06-30']);
  });

  it('AS OF sees ordinary memories created by then, not yet deleted or expired then', async () => {
    const store = await createStore();
    dsl(store, 'ENCODE "old" TAGS "n";', { now: '2026-06-01T00:00:00Z' });
    dsl(store, 'ENCODE "new" TAGS "n";', { now: '2026-06-05T00:00:00Z' });
    dsl(store, 'DELETE IDS "2" SOFT; EXPIRE IDS "1" TTL P1D;', { now: '2026-06-07T00:00:00Z' });
    const at = (t: string) => values(dsl(store, `RETRIEVE WHERE tags HAS "n" AS OF ${t} INCLUDE text;`, { now: '2026-06-20T00:00:00Z' }), 0).sort();
    expect(at('2026-05-31T00:00:00Z')).toEqual([]);
    expect(at('2026-06-02T00:00:00Z')).toEqual(['old']);
    expect(at('2026-06-06T00:00:00Z')).toEqual(['new', 'old']);
    // #2 was deleted on 06-07, #1 expired on 06-08.
    expect(at('2026-06-07T12:00:00Z')).toEqual(['old']);
    expect(at('2026-06-09T00:00:00Z')).toEqual([]);
  });
});

describe('tenant isolation', () => {
  it('the same fact key in two tenants has two independent histories', async () => {
    const store = await createStore();
    dsl(store, fact('acme-1', '2026-06-01T00:00:00Z', 'a1'), { tenant: 'acme' });
    dsl(store, fact('globex-1', '2026-06-02T00:00:00Z', 'g1'), { tenant: 'globex' });
    dsl(store, fact('acme-2', '2026-06-03T00:00:00Z', 'a2'), { tenant: 'acme' });
    expect(versions(store, 'globex')).toEqual([{ id: 2, text: 'globex-1', valid_from: '2026-06-02T00:00:00Z', valid_to: null, supersedes: null }]);
    expect(values(dsl(store, 'RETRIEVE WHERE subject = "mira" INCLUDE text;', { tenant: 'globex' }), 0)).toEqual(['globex-1']);
    expect(values(dsl(store, 'RETRIEVE WHERE subject = "mira" INCLUDE text;', { tenant: 'acme' }), 0)).toEqual(['acme-2']);
  });

  it("ids, audit, sweep and why of another tenant are invisible", async () => {
    const store = await createStore();
    dsl(store, 'ENCODE "secret" TAGS "t"; EXPIRE IDS "1" TTL P1D;', { tenant: 'acme' });
    const r = dsl(store, 'RETRIEVE IDS "1"; DELETE IDS "1" HARD;', { tenant: 'globex' });
    expect(r.results.map((x) => x.ids)).toEqual([[], []]);
    expect(r.diagnostics.map((d) => d.code)).toContain('ids-not-found');
    expect(auditLog(store, undefined, 'globex')).toEqual([]);
    expect(sweep(store, '2026-12-01T00:00:00Z', 'system:sweep', 'globex')).toMatchObject({ applied: [] });
    expect(why(store, 1, { tenant: 'globex' })).toMatchObject({ ok: false, diagnostics: [{ code: 'why-not-found' }] });
    expect(store.query('SELECT deleted FROM memory WHERE id = 1')).toEqual([{ deleted: 0 }]);
  });

  it('a blank tenant is refused before anything runs', async () => {
    const store = await createStore();
    expect(run(store, textToIr('ENCODE "x";').irs, { now: NOW, tenant: ' ' })).toMatchObject({ ok: false, diagnostics: [{ code: 'bad-tenant' }] });
    expect(sweep(store, NOW, 'system:sweep', '')).toMatchObject({ diagnostics: [{ code: 'bad-tenant' }] });
    expect(why(store, 1, { tenant: '' })).toMatchObject({ ok: false, diagnostics: [{ code: 'bad-tenant' }] });
    expect(store.query('SELECT count(*) AS n FROM memory')).toEqual([{ n: 0 }]);
  });

  it('a script cannot choose its tenant: tenant is no IR field a run reads', async () => {
    const store = await createStore();
    const r = run(store, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, tenant: 'acme' } }], { now: NOW });
    expect(r.diagnostics.map((d) => d.code)).toContain('ignored-arg');
    expect(store.query('SELECT tenant FROM memory')).toEqual([{ tenant: 'default' }]);
  });
});

describe('deletion correctness', () => {
  it('a hard DELETE removes the record from every index (the tag index) and from reads', async () => {
    const store = await createStore();
    dsl(store, 'ENCODE "gone" TAGS "a", "b"; ENCODE "kept" TAGS "a";');
    dsl(store, 'DELETE IDS "1" HARD;');
    expect(store.query('SELECT memory_id, tag FROM memory_tag ORDER BY memory_id, tag')).toEqual([{ memory_id: 2, tag: 'a' }]);
    expect(values(dsl(store, 'RETRIEVE WHERE tags HAS "a" INCLUDE text;'), 0)).toEqual(['kept']);
  });

  it('deleting an ephemeral fact erases its history: every version and their audit images', async () => {
    const store = await createStore();
    dsl(store, `ENCODE "A" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-01T00:00:00Z RETENTION ephemeral;
ENCODE "B" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-02T00:00:00Z RETENTION ephemeral;`);
    dsl(store, 'DELETE WHERE subject = "mira" AND attribute = "mood" LIMIT 1 HARD;');
    expect(store.query(`SELECT count(*) AS n FROM memory WHERE attribute = 'mood'`)).toEqual([{ n: 0 }]);
    for (const e of auditLog(store)) {
      expect(JSON.stringify([e.before, e.after, e.ir])).not.toMatch(/"A"|"B"/);
    }
  });

  it('the sweep that ends an ephemeral fact erases it and its ephemeral history, never a durable version', async () => {
    const store = await createStore();
    dsl(store, `ENCODE "A" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-01T00:00:00Z RETENTION ephemeral;
ENCODE "B" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-02T00:00:00Z RETENTION durable;`);
    expect(sweep(store, '2026-06-12T00:00:00Z')).toMatchObject({ applied: [{ id: 1, action: 'hard_delete' }] });
    expect(store.query(`SELECT id, text FROM memory WHERE attribute = 'mood'`)).toEqual([{ id: 2, text: 'B' }]);
    for (const e of auditLog(store)) expect(JSON.stringify([e.before, e.after, e.ir])).not.toMatch(/"A"/);
  });

  it('deleting a durable fact removes that version only; its history stays', async () => {
    const store = await createStore();
    dsl(store, fact('A', '2026-06-01T00:00:00Z', 'e1') + fact('B', '2026-06-02T00:00:00Z', 'e2'));
    dsl(store, 'DELETE WHERE subject = "mira" AND attribute = "passport_deadline" LIMIT 1 HARD;');
    expect(versions(store).map((v) => v.text)).toEqual(['A']);
  });

  it('legal_hold refuses deletion and expiry; ephemeral and session records expire', async () => {
    const store = await createStore();
    dsl(store, `ENCODE "held" RETENTION legal_hold; ENCODE "brief" RETENTION ephemeral; ENCODE "chat" RETENTION session;`);
    const refused = run(store, parseScript('DELETE IDS "1" SOFT;').irs, { now: NOW });
    expect(refused).toMatchObject({ ok: false, diagnostics: [{ code: 'retention-held' }] });
    expect(run(store, parseScript('EXPIRE IDS "1" TTL P1D;').irs, { now: NOW }).diagnostics[0].code).toBe('retention-held');
    expect(store.query('SELECT id, expire_at, expire_action FROM memory ORDER BY id')).toEqual([
      { id: 1, expire_at: null, expire_action: null },
      { id: 2, expire_at: '2026-06-11T00:00:00Z', expire_action: 'hard_delete' },
      { id: 3, expire_at: '2026-07-10T00:00:00Z', expire_action: 'soft_delete' },
    ]);
    sweep(store, '2026-06-12T00:00:00Z');
    expect(store.query('SELECT id FROM memory ORDER BY id')).toEqual([{ id: 1 }, { id: 3 }]);
  });
});

describe('provenance', () => {
  it('every read result names the actor, run, statement and episode of each record; why follows the chain', async () => {
    const store = await createStore();
    dsl(store, fact('2026-07-15', '2026-06-01T09:00:00Z', 'e1'), { actor: 'ingest', traceId: 'run-1' });
    dsl(store, fact('2026-06-30', '2026-06-03T10:00:00Z', 'e2'), { actor: 'ingest', traceId: 'run-2' });
    const r = dsl(store, 'RETRIEVE WHERE subject = "mira" INCLUDE text;');
    expect(r.results[0].provenance).toEqual({ 2: { actor: 'ingest', trace_id: 'run-2', statement: 0, episode: 'e2', supersedes: 1 } });
    const w = why(store, 2);
    expect(w).toMatchObject({ ok: true, chain: [{ id: 2, episode: 'e2', traceId: 'run-2', supersedes: 1 }, { id: 1, episode: 'e1', traceId: 'run-1', validTo: '2026-06-03T10:00:00Z' }] });
    if (w.ok) expect(w.audit.map((e) => e.traceId)).toEqual(['run-1', 'run-2']);
  });
});

describe('checker', () => {
  const codes = (text: string) => {
    const p = parseScript(text);
    return [...p.diagnostics].map((d) => ({ code: d.code, at: text.slice(d.range!.start.offset, d.range!.end.offset) }));
  };
  it('reports facts without a key, fact clauses without a fact, AS OF with HISTORY and bad times at their clause', () => {
    expect(codes('ENCODE "x" ATTRIBUTE "a";')).toEqual([{ code: 'fact-needs-subject', at: '"a"' }]);
    expect(codes('ENCODE "x" VALID FROM 2026-06-01T00:00:00Z;')).toEqual([{ code: 'fact-needs-attribute', at: '2026-06-01T00:00:00Z' }]);
    expect(codes('RETRIEVE ALL AS OF 2026-06-02 HISTORY CONFIRM;')).toEqual([{ code: 'invalid-datetime', at: '2026-06-02' }, { code: 'as-of-with-history', at: 'HISTORY' }]);
    expect(codes('RETRIEVE ALL AS OF "June 2" CONFIRM;')).toEqual([{ code: 'invalid-datetime', at: '"June 2"' }]);
    expect(codes('ENCODE "x" RETENTION forever;')).toEqual([{ code: 'invalid-enum', at: 'forever' }]);
    // AS OF with HISTORY: the fix removes HISTORY.
    const text = 'RETRIEVE WHERE subject = mira AS OF 2026-06-02T00:00:00Z HISTORY;';
    const [d] = textToIr(text).diagnostics;
    expect(d.code).toBe('as-of-with-history');
    const edit = d.fix!.edits[0];
    expect(text.slice(0, edit.range.start.offset) + edit.newText + text.slice(edit.range.end.offset)).toBe('RETRIEVE WHERE subject = mira AS OF 2026-06-02T00:00:00Z;');
  });
});
