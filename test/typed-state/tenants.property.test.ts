/**
 * Tenant isolation as a property (spec/semantics.md "Tenants"): random scripts of every verb run
 * in one tenant of a store shared with another, and never read nor change the other's records or
 * audit log. One in-memory store serves every script: each runs inside a transaction that is
 * rolled back, so the two tenants start every script from the same state. 10,000 scripts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { run, sweep, undo, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';

const NOW = '2026-06-10T00:00:00Z';
const TENANTS = ['acme', 'globex'] as const;
const TAGS = ['x', 'y'];

async function sharedStore(): Promise<Store> {
  const store = await createStore();
  // Interleaved ids, the same texts, tags and fact keys in both tenants: any target that crossed
  // the boundary would find a match.
  for (let i = 0; i < 4; i++) {
    for (const tenant of TENANTS) {
      const r = run(store, [
        { stage: 'ENC', op: 'Encode', args: { payload: { text: `apple note ${i}. Second sentence.` }, tags: [TAGS[i % 2]], subject: 'mira' } },
        { stage: 'ENC', op: 'Encode', args: { payload: { text: `2026-07-${10 + i}` }, subject: 'mira', attribute: 'deadline', valid_from: `2026-06-0${1 + i}T00:00:00Z`, episode: `e${i}` } },
      ], { now: NOW, tenant });
      if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    }
  }
  // A due expiry and a soft delete in each tenant, for sweep and undo to find.
  for (const tenant of TENANTS) {
    const r = run(store, [
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'apple due' }, tags: ['x'], expire_at: '2026-06-01T00:00:00Z' } },
      { stage: 'STO', op: 'Delete', target: { filter: { has_tags: ['y'], limit: 1 } }, args: { soft: true } },
    ], { now: '2026-05-01T00:00:00Z', tenant });
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
  }
  return store;
}

const ids = fc.uniqueArray(fc.integer({ min: 1, max: 20 }).map(String), { minLength: 1, maxLength: 4 });
const target = fc.oneof(
  ids.map((x) => ({ ids: x })),
  fc.constantFrom(...TAGS).map((t) => ({ filter: { has_tags: [t], limit: 3 } })),
  fc.constant({ filter: { subject: 'mira', attribute: 'deadline' } }),
  fc.constant({ search: { intent: { query: 'apple note' }, limit: 3 } }),
  fc.constant({ all: true }),
);
// Transaction time too: KNOWN AT before the shared store was written, between its two
// recording times, and now (alone, with AS OF or with HISTORY).
const read = fc.record({
  op: fc.constantFrom('Retrieve', 'Summarize'), target, asOf: fc.option(fc.constantFrom('2026-06-02T12:00:00Z', '2026-06-09T00:00:00Z')), history: fc.boolean(),
  knownAt: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constantFrom('2026-04-01T00:00:00Z', '2026-05-15T00:00:00Z', NOW) }),
}).map(({ op, target: t, asOf, history, knownAt }) => ({
  stage: 'RET', op, target: t,
  args: { ...(asOf ? { as_of: asOf } : op === 'Retrieve' && history ? { history: true } : {}), ...(knownAt ? { known_at: knownAt } : {}) }, meta: { confirmation: true },
}));
const write = fc.record({
  op: fc.constantFrom('Update', 'Label', 'Promote', 'Demote', 'Merge', 'Split', 'Lock', 'Expire', 'Delete'),
  target,
  soft: fc.boolean(),
}).map(({ op, target: t, soft }) => {
  const args: Record<string, unknown> = {
    Update: { set: { text: 'changed' } }, Label: { tags: ['z'] }, Promote: { weight_delta: 0.1 }, Demote: { archive: true }, Merge: {},
    Split: { strategy: 'by_sentences' }, Lock: { mode: 'read_only' }, Expire: { ttl: 'P1D' }, Delete: { soft },
  }[op]!;
  return { stage: 'STO', op, target: t, args, meta: { confirmation: true } };
});
const encodeFact = fc.constantFrom('2026-06-01T12:00:00Z', '2026-06-05T00:00:00Z', '2026-06-20T00:00:00Z')
  .map((validFrom) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: 'new value' }, subject: 'mira', attribute: 'deadline', valid_from: validFrom } }));
const statement = fc.oneof({ arbitrary: read, weight: 3 }, { arbitrary: write, weight: 4 }, { arbitrary: encodeFact, weight: 1 });
const script = fc.record({ tenant: fc.constantFrom(...TENANTS), statements: fc.array(statement, { minLength: 1, maxLength: 3 }), extra: fc.constantFrom('none', 'sweep', 'undo') });

/**
 * What the other tenant has: every column a verb, sweep or undo can write (the embedding is
 * derived from the text), and its audit log's entries and undo marks.
 */
const WRITTEN = 'id, text, tags, facets, weight, subject, expire_at, expire_action, lock_mode, lineage_parents, lineage_children, deleted, deleted_at, updated_at, valid_from, valid_to, supersedes, retractions, tenant';
function snapshot(store: Store, tenant: string): string {
  const memory = store.query(`SELECT ${WRITTEN} FROM memory WHERE tenant = ? ORDER BY id`, [tenant]);
  const audit = store.query('SELECT id, undone_by FROM audit_log WHERE tenant = ? ORDER BY id', [tenant]);
  return JSON.stringify([memory, audit]);
}

describe('tenant isolation (property)', () => {
  it('10,000 random scripts in one tenant neither read nor change the other', async () => {
    const store = await sharedStore();
    const idsOf = (tenant: string) => new Set(store.query('SELECT id FROM memory WHERE tenant = ?', [tenant]).map((r) => Number(r.id)));
    const owned = { acme: idsOf('acme'), globex: idsOf('globex') };
    const before = { acme: snapshot(store, 'acme'), globex: snapshot(store, 'globex') };
    const entriesOf = (tenant: string) => store.query('SELECT id FROM audit_log WHERE tenant = ?', [tenant]).map((x) => Number(x.id));
    const otherEntries = { acme: entriesOf('acme'), globex: entriesOf('globex') };
    let reads = 0;
    let undone = 0;
    fc.assert(fc.property(script, ({ tenant, statements, extra }) => {
      const other = tenant === 'acme' ? 'globex' : 'acme';
      store.transaction(() => {
        const r = run(store, statements, { now: NOW, tenant });
        for (const res of r.results) {
          // Nothing the run reports reading or writing is the other tenant's.
          for (const id of res.ids) expect(owned[other].has(id)).toBe(false);
          for (const row of res.rows ?? []) expect(owned[other].has(Number(row.id))).toBe(false);
          if (res.rows?.length) reads++;
        }
        if (extra === 'sweep') {
          const s = sweep(store, '2026-07-01T00:00:00Z', 'system:sweep', tenant);
          if ('applied' in s) for (const a of s.applied) expect(owned[other].has(a.id)).toBe(false);
        } else if (extra === 'undo') {
          // The other tenant's audit entries are not this tenant's to undo.
          for (const e of otherEntries[other]) expect(undo(store, e, { now: NOW, tenant })).toMatchObject({ ok: false, diagnostics: [{ code: 'undo-not-found' }] });
          // Its own soft delete undone: the retraction's spell is kept (transaction time) in its tenant only.
          const own = otherEntries[tenant][otherEntries[tenant].length - 1];
          const u = undo(store, own, { now: NOW, tenant });
          if (u.ok) {
            undone++;
            for (const id of u.restored) expect(owned[other].has(id)).toBe(false);
          }
        }
        expect(snapshot(store, other)).toBe(before[other]);
        return { commit: false, value: undefined };
      });
    }), { numRuns: 10_000, seed: 12 });
    // The scripts did read: the property is not vacuous.
    expect(reads).toBeGreaterThan(1000);
    expect(undone).toBeGreaterThan(100);
    expect(snapshot(store, 'acme')).toBe(before.acme);
  }, 120_000);
});
