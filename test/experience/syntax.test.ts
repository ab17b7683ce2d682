/** Experience memory in the language: DSL ⇄ IR for the new clauses, the checker's rule, the extension staying off upstream IRs. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { irsToText, textToIr } from '../../src/pipeline.js';
import { at, expectDiagnostics } from '../check/harness.js';

const SCRIPT = [
  'LET $e = ENCODE "Task: revenue by region" LEVEL episode TAGS "sql";',
  'ENCODE "State: no such column amt. Action: inspect schema" LEVEL turn OF $e;',
  'ENCODE "a second turn" LEVEL turn OF 1;',
  'LET $t = SPLIT ID $e LEVEL turn STRATEGY custom;',
  'RETRIEVE WHERE search "revenue per region" K 10 LEVEL episode PICK 2 SET selector = "similarity";',
  'RETRIEVE WHERE search CONTEXT "error: no such column" K 8 LEVEL turn EXPAND episode INCLUDE id, text;',
  'PROMOTE IDS $e, $t REWARD 0.75;',
].join('\n');

describe('experience memory: DSL and IR', () => {
  it('writes the documented IR fields (spec/syntax.md §12)', () => {
    const { irs, diagnostics } = textToIr(SCRIPT);
    expect(diagnostics).toEqual([]);
    expect(irs.map((ir) => (ir as { args?: unknown }).args)).toEqual([
      { payload: { text: 'Task: revenue by region' }, level: 'episode', tags: ['sql'] },
      { payload: { text: 'State: no such column amt. Action: inspect schema' }, level: 'turn', episode_id: { $ref: 'e' } },
      { payload: { text: 'a second turn' }, level: 'turn', episode_id: 1 },
      { level: 'turn', strategy: 'custom' },
      { level: 'episode', pick: 2, selector: 'similarity' },
      { level: 'turn', expand: 'episode', include: ['id', 'text'] },
      { reward: 0.75 },
    ]);
    expect((irs[5] as { target: unknown }).target).toEqual({ search: { intent: { context: 'error: no such column' }, overrides: { k: 8 } } });
  });

  it('round-trips: IR → DSL → IR is the identity, and the DSL prints canonically', () => {
    const { irs } = textToIr(SCRIPT);
    const text = irsToText(irs as never);
    expect(text).toMatch(/LEVEL turn\s+OF \$e/);
    expect(text).toContain('PROMOTE IDS $e, $t REWARD 0.75;');
    const again = textToIr(text);
    expect(again.diagnostics).toEqual([]);
    expect(again.irs).toEqual(irs);
    expect(irsToText(again.irs as never)).toBe(text);
  });

  it('no upstream IR uses the extension\'s keys, so none of them changes meaning', () => {
    const keys = ['"level"', '"episode_id"', '"pick"', '"expand"', '"selector"', '"reward"'];
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? walk(p) : /\.jsonl?$/.test(f) ? [p] : [];
    });
    const files = walk('fixtures/upstream');
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const k of keys) expect(text.includes(k), `${f} uses ${k}`).toBe(false);
    }
  });
});

describe('experience memory: checks', () => {
  it('REWARD outside [0, 1] is an error at the number, with a fix', () => {
    const src = 'PROMOTE ID 3 REWARD 1.5;';
    expect(expectDiagnostics(src)).toEqual([{ code: 'reward-out-of-range', range: at(src, '1.5') }]);
    const { diagnostics } = textToIr(src);
    expect(diagnostics[0].fix?.edits[0].newText).toBe('1');
  });

  it('a level retrieval needs a search', () => {
    const src = 'RETRIEVE WHERE tags HAS "sql" LIMIT 5 LEVEL episode;';
    expect(expectDiagnostics(src).map((d) => d.code)).toEqual(['level-needs-search']);
  });

  it('OF and EXPAND need LEVEL turn; PICK needs a LEVEL; SPLIT makes turns only', () => {
    const of = 'ENCODE "x" LEVEL episode OF 1;';
    expect(expectDiagnostics(of)).toEqual([{ code: 'level-mismatch', range: at(of, '1', 0) }]);
    const expand = 'RETRIEVE WHERE search "q" LEVEL episode EXPAND episode;';
    expect(expectDiagnostics(expand)).toEqual([{ code: 'level-mismatch', range: at(expand, 'episode', 1) }]);
    const pick = 'RETRIEVE WHERE search "q" PICK 2;';
    expect(expectDiagnostics(pick)).toEqual([{ code: 'level-mismatch', range: at(pick, '2') }]);
    const split = 'SPLIT ID 1 LEVEL episode;';
    expect(expectDiagnostics(split)).toEqual([{ code: 'level-mismatch', range: at(split, 'episode') }]);
  });

  it('CONTEXT in an episode retrieval is a warning; PICK above K too', () => {
    const ctx = 'RETRIEVE WHERE search "q" CONTEXT "state" LEVEL episode;';
    expect(expectDiagnostics(ctx)).toEqual([{ code: 'context-without-turn', range: at(ctx, '"state"') }]);
    const pick = 'RETRIEVE WHERE search "q" K 3 LEVEL episode PICK 5;';
    expect(expectDiagnostics(pick)).toEqual([{ code: 'pick-over-k', range: at(pick, '5') }]);
  });

  it('a turn retrieval may search by its state alone; an ordinary search may not', () => {
    expect(expectDiagnostics('RETRIEVE WHERE search CONTEXT "state" LEVEL turn;')).toEqual([]);
    expect(expectDiagnostics('RETRIEVE WHERE search CONTEXT "state";').map((d) => d.code)).toEqual(['missing-field']);
  });

  it('a level value outside episode | turn is invalid-enum', () => {
    expect(expectDiagnostics('ENCODE "x" LEVEL session;').map((d) => d.code)).toEqual(['invalid-enum']);
  });
});

describe('experience memory: the utility is written by feedback only', () => {
  it('UPDATE SET utility and ENCODE … SET utility_n are governed-column errors', () => {
    const upd = 'UPDATE ID 1 SET utility = 1;';
    expect(expectDiagnostics(upd)).toEqual([{ code: 'governed-column', range: at(upd, '1', 1) }]);
    expect(expectDiagnostics('ENCODE "x" SET utility_n = 5;').map((d) => d.code)).toEqual(['governed-column']);
  });
});

describe('experience memory: fixes', () => {
  it('a state-only search at LEVEL episode offers LEVEL turn; SPLIT … LEVEL episode too', () => {
    const src = 'RETRIEVE WHERE search CONTEXT "error: no such column" LEVEL episode;';
    const [d] = textToIr(src).diagnostics;
    expect(d.code).toBe('context-without-turn');
    const edit = d.fix!.edits[0];
    expect(src.slice(0, edit.range.start.offset) + edit.newText + src.slice(edit.range.end.offset)).toBe('RETRIEVE WHERE search CONTEXT "error: no such column" LEVEL turn;');
    const split = 'SPLIT ID 1 LEVEL episode;';
    expect(textToIr(split).diagnostics[0].fix!.edits[0].newText).toBe('turn');
  });
});
