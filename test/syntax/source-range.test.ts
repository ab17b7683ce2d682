/**
 * The parser's ranges are kept as offsets (the lexer tracks no lines) and compute line and
 * column when read (`SourceRange`): they must be the positions Chevrotain's line-tracking lexer
 * gives the same tokens, on the upstream DSL and on texts with every kind of line break; and
 * what leaves the front end as data (diagnostics, source map entries) is plain.
 */
import type { IToken } from 'chevrotain';
import { describe, expect, it } from 'vitest';
import * as T from '../../src/syntax/tokens.js';
import { SourceRange, plainRange } from '../../src/diagnostics/sourceRange.js';
import type { IR } from '../../src/ir/schema.js';
import { validateIr } from '../../src/ir/validate.js';
import { irsToText, textToIr } from '../../src/pipeline.js';
import { lex } from '../../src/syntax/lex.js';
import { tokenRange } from '../../src/syntax/nodes.js';
import { parse } from '../../src/syntax/index.js';
import { visit } from '../../src/syntax/visit.js';
import { corpusIrs } from '../ir-corpus.js';

/** Chevrotain's own positions of a token of the line-tracking lexer, as a range (end exclusive). */
const tracked = (t: IToken) => ({
  start: { line: t.startLine, column: t.startColumn, offset: t.startOffset },
  end: { line: t.endLine, column: t.endColumn! + 1, offset: t.endOffset! + 1 },
});

function expectTrackedPositions(text: string): void {
  const full = T.lexer.tokenize(text);
  const { tokens, comments } = lex(text);
  const all = [...tokens, ...comments].sort((a, b) => a.startOffset - b.startOffset);
  const fullAll = [...full.tokens, ...((full.groups.comments as IToken[] | undefined) ?? [])].sort((a, b) => a.startOffset - b.startOffset);
  expect(all.map((t) => t.startLine)).toEqual(all.map(() => undefined));
  expect(all.map((t) => plainRange(tokenRange(t)))).toEqual(fullAll.map(tracked));
}

describe('ranges from offsets', () => {
  const dsl = irsToText(corpusIrs().map(({ ir }) => validateIr(ir).ir as IR));

  it('give every token of the upstream DSL the line and column the line-tracking lexer gives it', () => {
    expectTrackedPositions(dsl);
  });

  it('count \\n, \\r\\n and a lone \\r as one line break each, as the lexer does', () => {
    const script = 'ENCODE "a" TAGS x; # one\nLABEL ID 1 TAGS "b";\r\n\r\n  DELETE ID 2;\rRETRIEVE\r\n WHERE tags HAS "c"\n\n LIMIT 3;\n# end';
    expectTrackedPositions(script);
    for (const sep of ['\n', '\r\n', '\r']) expectTrackedPositions(`${dsl.slice(0, 20_000).split('\n').join(sep)}`);
  });

  it('are SourceRanges in the AST, plain data in diagnostics and source maps, and JSON as plain ranges', () => {
    const text = 'ENCODE "a" TAGS x WEIGHT 2;\nLABEL ID 1 TAGS "b" TAGS "c";\nRETRIEVE WHERE tags HAS "x" LIMT 5;';
    const { script } = parse(text);
    visit(script.statements[0], (n) => {
      expect(n.loc).toBeInstanceOf(SourceRange);
      expect(JSON.parse(JSON.stringify(n.loc))).toEqual(plainRange(n.loc));
    });
    const result = textToIr(text);
    expect(result.diagnostics.length).toBeGreaterThan(0);
    for (const d of result.diagnostics) {
      expect(d.range).not.toBeInstanceOf(SourceRange);
      for (const r of d.related ?? []) expect(r.range).not.toBeInstanceOf(SourceRange);
      for (const e of d.fix?.edits ?? []) expect(e.range).not.toBeInstanceOf(SourceRange);
    }
    // The LABEL (the ENCODE's WEIGHT 2 is refused): its op from its verb, read before any iteration.
    expect(result.sourceMaps[0].get('op')).toEqual({ start: { line: 2, column: 1, offset: 28 }, end: { line: 2, column: 6, offset: 33 } });
    for (const map of result.sourceMaps) for (const [, r] of map) expect(r).not.toBeInstanceOf(SourceRange);
    for (const map of textToIr(text).sourceMaps) for (const r of map.values()) expect(r).not.toBeInstanceOf(SourceRange);
  });
});
