/**
 * Retention class changes (spec/semantics.md "Typed state", "Retention class changes"): UPDATE …
 * SET retention re-derives the expiry from the change's time, an explicit expiry wins, legal_hold
 * clears it, an ephemeral or session record is never left without one — on sql.js and PGlite.
 */
import { describe, expect, it } from 'vitest';
import { auditLog, sweep, undo } from '../../src/engine/index.js';
import { retentionExpiry } from '../../src/execute/retention.js';
import { storeCases, tenantRunner } from './fixture.js';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T06:00:00Z';
let tenants = 0;

describe.each(storeCases('retention'))('retention class changes on %s', (_name, open) => {
  async function setup() {
    const { store, tenant, exec, ok } = tenantRunner(await open(), `r${++tenants}`, T1);
    const encode = async (retention: string) => (await ok(`ENCODE "note" SUBJECT mira ATTRIBUTE a RETENTION ${retention};`, { now: T0 })).results[0].ids[0];
    const state = async (id: number) => {
      const [row] = await store.driveAsync(function* () {
        const d = store.dialect;
        return (yield { kind: 'all', sql: `SELECT retention, expire_at, expire_action, deleted FROM memory WHERE tenant = ${d.placeholder(0)} AND id = ${d.placeholder(1)}`, params: [tenant, id] }) as Record<string, unknown>[];
      }());
      return row ? { retention: row.retention, expire_at: row.expire_at ?? null, expire_action: row.expire_action ?? null, deleted: Number(row.deleted) } : undefined;
    };
    return { store, tenant, exec, ok, encode, state };
  }

  it('ephemeral → durable clears the class expiry; the sweep keeps the record', async () => {
    const s = await setup();
    const id = await s.encode('ephemeral');
    expect(await s.state(id)).toEqual({ retention: 'ephemeral', expire_at: '2026-01-02T00:00:00Z', expire_action: 'hard_delete', deleted: 0 });
    const r = await s.ok(`UPDATE ID ${id} SET retention durable;`);
    expect(r.results[0].changes[0]).toMatchObject({ before: { retention: 'ephemeral', expire_at: '2026-01-02T00:00:00Z', expire_action: 'hard_delete' }, after: { retention: 'durable', expire_at: null, expire_action: null } });
    expect(await s.state(id)).toEqual({ retention: 'durable', expire_at: null, expire_action: null, deleted: 0 });
    const swept = await sweep(s.store, '2026-03-01T00:00:00Z', 'system:sweep', s.tenant);
    expect('diagnostics' in swept).toBe(false);
    expect((await s.state(id))?.deleted).toBe(0);
  });

  it('durable → session → ephemeral: each class lifetime counted from the change', async () => {
    const s = await setup();
    const id = await s.encode('durable');
    expect(await s.state(id)).toMatchObject({ expire_at: null });
    await s.ok(`UPDATE ID ${id} SET retention session;`);
    expect(await s.state(id)).toEqual({ retention: 'session', expire_at: '2026-01-31T06:00:00Z', expire_action: 'soft_delete', deleted: 0 });
    await s.ok(`UPDATE ID ${id} SET retention ephemeral;`, { now: '2026-01-02T00:00:00Z' });
    expect(await s.state(id)).toEqual({ retention: 'ephemeral', expire_at: '2026-01-03T00:00:00Z', expire_action: 'hard_delete', deleted: 0 });
    // The same class again changes nothing (the lifetime does not restart).
    await s.ok(`UPDATE ID ${id} SET retention ephemeral;`, { now: '2026-01-02T12:00:00Z' });
    expect((await s.state(id))?.expire_at).toBe('2026-01-03T00:00:00Z');
  });

  it('an explicit expiry in the same statement wins; an expiry set by EXPIRE stays on a durable record', async () => {
    const s = await setup();
    const id = await s.encode('durable');
    await s.ok(`UPDATE ID ${id} SET retention session, ttl P7D;`);
    expect(await s.state(id)).toMatchObject({ retention: 'session', expire_at: '2026-01-08T06:00:00Z' });
    const other = await s.encode('durable');
    await s.ok(`EXPIRE ID ${other} TTL P3D;`);
    await s.ok(`UPDATE ID ${other} SET retention durable;`);
    expect(await s.state(other)).toMatchObject({ retention: 'durable', expire_at: '2026-01-04T06:00:00Z' });
  });

  it('legal_hold clears any expiry, and a held record never leaves its class', async () => {
    const s = await setup();
    const id = await s.encode('session');
    await s.ok(`UPDATE ID ${id} SET retention legal_hold;`);
    expect(await s.state(id)).toEqual({ retention: 'legal_hold', expire_at: null, expire_action: null, deleted: 0 });
    const r = await s.exec(`UPDATE ID ${id} SET retention durable;`);
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(['retention-held']);
    const withExpiry = await s.exec(`UPDATE ID ${await s.encode('durable')} SET retention legal_hold, ttl P1D;`);
    expect(withExpiry.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.path])).toEqual([['retention-expiry', 'args.set.retention']]);
  });

  it('a class that is not one is bad-arg, and nothing changes', async () => {
    const s = await setup();
    const id = await s.encode('ephemeral');
    const r = await s.exec(`UPDATE ID ${id} SET retention forever;`);
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(['bad-arg']);
    expect((await s.state(id))?.retention).toBe('ephemeral');
  });

  it('undo of a session record swept at its expiry gives it its class lifetime again, from the undo', async () => {
    const s = await setup();
    const id = await s.encode('session');
    await sweep(s.store, '2026-02-01T00:00:00Z', 'system:sweep', s.tenant);
    expect((await s.state(id))?.deleted).toBe(1);
    const entry = (await auditLog(s.store, undefined, s.tenant)).at(-1)!;
    const u = await undo(s.store, entry.id, { now: '2026-02-02T00:00:00Z', tenant: s.tenant });
    expect(u).toMatchObject({ ok: true, restored: [id], unexpired: [id] });
    expect(await s.state(id)).toEqual({ retention: 'session', expire_at: '2026-03-04T00:00:00Z', expire_action: 'soft_delete', deleted: 0 });
  });
});

describe('retentionExpiry', () => {
  const now = '2026-01-01T00:00:00Z';
  it('refuses to leave an ephemeral or session record without an expiry', () => {
    const r = retentionExpiry({ id: 7, retention: 'ephemeral', expire_at: '2026-01-02T00:00:00Z' }, { expire_at: null }, now);
    expect('refusal' in r && r.refusal).toContain('memory #7 is of retention class ephemeral, which keeps an expiry (P1D from when it is set)');
    expect('refusal' in r && r.refusal).toContain('SET retention "durable"');
    expect('refusal' in retentionExpiry({ id: 7, retention: 'session', expire_at: null }, { retention: 'session' }, now)).toBe(true);
    expect(retentionExpiry({ id: 7, retention: 'durable', expire_at: '2026-01-02T00:00:00Z' }, { expire_at: null }, now)).toEqual({ set: {} });
  });

  it('re-derives on a change of class only', () => {
    expect(retentionExpiry({ id: 1, retention: 'durable', expire_at: null }, { retention: 'ephemeral' }, now)).toEqual({ set: { expire_at: '2026-01-02T00:00:00Z', expire_action: 'hard_delete' } });
    expect(retentionExpiry({ id: 1, retention: null, expire_at: null }, { retention: 'durable' }, now)).toEqual({ set: {} });
    expect(retentionExpiry({ id: 1, retention: 'session', expire_at: '2026-01-09T00:00:00Z' }, { retention: 'session' }, now)).toEqual({ set: {} });
  });
});
