/**
 * Every verb's refusals: locks, missing confirmation, write permissions and bad input. Each
 * refusal is an error diagnostic naming the statement, and the store is left exactly as it was.
 */
import { describe, expect, it } from 'vitest';
import { auditLog, run, type Store } from '../../src/engine/index.js';
import { encode, freshStore, NOW, op, rows, runOk } from '../engine/harness.js';

const WRITES: readonly [string, Record<string, unknown>][] = [
  ['Update', { set: { text: 'changed' } }],
  ['Label', { tags: ['x'], mode: 'replace' }],
  ['Promote', { weight: 0.9 }],
  ['Demote', { archive: true }],
  ['Merge', {}],
  ['Split', { strategy: 'by_sentences' }],
  ['Lock', { mode: 'append_only' }],
  ['Expire', { ttl: 'P1D' }],
  ['Delete', { soft: false }],
];

/** Everything a refused script could have touched. */
const snapshot = (store: Store) => JSON.stringify([rows(store), auditLog(store)]);

/** Runs one statement (after a plain Encode, which must be rolled back too) and expects one error. */
function expectRefused(store: Store, ir: unknown, code: string, options: { actor?: string } = {}) {
  const before = snapshot(store);
  const r = run(store, [encode('extra'), ir], { now: NOW, ...options });
  expect(r.ok, `${JSON.stringify(ir)} should be refused`).toBe(false);
  // Warnings (the checker's included) ride along; the refusal is the one error.
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  expect(errors).toEqual([expect.objectContaining({ code, statement: 1 })]);
  expect(snapshot(store)).toBe(before);
  return errors[0];
}

describe('refusals', () => {
  it.each(WRITES)('%s on a read-only locked record is refused, naming the record and the lock', async (verb, args) => {
    const store = await freshStore();
    runOk(store, [encode('One. Two.', { tags: ['t'] }), encode('Three. Four.', { tags: ['t'] }), op('Lock', { ids: ['1'] }, { mode: 'read_only', reason: 'legal hold' })]);
    const d = expectRefused(store, op(verb, { ids: ['1', '2'] }, args), 'record-locked');
    expect(d.message).toMatch(new RegExp(`^${verb} refused: memory #1 is locked read_only \\(reason: legal hold\\)`));
  });

  it.each(WRITES)('%s on all records without meta.confirmation is refused; with it, it runs', async (verb, args) => {
    const store = await freshStore();
    runOk(store, [encode('One. Two.', { tags: ['t'] }), encode('Three. Four.', { tags: ['t'] })]);
    const d = expectRefused(store, op(verb, { all: true }, args), 'all-requires-confirmation');
    expect(d.path).toBe('target.all');
    runOk(store, [op(verb, { all: true }, args, { confirmation: true })]);
  });

  it.each(WRITES)('%s by an actor the record does not allow to write is refused', async (verb, args) => {
    const store = await freshStore();
    runOk(store, [encode('One. Two.', { write_perm_level: 'owner_only' }), encode('Three. Four.', { write_perm_level: 'owner_only' })], { actor: 'ann' });
    const d = expectRefused(store, op(verb, { ids: ['1', '2'] }, args), 'permission-denied', { actor: 'eve' });
    expect(d.message).toMatch(/only its owner 'ann' may write it/);
    runOk(store, [op(verb, { ids: ['1', '2'] }, args)], { actor: 'ann' });
  });

  const BAD_INPUT: readonly [string, unknown, string, string][] = [
    ['Encode without content', { stage: 'ENC', op: 'Encode', args: { payload: { text: '  ' } } }, 'missing-field', 'args.payload'],
    ['Encode with a bad time', encode('x', { time: 'next tuesday' }), 'invalid-datetime', 'args.time'],
    ['Encode with a bad weight', encode('x', { weight: 'high' }), 'bad-arg', 'args.weight'],
    ['Update with nothing to set', op('Update', { ids: ['1'] }, { set: {} }), 'missing-field', 'args.set'],
    ['Update with a bad ttl', op('Update', { ids: ['1'] }, { set: { ttl: 'a while' } }), 'invalid-duration', 'args.set.ttl'],
    ['Label with no tags or facets', op('Label', { ids: ['1'] }, { tags: [] }), 'missing-field', 'args'],
    ['Promote with a bad rule', op('Promote', { ids: ['1'] }, { remind: { rrule: 'EVERY MONDAY' } }), 'invalid-rrule', 'args.remind.rrule'],
    ['Demote of a bad id', op('Demote', { ids: ['abc'] }, { archive: true }), 'bad-id', 'target.ids.0'],
    ['Merge into a missing primary', op('Merge', { filter: { has_tags: ['t'], limit: 5 } }, { primary_id: '9' }), 'merge-primary-missing', 'args.primary_id'],
    ['Merge of one record', op('Merge', { ids: ['1'] }), 'merge-needs-two', 'target.ids'],
    ['Split into chunks of 0', op('Split', { ids: ['1'] }, { strategy: 'by_chunks', params: { by_chunks: { chunk_size: 0 } } }), 'out-of-range', 'args.params.by_chunks.chunk_size'],
    ['Lock with a bad expiry', op('Lock', { ids: ['1'] }, { policy: { expires: 'later' } }), 'invalid-datetime', 'args.policy.expires'],
    ['Expire with no time', op('Expire', { ids: ['1'] }, { on_expire: 'demote' }), 'missing-field', 'args'],
    ['Delete with a bad older_than', op('Delete', { ids: ['1'] }, { older_than: 'ages' }), 'invalid-duration', 'args.older_than'],
    ['Delete with an inverted range', op('Delete', { filter: { time_range: { start: '2025-10-02T00:00:00Z', end: '2025-10-01T00:00:00Z' } } }), 'time-range-order', 'target.filter.time_range.end'],
    ['Delete without a target', op('Delete', undefined), 'target-required', ''],
    ['Delete on an unknown condition', op('Delete', { filter: { colour: 'red' } }), 'unknown-condition', 'target.filter.colour'],
    ['Retrieve with limit 0', op('Retrieve', { filter: { has_tags: ['t'], limit: 0 } }), 'out-of-range', 'target.filter.limit'],
    ['Retrieve with an empty search', op('Retrieve', { search: { intent: { query: ' ' } } }), 'empty-condition', 'target.search.intent.query'],
    ['Summarize with max_tokens 0', op('Summarize', { ids: ['1'] }, { max_tokens: 0 }), 'out-of-range', 'args.max_tokens'],
  ];

  it.each(BAD_INPUT)('%s is an error at its path and changes nothing', async (_name, ir, code, path) => {
    const store = await freshStore();
    runOk(store, [encode('One. Two.', { tags: ['t'] }), encode('Three. Four.', { tags: ['t'] })]);
    const d = expectRefused(store, ir, code);
    expect(d.path).toBe(path);
  });
});
