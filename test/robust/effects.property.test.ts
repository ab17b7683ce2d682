/**
 * Effects as properties (issue 28): random scripts in two tenants of facts (subject, attribute,
 * VALID FROM), plain records, retention classes, locks, soft and hard deletes, undos, sweeps and
 * reads, checked after every statement against the invariants the issue states
 * (spec/semantics.md "Typed state", "Retention"; spec/security.md):
 *   (a) for a (tenant, subject, attribute), at most one version is valid at any instant: RETRIEVE
 *       … AS OF t returns at most one, at every valid_from / valid_to / deletion / expiry boundary
 *       of the key, and a current read at most one;
 *   (b) a legal_hold record is never removed, rewritten or blanked: its row (text, key,
 *       valid_from, retention, deletion, expiry) and its before/after images in the audit log stay;
 *   (c) an erased ephemeral record's text is nowhere in the store: no table (memory, audit log,
 *       tag and search indexes, statistics), and, on a store file, not in the file's bytes once
 *       the hard delete is done and the store closed (secure_delete semantics; no compaction
 *       command is documented);
 *   (d) one tenant's RETRIEVE results (records, order, scores) are the same whatever the other
 *       tenant wrote: tenant B's script runs on two stores, one with tenant A's statements
 *       interleaved, and every read of B must answer the same (records compared by their text,
 *       as the id sequence is shared).
 *
 * Seeded and reproducible: T2M_EFFECTS_SEED (default 28), T2M_EFFECTS_RUNS runs per invariant
 * (default 200), T2M_EFFECTS_FILE_RUNS for the store-file check (default 15). A failure prints the
 * seed, the path and the shrunk script (fast-check's report).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditLog, run, sweep, undo, type RunResult, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';
import { tempDir } from '../engine/harness.js';

const SEED = Number(process.env.T2M_EFFECTS_SEED ?? 28);
const RUNS = Number(process.env.T2M_EFFECTS_RUNS ?? 200);
const FILE_RUNS = Number(process.env.T2M_EFFECTS_FILE_RUNS ?? 15);

const NOW = '2025-10-21T00:00:00Z';
const SWEEP_AT = '2025-10-23T00:00:00Z';
const ACTOR = 'alice';
type T = 'A' | 'B';
const TENANT: Record<T, string> = { A: 'acme', B: 'globex' };
const SUBJECTS = ['mira', 'zora'];
const FROM = ['2025-01-01T00:00:00Z', '2025-06-01T00:00:00Z', '2025-08-01T00:00:00Z', NOW, '2026-01-01T00:00:00Z'];
const WORDS = ['apple', 'river', 'deadline', 'budget', 'falcon', 'meeting'];
type Retention = 'durable' | 'ephemeral' | 'legal_hold';

type Action =
  | { kind: 'fact'; subject: string; from: string; retention: Retention; words: string[] }
  | { kind: 'plain'; retention: Retention; words: string[] }
  | { kind: 'lock'; pick: number; policy: 'read_only' | 'denyDelete' }
  | { kind: 'delete'; pick: number; soft: boolean }
  | { kind: 'undo'; pick: number }
  | { kind: 'sweep' }
  | { kind: 'search'; words: string[] }
  | { kind: 'asOf'; subject: string; at: string }
  | { kind: 'history'; subject: string };
interface Step { t: T; a: Action }

const retention = fc.constantFrom<Retention>('durable', 'ephemeral', 'legal_hold');
const words = fc.subarray(WORDS, { minLength: 1, maxLength: 3 });
/** A statement; `reads` weighs the reads (the tenant property wants many). */
const actionOf = (reads: number): fc.Arbitrary<Action> => fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('fact' as const), subject: fc.constantFrom(...SUBJECTS, 'mira', 'mira'), from: fc.constantFrom(...FROM), retention, words }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('plain' as const), retention, words }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('lock' as const), pick: fc.nat(5), policy: fc.constantFrom('read_only' as const, 'denyDelete' as const) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(5), soft: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('undo' as const), pick: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'sweep' as const }) },
  { weight: 2 * reads, arbitrary: fc.record({ kind: fc.constant('search' as const), words }) },
  { weight: reads, arbitrary: fc.record({ kind: fc.constant('asOf' as const), subject: fc.constantFrom(...SUBJECTS), at: fc.constantFrom(...FROM, '2025-03-01T00:00:00Z', '2025-09-01T00:00:00Z') }) },
  { weight: reads, arbitrary: fc.record({ kind: fc.constant('history' as const), subject: fc.constantFrom(...SUBJECTS) }) },
);
const scriptOf = (reads: number) => fc.array(fc.record({ t: fc.constantFrom<T>('A', 'B'), a: actionOf(reads) }), { minLength: 1, maxLength: 24 });
const script = scriptOf(1);
const readingScript = scriptOf(4);

// ------------------------------------------------------------------ running a script

/** What a tenant has made so far: its records (in order) and its audit entries. */
class Runner {
  readonly records: Record<T, number[]> = { A: [], B: [] };
  readonly marks = new Map<number, string>();
  /** The records written as ephemeral. */
  readonly ephemeral = new Set<number>();
  private readonly counter: Record<T, number> = { A: 0, B: 0 };
  constructor(readonly store: Store) {}

  /** Runs one step; returns the run's result for reads (else undefined). */
  step({ t, a }: Step): RunResult | undefined {
    const tenant = TENANT[t];
    const opts = { now: NOW, tenant, actor: ACTOR };
    // Picks count from the tenant's newest record (and newest audit entry): recent ones are the interesting ones.
    const own = this.records[t];
    const pick = (n: number) => own.length ? String(own[own.length - 1 - (n % own.length)]) : '999999';
    const cls = (r: Retention) => (r === 'durable' ? {} : { retention: r });
    switch (a.kind) {
      case 'fact':
      case 'plain': {
        const mark = `zq${t.toLowerCase()}${++this.counter[t]}zq`;
        const args = a.kind === 'fact' ? { subject: a.subject, attribute: 'deadline', valid_from: a.from } : {};
        const r = run(this.store, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: `${a.words.join(' ')} ${mark}` }, ...args, ...cls(a.retention) } }], opts);
        if (r.ok) {
          this.records[t].push(r.results[0].ids[0]);
          this.marks.set(r.results[0].ids[0], mark);
          if (a.retention === 'ephemeral') this.ephemeral.add(r.results[0].ids[0]);
        } else this.counter[t]--;
        return undefined;
      }
      case 'lock': {
        const args = a.policy === 'read_only' ? { mode: 'read_only' } : { policy: { deny: ['Delete'] } };
        run(this.store, [{ stage: 'STO', op: 'Lock', target: { ids: [pick(a.pick)] }, args }], opts);
        return undefined;
      }
      case 'delete':
        run(this.store, [{ stage: 'STO', op: 'Delete', target: { ids: [pick(a.pick)] }, args: { soft: a.soft } }], opts);
        return undefined;
      case 'undo': {
        const entries = auditLog(this.store, undefined, tenant).filter((e) => e.op !== 'Encode');
        if (entries.length) undo(this.store, entries[entries.length - 1 - (a.pick % entries.length)].id, { now: NOW, actor: ACTOR, tenant });
        return undefined;
      }
      case 'sweep':
        sweep(this.store, SWEEP_AT, 'system:sweep', tenant);
        return undefined;
      case 'search':
        return run(this.store, [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: a.words.join(' ') }, limit: 10 } }, args: {} }], opts);
      case 'asOf':
        return run(this.store, [{ stage: 'RET', op: 'Retrieve', target: { filter: { subject: a.subject, attribute: 'deadline' } }, args: { as_of: a.at } }], opts);
      case 'history':
        return run(this.store, [{ stage: 'RET', op: 'Retrieve', target: { filter: { subject: a.subject, attribute: 'deadline' } }, args: { history: true } }], opts);
    }
  }
}

const describeStep = (s: Step) => `${s.t}: ${JSON.stringify(s.a)}`;

// ------------------------------------------------------------------ the invariants

/** (a) At every boundary of each key, AS OF returns at most one version; so does a current read. */
function atMostOneValid(store: Store, t: T): string[] {
  const out: string[] = [];
  {
    const tenant = TENANT[t];
    for (const subject of SUBJECTS) {
      const rows = store.query(`SELECT valid_from, valid_to, deleted_at, expire_at, created_at FROM memory WHERE tenant = ? AND subject = ? AND attribute = 'deadline'`, [tenant, subject]);
      if (!rows.length) continue;
      const instants = new Set<string>([NOW]);
      for (const r of rows) for (const v of Object.values(r)) if (typeof v === 'string') instants.add(v);
      const at = [...instants].sort();
      const target = { filter: { subject, attribute: 'deadline' } };
      const r = run(store, [{ stage: 'RET', op: 'Retrieve', target, args: {} }, ...at.map((x) => ({ stage: 'RET', op: 'Retrieve', target, args: { as_of: x } }))], { now: NOW, tenant, actor: ACTOR });
      if (!r.ok) { out.push(`${tenant} ${subject}: read refused ${JSON.stringify(r.diagnostics)}`); continue; }
      r.results.forEach((res, i) => {
        if (res.ids.length > 1) out.push(`${tenant} ${subject}/deadline: ${res.ids.length} valid versions (${res.ids.join(', ')}) ${i === 0 ? 'now' : `AS OF ${at[i - 1]}`}`);
      });
    }
  }
  return out;
}

const HELD_FIELDS = ['text', 'subject', 'attribute', 'valid_from', 'retention', 'deleted', 'deleted_at', 'expire_at', 'expire_action', 'tenant'];
interface Held { rows: Map<number, Record<string, unknown>>; images: Map<string, string> }
/** (b) What a held record is: its row's protected fields and every audit image of it. */
function heldState(store: Store): Held {
  const rows = new Map<number, Record<string, unknown>>();
  for (const r of store.query(`SELECT * FROM memory WHERE retention = 'legal_hold'`)) rows.set(Number(r.id), Object.fromEntries(HELD_FIELDS.map((k) => [k, r[k]])));
  const images = new Map<string, string>();
  for (const e of store.query('SELECT id, before, after FROM audit_log')) {
    for (const side of ['before', 'after'] as const) {
      const img = typeof e[side] === 'string' && e[side] ? JSON.parse(e[side] as string) : null;
      for (const id of rows.keys()) if (img && img[id] !== undefined) images.set(`${e.id}/${side}/${id}`, JSON.stringify(img[id]));
    }
  }
  return { rows, images };
}
function heldProblems(before: Held, after: Held): string[] {
  const out: string[] = [];
  for (const [id, b] of before.rows) {
    const a = after.rows.get(id);
    if (!a) { out.push(`legal_hold #${id} removed (or its class changed)`); continue; }
    for (const k of HELD_FIELDS) if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) out.push(`legal_hold #${id}: ${k} ${JSON.stringify(b[k])} → ${JSON.stringify(a[k])}`);
  }
  for (const [key, img] of before.images) if (after.images.get(key) !== img) out.push(`audit image ${key} of a legal_hold record blanked or changed`);
  return out;
}

/** Every table's content as text (vectors left out: they hold no text). */
function everything(store: Store): string {
  const tables = store.query(`SELECT name FROM sqlite_master WHERE type = 'table'`).map((t) => String(t.name));
  return tables.map((t) => JSON.stringify(store.query(`SELECT * FROM "${t}"`).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => !(v instanceof Uint8Array)))))).join('\n');
}
/** Ephemeral records that are gone for good (no row), with their marks. */
function erasedEphemeral(store: Store, runner: Runner, known: Map<number, string>): void {
  const live = new Set(store.query('SELECT id FROM memory').map((r) => Number(r.id)));
  for (const id of [...runner.records.A, ...runner.records.B]) {
    if (live.has(id) || known.has(id)) continue;
    known.set(id, runner.marks.get(id)!);
  }
}

/** The records, order and scores of a read, by text (ids differ between the two stores). */
function answer(r: RunResult | undefined, runner: Runner): string {
  if (!r) return 'none';
  if (!r.ok) return `refused ${r.diagnostics.map((d) => d.code).join(',')}`;
  const res = r.results[0];
  return JSON.stringify(res.ids.map((id) => [runner.marks.get(id) ?? `?${id}`, res.scores?.[id] === undefined ? null : Number(res.scores[id].toFixed(9))]));
}

// ------------------------------------------------------------------ the properties

function fail(steps: Step[], i: number, problems: string[]): never {
  throw new Error(`after step ${i} (${describeStep(steps[i])}):\n  ${problems.join('\n  ')}\nscript:\n  ${steps.map(describeStep).join('\n  ')}`);
}

/**
 * Scripts every run tries first (fast-check's `examples`), whatever the seed: the smallest
 * counterexamples the random scripts found for each invariant.
 */
const fact = (t: T, subject: string, from: string, r: Retention, w: string): Step => ({ t, a: { kind: 'fact', subject, from, retention: r, words: [w] } });
const EXAMPLES: Record<string, Step[]> = {
  // (a) a version retracted, then a new value from the same instant: AS OF then returns both.
  retractThenRewrite: [fact('A', 'mira', FROM[0], 'durable', 'budget'), { t: 'A', a: { kind: 'delete', pick: 0, soft: true } }, fact('A', 'mira', FROM[0], 'durable', 'meeting')],
  // (b) the sweep of an ephemeral version erases the held version of the same key.
  sweepErasesHeld: [fact('B', 'mira', FROM[0], 'ephemeral', 'deadline'), fact('B', 'mira', FROM[0], 'legal_hold', 'river'), { t: 'B', a: { kind: 'sweep' } }],
  // (c) an ephemeral record soft-deleted first is skipped by the sweep.
  sweepSoftDeleted: [fact('A', 'mira', NOW, 'ephemeral', 'apple'), { t: 'A', a: { kind: 'delete', pick: 0, soft: true } }, { t: 'A', a: { kind: 'sweep' } }],
  // (c) a hard delete leaves the text in the file's free pages.
  hardDeleteInFile: [fact('B', 'mira', FROM[0], 'ephemeral', 'budget'), { t: 'B', a: { kind: 'delete', pick: 0, soft: false } }],
  // (d) the other tenant's records change the keyword statistics, so the scores.
  otherTenantScores: [{ t: 'B', a: { kind: 'plain', retention: 'durable', words: ['budget'] } }, { t: 'A', a: { kind: 'plain', retention: 'durable', words: ['budget'] } }, fact('B', 'mira', FROM[0], 'durable', 'budget'), { t: 'B', a: { kind: 'search', words: ['budget'] } }],
};

const params = (numRuns: number) => ({ numRuns, seed: SEED, endOnFailure: false, interruptAfterTimeLimit: 50_000, markInterruptAsFailure: false });

describe('effects (property)', () => {
  it(`(a) at most one valid version per key and instant (${RUNS} scripts)`, async () => {
    await fc.assert(fc.asyncProperty(script, async (steps) => {
      const runner = new Runner(await createStore());
      steps.forEach((s, i) => {
        // A read changes nothing, and another tenant's statement changes nothing here (tenants property).
        if (runner.step(s)) return;
        const p = atMostOneValid(runner.store, s.t);
        if (p.length) fail(steps, i, p);
      });
      runner.store.close();
    }), { ...params(RUNS), examples: [[EXAMPLES.retractThenRewrite]] });
  }, 120_000);

  it(`(b) a legal_hold record is never removed, rewritten or blanked (${RUNS} scripts)`, async () => {
    await fc.assert(fc.asyncProperty(script, async (steps) => {
      const runner = new Runner(await createStore());
      steps.forEach((s, i) => {
        const before = heldState(runner.store);
        runner.step(s);
        const p = heldProblems(before, heldState(runner.store));
        if (p.length) fail(steps, i, p);
      });
      runner.store.close();
    }), { ...params(RUNS), examples: [[EXAMPLES.sweepErasesHeld]] });
  }, 120_000);

  it(`(c) an erased ephemeral record's text is nowhere in the store (${RUNS} scripts)`, async () => {
    await fc.assert(fc.asyncProperty(script, async (steps) => {
      const runner = new Runner(await createStore());
      const erased = new Map<number, string>();
      steps.forEach((s, i) => {
        runner.step(s);
        erasedEphemeral(runner.store, runner, erased);
        // A sweep after their day erases the tenant's ephemeral records, soft-deleted ones too (a lock is a hold).
        if (s.a.kind === 'sweep') {
          const left = runner.records[s.t].filter((id) => runner.ephemeral.has(id) && !erased.has(id));
          const kept = left.length ? runner.store.query(`SELECT id, deleted FROM memory WHERE id IN (${left.map(Number).join(', ')}) AND lock_mode IS NULL`) : [];
          if (kept.length) fail(steps, i, kept.map((r) => `ephemeral #${r.id} (deleted = ${r.deleted}) not erased by the sweep after its day`));
        }
        const ephemeral = [...erased].filter(([id]) => runner.ephemeral.has(id));
        if (!ephemeral.length) return;
        const all = everything(runner.store);
        const p = ephemeral.filter(([, m]) => all.includes(m)).map(([id, m]) => `erased ephemeral #${id}: '${m}' is still in the store`);
        if (p.length) fail(steps, i, p);
      });
      runner.store.close();
    }), { ...params(RUNS), examples: [[EXAMPLES.sweepSoftDeleted]] });
  }, 120_000);

  it(`(c) on a store file, an erased ephemeral record's text is not in the file's bytes (${FILE_RUNS} scripts)`, async () => {
    await fc.assert(fc.asyncProperty(script, async (steps) => {
      const path = join(tempDir(), 'store.sqlite');
      const opened = openStoreFile(path);
      if (!opened.ok) throw new Error(JSON.stringify(opened.diagnostics));
      const runner = new Runner(opened.store);
      const erased = new Map<number, string>();
      for (const s of steps) {
        runner.step(s);
        erasedEphemeral(runner.store, runner, erased);
      }
      const ephemeral = [...erased].filter(([id]) => runner.ephemeral.has(id));
      runner.store.close();
      if (!ephemeral.length) return;
      const bytes = readFileSync(path).toString('latin1');
      const p = ephemeral.filter(([, m]) => bytes.includes(m)).map(([id, m]) => `erased ephemeral #${id}: '${m}' is still in the bytes of the closed store file`);
      if (p.length) fail(steps, steps.length - 1, p);
    }), { ...params(FILE_RUNS), examples: [[EXAMPLES.hardDeleteInFile]] });
  }, 120_000);

  it(`(d) a tenant's reads do not depend on what the other tenant wrote (${RUNS} scripts)`, async () => {
    await fc.assert(fc.asyncProperty(readingScript, async (steps) => {
      const alone = new Runner(await createStore());
      const shared = new Runner(await createStore());
      steps.forEach((s, i) => {
        const mine = s.t === 'B';
        const got = shared.step(s);
        if (!mine) return;
        const expected = alone.step(s);
        const x = answer(expected, alone);
        const y = answer(got, shared);
        if (x !== y) fail(steps, i, [`tenant B alone: ${x}`, `with tenant A: ${y}`]);
      });
      alone.store.close();
      shared.store.close();
    }), { ...params(RUNS), examples: [[EXAMPLES.otherTenantScores]] });
  }, 120_000);
});

// The invariants are not vacuous: the scripts do write held and ephemeral records, erase some and read.
describe('effects (property): the scripts exercise what they check', () => {
  it('writes held and ephemeral records, erases ephemeral ones, and reads in both tenants', async () => {
    let held = 0; let erasedCount = 0; let reads = 0;
    await fc.assert(fc.asyncProperty(script, async (steps) => {
      const runner = new Runner(await createStore());
      const erased = new Map<number, string>();
      for (const s of steps) {
        const r = runner.step(s);
        if (r?.ok && r.results[0].ids.length) reads++;
        erasedEphemeral(runner.store, runner, erased);
      }
      held += Number(runner.store.query(`SELECT COUNT(*) AS n FROM memory WHERE retention = 'legal_hold'`)[0].n);
      erasedCount += [...erased.keys()].filter((id) => runner.ephemeral.has(id)).length;
      runner.store.close();
    }), { numRuns: RUNS, seed: SEED });
    expect(held).toBeGreaterThan(RUNS / 4);
    expect(erasedCount).toBeGreaterThan(RUNS / 20);
    expect(reads).toBeGreaterThan(RUNS / 4);
  }, 60_000);
});
