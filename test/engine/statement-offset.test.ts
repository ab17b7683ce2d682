/**
 * A part of a script run on its own (`statementOffset`, the playground's Run selection): the
 * records it writes name the statement's place in the whole script, whichever way its Encodes
 * are executed (together in a run, one at a time under a hook, on their own), while results,
 * diagnostics and the hook count in the statements given. Without the option nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { Session, run, why } from '../../src/engine/index.js';
import { textToIr } from '../../src/pipeline.js';
import { freshStore, NOW, rows } from './harness.js';

const SCRIPT = 'ENCODE "zero" TAGS "t";\nENCODE "one" TAGS "t";\nLET $a = ENCODE "two" TAGS "t";\nENCODE "three" TAGS "t";\nLABEL ID $a TAGS "picked";\nENCODE "five" TAGS "u";';

const irsOf = (text: string) => {
  const r = textToIr(text);
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { irs: r.irs, sourceMaps: r.sourceMaps };
};

/** Statements `from`…`to` (inclusive) of the script, with their source maps. */
function part(from: number, to: number) {
  const { irs, sourceMaps } = irsOf(SCRIPT);
  return { irs: irs.slice(from, to + 1), sourceMaps: sourceMaps.slice(from, to + 1) };
}

describe('statementOffset', () => {
  it('without it, a record names its statement in the statements given (as `t2m run`)', async () => {
    const store = await freshStore();
    const { irs, sourceMaps } = irsOf(SCRIPT);
    expect(run(store, irs, { now: NOW, sourceMaps }).ok).toBe(true);
    expect(rows(store).map((r) => [r.text, r.statement_index])).toEqual([['zero', 0], ['one', 1], ['two', 2], ['three', 3], ['five', 5]]);
  });

  it.each([
    ['a run of Encodes executed together', {}],
    ['Encodes one at a time', { batch: false }],
    ['under a hook', { onStatement: () => {} }],
    ['statementwise', { statementwise: true }],
  ])('a part run records the statements\' places in the script: %s', async (_name, extra) => {
    const store = await freshStore();
    // The first two statements as one run, then statements 3 to 6 (LET and its use inside) as another.
    const first = part(0, 1);
    expect(run(store, first.irs, { now: NOW, sourceMaps: first.sourceMaps, ...extra }).ok).toBe(true);
    const second = part(2, 5);
    const seen: number[] = [];
    const hook = 'onStatement' in extra ? { onStatement: (i: number) => seen.push(i) } : {};
    const r = run(store, second.irs, { now: NOW, sourceMaps: second.sourceMaps, statementOffset: 2, ...extra, ...hook });
    expect(r.ok).toBe(true);
    // Results (and the hook) count in the statements given; provenance in the script.
    expect(r.results.map((x) => x.index)).toEqual([0, 1, 2, 3]);
    if ('onStatement' in extra) expect(seen).toEqual([0, 1, 2, 3]);
    const written = rows(store);
    expect(written.map((x) => [x.text, x.statement_index])).toEqual([['zero', 0], ['one', 1], ['two', 2], ['three', 3], ['five', 5]]);
    // Each run has its own trace id: the part is a run of its own.
    expect(new Set(written.slice(2).map((x) => x.trace_id)).size).toBe(1);
    expect(written[2].trace_id).not.toBe(written[0].trace_id);
    expect(r.results[2].ids).toEqual([3]);
    // The engine's `why` (the page's Why pane) reports the script's statement.
    const w = why(store, written[4].id);
    expect(w.ok && w.chain[0].statement).toBe(5);
  });

  it('the same through a Session, and a refusal still names the statement in the statements given', async () => {
    const store = await freshStore();
    const session = new Session(store, { now: NOW });
    const { irs, sourceMaps } = irsOf('ENCODE "a" TAGS "t";\nLET $none = RETRIEVE WHERE tags HAS "nothing";\nDELETE IDS $none SOFT;');
    const ok = await session.run(irs.slice(0, 1), { sourceMaps: sourceMaps.slice(0, 1), statementOffset: 7 });
    expect(ok.ok).toBe(true);
    expect(rows(store).map((r) => r.statement_index)).toEqual([7]);
    const refused = await session.run(irs.slice(1), { sourceMaps: sourceMaps.slice(1), statementOffset: 1 });
    expect(refused.ok).toBe(false);
    const error = refused.diagnostics.find((d) => d.severity === 'error')!;
    expect(error.code).toBe('ref-empty');
    expect(error.statement).toBe(1);
    // The message numbers the binding statement as the script does (statement 2, not 1).
    expect(error.message).toContain('statement 2 (Retrieve)');
    expect(rows(store).length).toBe(1);
  });
});
