/**
 * A run's per-statement hook (`onStatement`) and statements on their own (`statementwise`): one
 * engine call, references resolved across statements, the hook inside the transaction; the
 * benchmark's runner and the playground's are built on them.
 */
import { describe, expect, it } from 'vitest';
import { Session, run, type StatementOutcome } from '../../src/engine/index.js';
import { textToIr } from '../../src/pipeline.js';
import { freshStore, NOW, rows } from './harness.js';

const irsOf = (text: string) => {
  const r = textToIr(text);
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { irs: r.irs, sourceMaps: r.sourceMaps };
};

describe('onStatement', () => {
  it('is called after each statement inside the transaction, sees the state it left, and resolves references', async () => {
    const store = await freshStore();
    const { irs, sourceMaps } = irsOf('LET $a = ENCODE "alpha" TAGS "t";\nENCODE "beta" TAGS "t";\nLABEL ID $a TAGS "picked";\nRETRIEVE WHERE tags HAS "picked" INCLUDE id;');
    const seen: { i: number; ids: readonly number[]; live: number }[] = [];
    const r = run(store, irs, {
      now: NOW, sourceMaps,
      onStatement: (i, o) => seen.push({ i, ids: o.result?.ids ?? [], live: store.all({ sql: 'SELECT COUNT(*) AS n FROM memory', params: [] })[0].n as number }),
    });
    expect(r.ok).toBe(true);
    // Encodes one at a time under a hook: the second is not there when the first is reported.
    expect(seen).toEqual([{ i: 0, ids: [1], live: 1 }, { i: 1, ids: [2], live: 2 }, { i: 2, ids: [1], live: 2 }, { i: 3, ids: [1], live: 2 }]);
    // One trace id for the run, and each record the index of the statement that wrote it.
    const written = rows(store);
    expect(new Set(written.map((x) => x.trace_id)).size).toBe(1);
    expect(written.map((x) => x.statement_index)).toEqual([0, 1]);
  });

  it('hears of the statement that refused the script, which is then rolled back', async () => {
    const store = await freshStore();
    const { irs, sourceMaps } = irsOf('ENCODE "a" TAGS "t";\nLET $none = RETRIEVE WHERE tags HAS "nothing";\nDELETE IDS $none SOFT;\nENCODE "never";');
    const seen: [number, StatementOutcome][] = [];
    const r = run(store, irs, { now: NOW, sourceMaps, onStatement: (i, o) => seen.push([i, o]) });
    expect(r.ok).toBe(false);
    expect(seen.map(([i, o]) => [i, o.result ? 'ran' : o.errors.map((d) => d.code).join()])).toEqual([[0, 'ran'], [1, 'ran'], [2, 'ref-empty']]);
    expect(seen[2][1].errors![0].statement).toBe(2);
    expect(seen[2][1].errors![0].range).toBeDefined();
    expect(rows(store)).toEqual([]);
  });
});

describe('statementwise', () => {
  it('runs past a refused statement, keeps what ran, and resolves references across statements', async () => {
    const store = await freshStore();
    const irs = [
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'one' }, tags: ['a'] }, _let: 'one' },
      // Refused as it runs: Merge needs two records.
      { stage: 'STO', op: 'Merge', target: { ids: ['1'] } },
      { stage: 'STO', op: 'Label', target: { ids: [{ $ref: 'one' }] }, args: { tags: ['b'] } },
    ];
    const seen: [number, string][] = [];
    const r = await new Session(store, { now: NOW }).run(irs, { statementwise: true, onStatement: (i, o) => seen.push([i, o.result ? 'ran' : o.errors[0].code]) });
    expect(r.ok).toBe(false);
    expect(seen.map(([i]) => i)).toEqual([0, 1, 2]);
    expect(seen[0][1]).toBe('ran');
    expect(seen[1][1]).not.toBe('ran');
    expect(seen[2][1]).toBe('ran');
    expect(r.results.map((x) => x.index)).toEqual([0, 2]);
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.statement)).toEqual([1]);
    expect(rows(store).map((x) => x.tags)).toEqual([JSON.stringify(['a', 'b'])]);
  });

  it('a statement the checker refuses is set apart; one that refers to its binding is refused in turn; the rest run', async () => {
    const store = await freshStore();
    const irs = [
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'kept' } } },
      { stage: 'STO', op: 'Frobnicate', target: { ids: ['1'] }, _let: 'x' },
      { stage: 'STO', op: 'Label', target: { ids: [{ $ref: 'x' }] }, args: { tags: ['b'] } },
      { stage: 'STO', op: 'Label', target: { ids: ['1'] }, args: { tags: ['c'] } },
    ];
    const seen: [number, string][] = [];
    const r = await new Session(store, { now: NOW }).run(irs, { statementwise: true, onStatement: (i, o) => seen.push([i, o.result ? 'ran' : o.errors.map((d) => d.code).join()]) });
    expect(r.ok).toBe(false);
    expect(seen[0]).toEqual([0, 'ran']);
    expect(seen[1][0]).toBe(1);
    expect(seen[1][1]).not.toBe('ran');
    expect(seen[2]).toEqual([2, 'ref-undefined']);
    expect(seen[3]).toEqual([3, 'ran']);
    expect(rows(store).map((x) => x.tags)).toEqual([JSON.stringify(['c'])]);
  });

  it('a refusal that names no statement still refuses the whole script', async () => {
    const store = await freshStore();
    const seen: number[] = [];
    const r = await new Session(store, { now: 'not a time' }).run([{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' } } }], { statementwise: true, onStatement: (i) => seen.push(i) });
    expect(r.ok).toBe(false);
    expect(seen).toEqual([]);
    expect(rows(store)).toEqual([]);
  });
});
