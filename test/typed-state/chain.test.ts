/**
 * Fact versions as a state machine (spec/semantics.md "Fact versions"): each chain defect found
 * on ordinary edits, as a test, on sql.js and on PGlite; after every step the invariant "for any
 * key and instant at most one version is valid" (test/support/facts.ts) is checked through the
 * engine's own read SQL.
 */
import { describe, expect, it } from 'vitest';
import { auditLog, sweep, undo, why } from '../../src/engine/index.js';
import { atMostOneValid } from '../support/facts.js';
import { storeCases, tenantRunner } from './fixture.js';

const NOW = '2026-06-10T00:00:00Z';
let tenants = 0;

// One PGlite instance for the file; each test works in a tenant of its own.
describe.each(storeCases())('fact chains on %s', (_name, open) => {
  /** A store and a fresh tenant, with helpers bound to them. */
  async function setup() {
    const { store, tenant, exec, ok } = tenantRunner(await open(), `t${++tenants}`, NOW);
    /** Writes a fact; its id. */
    const fact = async (value: string, validFrom: string, subject = 'mira', attribute = 'deadline') =>
      (await ok(`ENCODE "${value}" SUBJECT "${subject}" ATTRIBUTE "${attribute}" VALID FROM ${validFrom};`)).results[0].ids[0];
    /** The texts a read of the key returns AS OF `t` (or now). */
    const at = async (t?: string, subject = 'mira', attribute = 'deadline') =>
      ((await ok(`RETRIEVE WHERE subject = "${subject}" AND attribute = "${attribute}" LIMIT 10${t ? ` AS OF ${t}` : ''} INCLUDE text;`)).results[0].rows ?? []).map((r) => r.text);
    /** The key's versions, live or not, by valid_from. */
    const chain = async (subject = 'mira', attribute = 'deadline') => {
      const rows = await store.driveAsync(function* () {
        const d = store.dialect;
        return (yield { kind: 'all', sql: `SELECT id, text, valid_from, valid_to, supersedes, deleted FROM memory WHERE tenant = ${d.placeholder(0)} AND subject = ${d.placeholder(1)} AND attribute = ${d.placeholder(2)} ORDER BY valid_from, id`, params: [tenant, subject, attribute] }) as Record<string, unknown>[];
      }());
      return rows.map((r) => ({ id: Number(r.id), text: r.text, valid_from: r.valid_from, valid_to: r.valid_to ?? null, supersedes: r.supersedes === null ? null : Number(r.supersedes), deleted: Number(r.deleted) }));
    };
    const invariant = async () => expect(await atMostOneValid(store, tenant, NOW)).toEqual([]);
    const lastAudit = async (op: string) => (await auditLog(store, undefined, tenant)).filter((e) => e.op === op).at(-1)!.id;
    return { store, tenant, exec, ok, fact, at, chain, invariant, lastAudit };
  }

  describe('retracting a version re-links its neighbours', () => {
    it('deleting a version, then writing a new value: AS OF answers one value at every instant', async () => {
      const s = await setup();
      const a = await s.fact('A', '2026-06-01T00:00:00Z');
      const b = await s.fact('B', '2026-06-03T00:00:00Z');
      await s.ok(`DELETE IDS "${b}" SOFT;`);
      // The earlier value is valid again: B was retracted, not ended.
      expect(await s.at()).toEqual(['A']);
      await s.invariant();
      const c = await s.fact('C', '2026-06-05T00:00:00Z');
      expect(await s.at('2026-06-04T00:00:00Z')).toEqual(['A']);
      expect(await s.at('2026-06-02T00:00:00Z')).toEqual(['A']);
      expect(await s.at('2026-06-06T00:00:00Z')).toEqual(['C']);
      await s.invariant();
      expect((await s.chain()).filter((v) => !v.deleted)).toEqual([
        { id: a, text: 'A', valid_from: '2026-06-01T00:00:00Z', valid_to: '2026-06-05T00:00:00Z', supersedes: null, deleted: 0 },
        { id: c, text: 'C', valid_from: '2026-06-05T00:00:00Z', valid_to: null, supersedes: a, deleted: 0 },
      ]);
    });

    it('a retracted version is valid at no instant, before its deletion included', async () => {
      const s = await setup();
      await s.fact('A', '2026-06-01T00:00:00Z');
      const b = await s.fact('B', '2026-06-03T00:00:00Z');
      await s.ok(`DELETE IDS "${b}" SOFT;`);
      expect(await s.at('2026-06-04T00:00:00Z')).toEqual(['A']);
      await s.invariant();
    });

    it('retracting a middle version links its neighbours; why walks the new chain', async () => {
      const s = await setup();
      const a = await s.fact('A', '2026-06-01T00:00:00Z');
      const b = await s.fact('B', '2026-06-03T00:00:00Z');
      const c = await s.fact('C', '2026-06-05T00:00:00Z');
      await s.ok(`DELETE IDS "${b}" HARD;`);
      expect(await s.chain()).toEqual([
        { id: a, text: 'A', valid_from: '2026-06-01T00:00:00Z', valid_to: '2026-06-05T00:00:00Z', supersedes: null, deleted: 0 },
        { id: c, text: 'C', valid_from: '2026-06-05T00:00:00Z', valid_to: null, supersedes: a, deleted: 0 },
      ]);
      const w = await why(s.store, c, { tenant: s.tenant });
      expect(w.ok && w.chain.map((p) => p.id)).toEqual([c, a]);
      await s.invariant();
    });

    it('reopening a neighbour is a write to it: a lock on it refuses the retraction, and nothing changes', async () => {
      const s = await setup();
      const a = await s.fact('A', '2026-06-01T00:00:00Z');
      // Append-only: closing A (an empty valid_to filled) adds; reopening it would change it.
      await s.ok(`LOCK IDS "${a}" MODE append_only;`);
      const b = await s.fact('B', '2026-06-03T00:00:00Z');
      const before = await s.chain();
      const r = await s.exec(`DELETE IDS "${b}" SOFT;`);
      expect(r.ok).toBe(false);
      expect(r.diagnostics.map((d) => d.code)).toContain('record-locked');
      expect(await s.chain()).toEqual(before);
    });
  });

  describe('merge and split', () => {
    it('a fact version merged into another record is retracted (its neighbour reopens); merging into a fact version is refused', async () => {
      const s = await setup();
      const note = (await s.ok('ENCODE "a note" TAGS "n";')).results[0].ids[0];
      const a = await s.fact('A', '2026-06-01T00:00:00Z');
      const b = await s.fact('B', '2026-06-03T00:00:00Z');
      const into = await s.exec(`MERGE IDS "${b}", "${note}" INTO "${b}";`);
      expect(into.ok).toBe(false);
      expect(into.diagnostics.map((d) => d.code)).toContain('fact-version-immutable');
      await s.ok(`MERGE IDS "${note}", "${b}" INTO "${note}";`);
      expect((await s.chain()).map((v) => [v.id, v.valid_to, v.deleted])).toEqual([[a, null, 0], [b, null, 1]]);
      expect(await s.at()).toEqual(['A']);
      await s.invariant();
    });

    it('a fact version split into pieces is retracted', async () => {
      const s = await setup();
      const a = await s.fact('A', '2026-06-01T00:00:00Z');
      const b = await s.fact('One. Two.', '2026-06-03T00:00:00Z');
      await s.ok(`SPLIT IDS "${b}";`);
      expect((await s.chain()).map((v) => [v.id, v.valid_to, v.deleted])).toEqual([[a, null, 0], [b, null, 1]]);
      await s.invariant();
    });
  });

  describe('the sweep', () => {
    it('a version the sweep deletes is retracted: its neighbour reopens, and the sweep\'s entry records the link', async () => {
      const s = await setup();
      const a = await s.fact('A', '2026-06-01T00:00:00Z');
      const b = (await s.ok('ENCODE "B" SUBJECT "mira" ATTRIBUTE "deadline" VALID FROM 2026-06-03T00:00:00Z RETENTION session;')).results[0].ids[0];
      const r = await sweep(s.store, '2026-07-11T00:00:00Z', 'system:sweep', s.tenant);
      expect(r).toMatchObject({ applied: [{ id: b, action: 'soft_delete' }] });
      expect((await s.chain()).map((v) => [v.id, v.valid_to, v.deleted])).toEqual([[a, null, 0], [b, null, 1]]);
      const entry = (await auditLog(s.store, undefined, s.tenant)).at(-1)!;
      expect(entry).toMatchObject({ op: 'Sweep', after: { [a]: { valid_to: null } } });
      await s.invariant();
    });
  });

  describe('undo restores exactly the previous chain', () => {
    it('undoing a retraction gives back the chain as it was', async () => {
      const s = await setup();
      await s.fact('A', '2026-06-01T00:00:00Z');
      const b = await s.fact('B', '2026-06-03T00:00:00Z');
      await s.fact('C', '2026-06-05T00:00:00Z');
      const before = await s.chain();
      await s.ok(`DELETE IDS "${b}" SOFT;`);
      const u = await undo(s.store, await s.lastAudit('Delete'), { tenant: s.tenant, now: NOW });
      expect(u.ok).toBe(true);
      expect(await s.chain()).toEqual(before);
      await s.invariant();
    });

    it('undoing a retraction after a later write leaves one current value, the chain re-linked', async () => {
      const s = await setup();
      const a = await s.fact('A', '2026-06-01T00:00:00Z');
      const b = await s.fact('B', '2026-06-03T00:00:00Z');
      await s.ok(`DELETE IDS "${b}" SOFT;`);
      const deletion = await s.lastAudit('Delete');
      const c = await s.fact('C', '2026-06-05T00:00:00Z');
      expect((await undo(s.store, deletion, { tenant: s.tenant, now: NOW })).ok).toBe(true);
      expect(await s.at()).toEqual(['C']);
      expect(await s.at('2026-06-04T00:00:00Z')).toEqual(['B']);
      expect((await s.chain()).map((v) => [v.id, v.valid_to, v.supersedes])).toEqual([
        [a, '2026-06-03T00:00:00Z', null], [b, '2026-06-05T00:00:00Z', a], [c, null, b],
      ]);
      await s.invariant();
    });

    it('the undo entry records the links it changed; undo under a lock on a neighbour is refused', async () => {
      const s = await setup();
      const a = await s.fact('A', '2026-06-01T00:00:00Z');
      const b = await s.fact('B', '2026-06-03T00:00:00Z');
      await s.ok(`DELETE IDS "${b}" SOFT;`);
      const deletion = await s.lastAudit('Delete');
      await s.ok(`LOCK IDS "${a}" MODE read_only;`);
      const before = await s.chain();
      const refused = await undo(s.store, deletion, { tenant: s.tenant, now: NOW });
      expect(refused).toMatchObject({ ok: false, diagnostics: [{ code: 'record-locked' }] });
      expect(await s.chain()).toEqual(before);
    });
  });

  describe("a change of a fact's value or key", () => {
    it('UPDATE of a fact version\'s text is refused with a fix, and history is kept', async () => {
      const s = await setup();
      await s.fact('A', '2026-06-01T00:00:00Z');
      const b = await s.fact('B', '2026-06-03T00:00:00Z');
      const before = await s.chain();
      const r = await s.exec(`UPDATE IDS "${b}" SET text = "B2";`);
      expect(r.ok).toBe(false);
      const d = r.diagnostics.find((x) => x.code === 'fact-version-immutable');
      expect(d?.message).toMatch(/ENCODE "B2" SUBJECT "mira" ATTRIBUTE "deadline"/);
      expect(await s.chain()).toEqual(before);
      // Other fields of a fact version may still be updated; ordinary memories keep UPDATE SET text.
      await s.ok(`UPDATE IDS "${b}" SET source = "email";`);
      const n = (await s.ok('ENCODE "note" SUBJECT "mira";')).results[0].ids[0];
      await s.ok(`UPDATE IDS "${n}" SET text = "note 2";`);
    });

    it('UPDATE SET subject cannot move a record into a key whose current version is locked (nor any fact version elsewhere)', async () => {
      const s = await setup();
      const x = await s.fact('locked value', '2026-06-01T00:00:00Z');
      await s.ok(`LOCK IDS "${x}" MODE read_only;`);
      const y = await s.fact('intruder', '2026-06-05T00:00:00Z', 'bob');
      const before = await s.chain();
      for (const write of [`UPDATE IDS "${y}" SET subject = "mira";`, `UPDATE IDS "${y}" SET facets = { subject: "mira" };`, `LABEL IDS "${y}" FACETS { subject: "mira" };`]) {
        const r = await s.exec(write);
        expect(r.ok, write).toBe(false);
        expect(r.diagnostics.map((d) => d.code)).toContain('fact-version-immutable');
      }
      expect(await s.chain()).toEqual(before);
      expect(await s.at()).toEqual(['locked value']);
      await s.invariant();
    });
  });

  describe('scheduled and superseded versions are retractable by id', () => {
    it('DELETE IDS cancels a scheduled change; the current value stays open', async () => {
      const s = await setup();
      const a = await s.fact('A', '2026-06-01T00:00:00Z');
      const later = await s.fact('L', '2026-07-01T00:00:00Z');
      expect(await s.at('2026-07-02T00:00:00Z')).toEqual(['L']);
      const r = await s.ok(`DELETE IDS "${later}" SOFT;`);
      expect(r.results[0].ids).toEqual([later]);
      expect(r.diagnostics.map((d) => d.code)).not.toContain('ids-not-found');
      expect(await s.at('2026-07-02T00:00:00Z')).toEqual(['A']);
      expect((await s.chain()).filter((v) => !v.deleted)).toEqual([{ id: a, text: 'A', valid_from: '2026-06-01T00:00:00Z', valid_to: null, supersedes: null, deleted: 0 }]);
      await s.invariant();
    });

    it('DELETE IDS retracts a superseded version (soft and hard); other verbs still reach only the current one', async () => {
      const s = await setup();
      const a = await s.fact('A', '2026-06-01T00:00:00Z');
      const b = await s.fact('B', '2026-06-03T00:00:00Z');
      const c = await s.fact('C', '2026-06-05T00:00:00Z');
      const label = await s.exec(`LABEL IDS "${a}" TAGS "x";`);
      expect(label.diagnostics.map((d) => d.code)).toContain('ids-not-found');
      await s.ok(`DELETE IDS "${a}" HARD;`);
      await s.ok(`DELETE IDS "${b}" SOFT;`);
      expect(await s.chain()).toEqual([
        { id: b, text: 'B', valid_from: '2026-06-03T00:00:00Z', valid_to: '2026-06-05T00:00:00Z', supersedes: null, deleted: 1 },
        { id: c, text: 'C', valid_from: '2026-06-05T00:00:00Z', valid_to: null, supersedes: null, deleted: 0 },
      ]);
      expect(await s.at('2026-06-02T00:00:00Z')).toEqual([]);
      await s.invariant();
    });
  });

  it('atMostOneValid finds two versions valid at once (a chain broken by hand)', async () => {
    const s = await setup();
    const a = await s.fact('A', '2026-06-01T00:00:00Z');
    const b = await s.fact('B', '2026-06-03T00:00:00Z');
    await s.store.driveAsync(function* () {
      yield { kind: 'run', sql: `UPDATE memory SET valid_to = NULL WHERE id = ${s.store.dialect.placeholder(0)}`, params: [a] };
    }());
    expect(await atMostOneValid(s.store, s.tenant, NOW)).toEqual([
      { subject: 'mira', attribute: 'deadline', at: '2026-06-03T00:00:00Z', ids: [a, b] },
      { subject: 'mira', attribute: 'deadline', at: '2026-06-10T00:00:00Z', ids: [a, b] },
      { subject: 'mira', attribute: 'deadline', at: 'now', ids: [a, b] },
    ]);
  });

  it('random writes, retractions and undos keep at most one valid version per key and instant', async () => {
    const s = await setup();
    // mulberry32: a small seeded generator (the same steps on every run).
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (((t ^ (t >>> 14)) >>> 0) % n);
    };
    const days = ['01', '03', '05', '07', '20'];
    for (let step = 0; step < 40; step++) {
      const live = (await s.chain()).filter((v) => !v.deleted);
      const k = rand(4);
      if (k <= 1 || !live.length) await s.fact(`v${step}`, `2026-06-${days[rand(days.length)]}T00:00:00Z`);
      else if (k === 2) await s.ok(`DELETE IDS "${live[rand(live.length)].id}" ${rand(2) ? 'SOFT' : 'HARD'};`);
      else {
        const open = (await auditLog(s.store, undefined, s.tenant)).filter((e) => e.op === 'Delete' && e.undoneBy === null);
        if (open.length) await undo(s.store, open[rand(open.length)].id, { tenant: s.tenant, now: NOW });
      }
      await s.invariant();
    }
  });
});
