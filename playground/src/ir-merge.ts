/**
 * An edit of the IR pane written back into the DSL without losing the script's `#` comments and
 * blank lines: statements whose IR did not change keep their text as written; a changed
 * statement is printed anew in place, the comments written inside it moved to the lines above
 * it; a removed statement leaves its comments; a new statement goes after the one before it.
 * Everything between statements (comments, blank lines) stays as it was. No DOM.
 */
import type { SourceMap } from '../../src/diagnostics/sourceMap.js';
import type { IR } from '../../src/ir/schema.js';
import { tokenize } from '../../src/syntax/lex.js';

export interface Merged {
  readonly text: string;
  /** Statements (new indexes) printed anew. */
  readonly rewritten: number;
  readonly added: number;
  readonly removed: number;
  /** `#` comments moved out of rewritten or removed statements (kept above where they stood). */
  readonly movedComments: number;
}

/** Pairs of (old index, new index) that are the same statement: a longest common subsequence of equal IRs. */
function commonStatements(oldKeys: readonly string[], newKeys: readonly string[]): [number, number][] {
  const n = oldKeys.length;
  const m = newKeys.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] = oldKeys[i] === newKeys[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (oldKeys[i] === newKeys[j]) pairs.push([i++, j++]);
    else if (table[i + 1][j] >= table[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * `oldText` (whose analysis gave `oldIrs` and `oldMaps`, one span per statement) with the IR
 * list `newIrs` in place of `oldIrs`; `print` turns one IR into its canonical DSL statement.
 * Undefined when the old text's statements have no spans (the caller then asks before replacing it).
 */
export function mergeIrEdit(
  oldText: string, oldIrs: readonly IR[], oldMaps: readonly SourceMap[], newIrs: readonly IR[], print: (ir: IR) => string,
): Merged | undefined {
  const spans = oldIrs.map((_, i) => oldMaps[i]?.get(''));
  if (spans.some((s) => !s)) return undefined;
  const span = (i: number) => ({ start: spans[i]!.start.offset, end: spans[i]!.end.offset });
  const comments = tokenize(oldText).tokens.filter((t) => t.kind === 'comment');
  const key = (ir: IR) => JSON.stringify(ir);
  const pairs = commonStatements(oldIrs.map(key), newIrs.map(key));

  // Old statement → the new one written in its place (undefined: removed); new statements with no old slot.
  const replacedBy = new Map<number, number | undefined>();
  const insertedAfter = new Map<number, number[]>(); // old index (-1: before the first) → new indexes
  let prevOld = -1;
  let prevNew = -1;
  for (const [oi, ni] of [...pairs, [oldIrs.length, newIrs.length] as [number, number]]) {
    const olds = Array.from({ length: oi - prevOld - 1 }, (_, k) => prevOld + 1 + k);
    const news = Array.from({ length: ni - prevNew - 1 }, (_, k) => prevNew + 1 + k);
    // Changed in place, position by position; the rest removed or added.
    olds.forEach((o, k) => replacedBy.set(o, news[k]));
    if (news.length > olds.length) {
      const after = olds.length ? olds[olds.length - 1] : prevOld;
      insertedAfter.set(after, news.slice(olds.length));
    }
    prevOld = oi;
    prevNew = ni;
  }

  const edits: Edit[] = [];
  let rewritten = 0;
  let movedComments = 0;
  const lineStart = (offset: number) => oldText.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = (offset: number) => {
    const nl = oldText.indexOf('\n', offset);
    return nl < 0 ? oldText.length : nl;
  };
  for (const [o, n] of replacedBy) {
    const { start, end } = span(o);
    const inside = comments.filter((c) => c.range.start.offset >= start && c.range.end.offset <= end).map((c) => c.image);
    movedComments += inside.length;
    const indent = /^[ \t]*/.exec(oldText.slice(lineStart(start), start))?.[0] ?? '';
    const ownLine = oldText.slice(lineStart(start), start).trim() === '' && oldText.slice(end, lineEnd(end)).trim() === '';
    const commentLines = inside.map((c) => `${c}\n${indent}`).join('');
    if (n === undefined) {
      // Removed: its comments stay; a statement alone on its line takes the line with it.
      let after = end;
      while (oldText[after] === ' ' || oldText[after] === '\t') after++;
      if (inside.length) edits.push({ start, end, text: commentLines.replace(/\n[ \t]*$/, '') });
      else if (ownLine) edits.push({ start: lineStart(start), end: Math.min(oldText.length, lineEnd(end) + 1), text: '' });
      else edits.push({ start, end: after, text: '' });
      continue;
    }
    rewritten++;
    edits.push({ start, end, text: commentLines + print(newIrs[n]).trim().replace(/\n/g, `\n${indent}`) });
  }
  let added = 0;
  for (const [after, news] of insertedAfter) {
    added += news.length;
    const block = news.map((n) => print(newIrs[n]).trim()).join('\n');
    if (after >= 0) {
      // After the old statement's line (its trailing comment stays with it).
      const at = lineEnd(span(after).end);
      edits.push({ start: at, end: at, text: `\n${block}` });
    } else if (oldIrs.length) {
      const at = lineStart(span(0).start);
      edits.push({ start: at, end: at, text: `${block}\n` });
    } else {
      const sep = oldText.trim() === '' ? '' : oldText.endsWith('\n') ? '' : '\n';
      edits.push({ start: oldText.length, end: oldText.length, text: `${sep}${block}\n` });
    }
  }
  let text = oldText;
  for (const e of edits.sort((a, b) => b.start - a.start || b.end - a.end)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  if (oldText.trim() === '' && text.trim() !== '') text = text.trimStart();
  return { text, rewritten, added, removed: [...replacedBy.values()].filter((n) => n === undefined).length, movedComments };
}
