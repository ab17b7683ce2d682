/**
 * The checker's whole output, held fixed: every diagnostic (code, severity, message, path,
 * statement, range, related, fix, and their order) over the upstream IRs and over IRs mutated so
 * that every rule fires, through the checker alone (IR input) and through the DSL front end
 * (ranges, wording, fixes). A change to the checker's speed must not move a byte of it: a rule
 * run in another order, a diagnostic built differently or a rule skipped where it could report
 * changes the fingerprint. If a change of output is meant, say so in the commit and update the
 * figures here (the printed actual values).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/check/index.js';
import type { IR } from '../../src/ir/schema.js';
import { validateIr } from '../../src/ir/validate.js';
import { irsToText, textToIr } from '../../src/pipeline.js';
import { corpusIrs } from '../ir-corpus.js';
import { irPaths, setAt } from '../support/mutate.js';

/** Values some value rule refuses (a bad datetime, duration, rrule, number, reference) and some statement rule reads. */
const BAD: readonly unknown[] = ['2025-13-45T00:00:00Z', '7 days', 'FREQ=NOPE', -5, 2.5, 1e20, { $ref: 'x' }, { $ref: 'a' }, '', ' ', {}, 'lock_mode'];

/** Extra keys put into each object of an IR: unknown conditions, governed columns, alternatives, references. */
const EXTRA: ReadonlyArray<readonly [string, unknown]> = [
  ['status', 'done'], ['limt', 5], ['owner', 'eve'], ['utility', 0.5], ['lock_mode', 'nope'], ['weight_delta', 0.2],
  ['until', '2025-01-01T00:00:00Z'], ['url', 'https://x.example'], ['vector', [0.1]], ['_let', 'a'], ['start', '2026-01-01T00:00:00Z'],
  ['relative', 'last'], ['weight_gte', 0.9], ['weight_lte', 0.1], ['has_tags', ['', 'x']], ['facets', {}], ['confirmation', true],
  ['ids', [{ $ref: 'x' }, '7']], ['ids', { $ref: 'a' }], ['primary_id', { $ref: 'b' }],
];

/** Keys put into each object together (ranges that select nothing). */
const PATCHES: ReadonlyArray<Record<string, unknown>> = [
  { weight_gte: 0.9, weight_lte: 0.1 },
  { start: '2026-01-01T00:00:00Z', end: '2025-01-01T00:00:00+08:00' },
];

const fingerprint = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('hex').slice(0, 16);

describe('the checker output, fixed', () => {
  const irs = corpusIrs().map(({ ir }) => validateIr(ir).ir!).filter(Boolean) as IR[];
  const mutated: IR[] = [];
  for (const ir of irs.filter((_, i) => i % 16 === 0)) {
    for (const { path, leaf } of irPaths(ir)) {
      if (leaf) for (const bad of BAD) mutated.push(setAt(ir, path, bad) as IR);
      else if (!/^\d+$/.test(path[path.length - 1] ?? '')) {
        for (const [k, v] of EXTRA) mutated.push(setAt(ir, [...path, k], v) as IR);
        for (const patch of PATCHES) mutated.push(Object.entries(patch).reduce((m, [k, v]) => setAt(m, [...path, k], v), ir as unknown) as IR);
      }
    }
  }
  // Only what validation accepts reaches the checker.
  const valid = mutated.map((m) => validateIr(m).ir).filter((x): x is IR => x !== undefined);

  it('over the upstream IRs and the mutated ones (IR input)', () => {
    expect(valid.length).toBeGreaterThan(5000);
    const corpus = check(irs);
    const out = check(valid);
    const strict = check(valid, { policy: 'strict', firstStatement: 3 });
    const codes = new Set(out.map((d) => d.code));
    // Every rule's usual codes show, so each part of the checker is held.
    for (const code of ['invalid-datetime', 'out-of-range', 'unsafe-integer', 'ref-misplaced', 'ref-undefined', 'let-duplicate', 'unknown-condition', 'empty-condition', 'exclusive-args', 'governed-column', 'time-range-exclusive', 'empty-weight-range', 'write-without-limit', 'time-range-order', 'let-not-ids', 'invalid-duration']) {
      expect(codes, code).toContain(code);
    }
    expect({ corpus: [corpus.length, fingerprint(corpus)], mutated: [out.length, fingerprint(out)], strict: [strict.length, fingerprint(strict)] }).toEqual({
      corpus: [621, '79cf2f0493882f62'],
      mutated: [15529, 'f6b7511e4efc5a16'],
      strict: [15529, 'f47ea2feeb9fa513'],
    });
  });

  it('over the same statements written in the DSL (ranges, wording, fixes)', () => {
    const one = (ir: IR) => textToIr(irsToText([ir])).diagnostics;
    const corpus = irs.filter((_, i) => i % 4 === 0).flatMap(one);
    const out = valid.filter((_, i) => i % 12 === 0).flatMap(one);
    expect({ corpus: [corpus.length, fingerprint(corpus)], mutated: [out.length, fingerprint(out)] }).toEqual({ corpus: [148, '98916d5ac5c9ac98'], mutated: [1330, 'f01bd699c88dd07c'] });
  });
});
