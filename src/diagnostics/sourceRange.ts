/**
 * Ranges kept as offsets, with line and column computed when read. The parser gives every AST
 * node a range; building each as a `Range` and two `Position`s (with the lexer tracking lines and
 * columns for every token) was about a fifth of the front end's time, and nearly all of them are
 * never read. A `SourceRange` is one small object: its `start` and `end` are computed from the
 * offsets by the text's line starts, which are found the first time any of its ranges is read.
 * It is a `Range` to everything that reads one; what leaves the front end as data (diagnostics,
 * source map entries) is made plain with `plainRange`, so that it can be compared, copied and
 * posted like any other object. `JSON.stringify` writes it as the plain range.
 */
import type { Position, Range } from './diagnostic.js';

/** The line starts of a text as the lexer counts lines: `\n`, `\r\n` and a lone `\r` each end one. */
export class LexerLines {
  private starts: number[] | undefined;
  /** The line of the last position computed: positions are mostly read near each other (a source map's entries). */
  private last = 0;

  constructor(readonly text: string) {}

  position(offset: number): Position {
    const starts = (this.starts ??= lineStarts(this.text));
    const near = this.last;
    if (starts[near] <= offset && (near + 1 === starts.length || offset < starts[near + 1])) return { line: near + 1, column: offset - starts[near] + 1, offset };
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    this.last = lo;
    return { line: lo + 1, column: offset - starts[lo] + 1, offset };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return starts;
}

/** A range of a lexed text by its offsets (`to` exclusive); a `Range` whose positions are computed when read. */
export class SourceRange implements Range {
  constructor(readonly lines: LexerLines, readonly from: number, readonly to: number) {}

  get start(): Position {
    return this.lines.position(this.from);
  }

  get end(): Position {
    return this.lines.position(this.to);
  }

  toJSON(): Range {
    return { start: this.start, end: this.end };
  }
}

/** The offset a range starts at (for a `SourceRange`, without computing its position). */
export function startOffset(r: Range): number {
  return r instanceof SourceRange ? r.from : r.start.offset;
}

/** The offset a range ends at (exclusive; for a `SourceRange`, without computing its position). */
export function endOffset(r: Range): number {
  return r instanceof SourceRange ? r.to : r.end.offset;
}

/** The range as plain data (a `SourceRange` materialised; any other range as it is). */
export function plainRange(r: Range): Range;
export function plainRange(r: Range | undefined): Range | undefined;
export function plainRange(r: Range | undefined): Range | undefined {
  return r instanceof SourceRange ? { start: r.start, end: r.end } : r;
}

/** The diagnostic with its ranges (its own, its related information's, its fix's) made plain. */
export function plainDiagnostic<D extends { readonly range?: Range; readonly related?: readonly { readonly message: string; readonly range?: Range }[]; readonly fix?: { readonly message: string; readonly edits: readonly { readonly range: Range; readonly newText: string }[] } }>(d: D): D {
  const lazy = d.range instanceof SourceRange
    || d.related?.some((r) => r.range instanceof SourceRange)
    || d.fix?.edits.some((e) => e.range instanceof SourceRange);
  if (!lazy) return d;
  return {
    ...d,
    ...(d.range ? { range: plainRange(d.range) } : {}),
    ...(d.related ? { related: d.related.map((r) => (r.range ? { ...r, range: plainRange(r.range) } : r)) } : {}),
    ...(d.fix ? { fix: { ...d.fix, edits: d.fix.edits.map((e) => ({ ...e, range: plainRange(e.range) })) } } : {}),
  };
}
