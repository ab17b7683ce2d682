/** Statement references: `LET $n = …` binds ids, later statements use `$n`; resolved by `run` in the script's transaction. */
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/syntax/index.js';
import { astToIr } from '../../src/convert/index.js';
import { explain, run, type Store } from '../../src/engine/index.js';
import { freshStore, NOW, rows } from './harness.js';

function irsOf(text: string): unknown[] {
  const parsed = parse(text);
  const converted = astToIr(parsed.script);
  expect([...parsed.diagnostics, ...converted.diagnostics]).toEqual([]);
  return converted.irs;
}
function runText(store: Store, text: string) {
  const converted = astToIr(parse(text).script);
  return run(store, converted.irs, { now: NOW, sourceMaps: converted.sourceMaps });
}

describe('LET and references in the engine', () => {
  it('EXPIRE by reference touches only the new record, although an older one shares its tags', async () => {
    const store = await freshStore();
    expect(runText(store, 'ENCODE "old" TAGS "sprint";').ok).toBe(true);
    const r = runText(store, 'LET $n = ENCODE "new" TAGS "sprint";\nEXPIRE ID $n TTL P7D;');
    expect(r.ok).toBe(true);
    expect(r.results.map((x) => x.ids)).toEqual([[2], [2]]);
    const byId = new Map(rows(store).map((x) => [x.id, x]));
    expect(byId.get(1)!.expire_at).toBeNull();
    expect(byId.get(2)!.expire_at).toBe('2025-10-28T00:00:00Z');
  });

  it('SPLIT binds its pieces; IDS of a binding expands to all of them; MERGE binds the primary; RETRIEVE the returned ids', async () => {
    const store = await freshStore();
    const r = runText(store, [
      'LET $n = ENCODE "One. Two. Three." TAGS "t";',
      'LET $parts = SPLIT ID $n STRATEGY by_sentences;',
      'LET $tagged = LABEL IDS $parts TAGS "piece";',
      'LET $m = MERGE IDS $tagged INTO auto;',
      'LET $got = RETRIEVE IDS $m, $n INCLUDE id, text;',
      'PROMOTE IDS $got SET weight 0.9;',
    ].join('\n'));
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.ok).toBe(true);
    const [, split, label, merge, retrieve, promote] = r.results;
    expect(split.ids).toEqual([1, 2, 3, 4]);
    expect(label.ids).toEqual([2, 3, 4]);
    expect(merge.ids[0]).toBe(2);
    // The split source (#1) is retired, so only the merged primary comes back.
    expect(retrieve.ids).toEqual([2]);
    expect(promote.ids).toEqual([2]);
  });

  it('a MERGE primary by reference must be one id', async () => {
    const store = await freshStore();
    const r = runText(store, 'LET $n = ENCODE "A. B." TAGS "t";\nLET $p = SPLIT ID $n STRATEGY by_sentences;\nMERGE IDS $p INTO $p;');
    expect(r).toMatchObject({ ok: false, diagnostics: [{ code: 'ref-not-single', statement: 2, path: 'args.primary_id', range: { start: { line: 3, column: 19 } } }] });
    expect(rows(store)).toEqual([]);
  });

  it('a reference that resolves to no ids refuses the statement and rolls the script back', async () => {
    const store = await freshStore();
    const r = runText(store, 'ENCODE "kept?";\nLET $gone = DELETE WHERE tags HAS "nope" LIMIT 1;\nEXPIRE ID $gone TTL P1D;');
    expect(r).toMatchObject({ ok: false, diagnostics: [{ code: 'ref-empty', statement: 2, path: 'target.ids', range: { start: { line: 3, column: 11 }, end: { line: 3, column: 16 } } }] });
    expect(r.diagnostics[0].message).toContain('$gone');
    expect(rows(store)).toEqual([]);
  });

  it('explain resolves references the same way and changes nothing', async () => {
    const store = await freshStore();
    const e = explain(store, irsOf('LET $n = ENCODE "x";\nDELETE ID $n HARD;'), { now: NOW });
    expect(e.ok).toBe(true);
    expect(e.results.map((x) => x.ids)).toEqual([[1], [1]]);
    expect(rows(store)).toEqual([]);
  });

  it('the checker refuses a script whose references are out of scope before anything runs', async () => {
    const store = await freshStore();
    const r = runText(store, 'ENCODE "a";\nEXPIRE ID $later TTL P1D;\nLET $later = ENCODE "b";');
    expect(r).toMatchObject({ ok: false, results: [], diagnostics: [{ code: 'ref-before-let', statement: 1 }] });
    expect(rows(store)).toEqual([]);
  });

  it('the audit log records the statement with its references resolved', async () => {
    const store = await freshStore();
    expect(runText(store, 'LET $n = ENCODE "x";\nEXPIRE ID $n TTL P1D;').ok).toBe(true);
    const { auditLog } = await import('../../src/engine/index.js');
    const expire = auditLog(store).find((a) => a.op === 'Expire')!;
    expect((expire.ir as { target: unknown }).target).toEqual({ ids: ['1'] });
  });
});
