/**
 * Comments: `#` comments are not in the token stream the parser reads; they are given back to
 * the statement before which, or the clause after which, they were written, with the empty lines
 * around them, so the printer can keep them in place.
 */
import type { IToken } from 'chevrotain';
import type * as A from './ast.js';
import type { RawStatement } from './cstToAst.js';
import { SourceRange, endOffset, startOffset } from '../diagnostics/sourceRange.js';
import { tokenRange } from './lex.js';
import { useText } from './nodes.js';

function commentNode(t: IToken): A.Comment {
  return { kind: 'Comment', text: t.image.slice(1), loc: tokenRange(t) };
}

/** The script: the statements with their comments, and the comments after the last one. */
export function attachComments(text: string, raw: RawStatement[], commentTokens: IToken[]): A.Script {
  const comments = commentTokens.map(commentNode);
  let ci = 0;
  let prevEnd = 0;
  const statements: A.Statement[] = [];
  raw.forEach((s, index) => {
    const leading: A.Comment[] = [];
    const inside: A.Comment[] = [];
    let trailing: A.Comment | undefined;
    // Comments before this statement, then those inside it (they go to its clauses).
    while (ci < comments.length && startOffset(comments[ci].loc) < startOffset(s.loc)) leading.push(comments[ci++]);
    while (ci < comments.length && startOffset(comments[ci].loc) < endOffset(s.loc)) inside.push(comments[ci++]);
    const clauses = attachClauseComments(text, s.clauses, inside, leading);
    // A comment on the statement's last line, after it, trails it.
    const c = comments[ci];
    const nextStart = index + 1 < raw.length ? startOffset(raw[index + 1].loc) : Infinity;
    if (c && c.loc.start.line === s.loc.end.line && startOffset(c.loc) < nextStart) {
      trailing = c;
      ci++;
    }
    const firstOffset = startOffset((leading[0] ?? s).loc);
    const blankLineBefore = index > 0 && blankBetween(text, prevEnd, firstOffset);
    const lastComment = leading[leading.length - 1];
    const blankLineAfterComments = !!lastComment && endOffset(lastComment.loc) < startOffset(s.loc) && blankBetween(text, endOffset(lastComment.loc), startOffset(s.loc));
    prevEnd = endOffset((trailing ?? s).loc);
    const leadingComments = markBlankLines(text, leading);
    // The usual statement (no binding, nothing after it on its line, no empty line before it) is
    // built without the spreads, with its keys in the same order.
    if (!s.binding && !trailing && !blankLineBefore && !blankLineAfterComments) {
      statements.push({ kind: 'Statement', verb: s.verb, text: s.text, clauses, leadingComments, loc: s.loc });
      return;
    }
    statements.push({
      kind: 'Statement', ...(s.binding ? { binding: s.binding } : {}), verb: s.verb, text: s.text, clauses, leadingComments,
      ...(trailing ? { trailingComment: trailing } : {}), ...(blankLineBefore ? { blankLineBefore } : {}),
      ...(blankLineAfterComments ? { blankLineAfterComments } : {}), loc: s.loc,
    });
  });
  const trailingComments = markBlankLines(text, comments.slice(ci));
  // The whole text, its end's line and column computed when read (it was a scan of the text for every parse).
  return { kind: 'Script', statements, trailingComments, loc: new SourceRange(useText(text), 0, text.length) };
}

/**
 * Gives each comment inside a statement to a clause: a comment after a clause on its last line
 * trails it; any other goes before the next clause (or, with no clause after it, trails the
 * last one; with no clauses at all, it leads the statement).
 */
function attachClauseComments(text: string, clauses: readonly A.Clause[], inside: A.Comment[], statementLeading: A.Comment[]): A.Clause[] {
  if (inside.length === 0) return clauses as A.Clause[];
  if (clauses.length === 0) {
    statementLeading.push(...inside);
    return [];
  }
  const leading = clauses.map((): A.Comment[] => []);
  const trailing: Array<A.Comment | undefined> = clauses.map(() => undefined);
  for (const c of inside) {
    const at = startOffset(c.loc);
    const before = clauses.findLastIndex((cl) => endOffset(cl.loc) <= at);
    const next = clauses.findIndex((cl) => startOffset(cl.loc) > at);
    if (before >= 0 && clauses[before].loc.end.line === c.loc.start.line && !trailing[before] && (next < 0 || next === before + 1)) trailing[before] = c;
    else if (next >= 0) leading[next].push(c);
    else if (!trailing[clauses.length - 1]) trailing[clauses.length - 1] = c;
    else leading[clauses.length - 1].push(c);
  }
  return clauses.map((cl, i) => ({
    ...cl,
    ...(leading[i].length ? { leadingComments: markBlankLines(text, leading[i]) } : {}),
    ...(trailing[i] ? { trailingComment: trailing[i] } : {}),
  }));
}

/** `/\n[ \t\r]*\n/` matches `text` between `from` and `to` (scanned in place, no slice). */
function blankBetween(text: string, from: number, to: number): boolean {
  let afterLineBreak = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (afterLineBreak) return true;
      afterLineBreak = true;
    } else if (c !== 32 && c !== 9 && c !== 13) afterLineBreak = false;
  }
  return false;
}

/** Marks comments (after the first of a run) that have an empty line before them. */
function markBlankLines(text: string, run: A.Comment[]): A.Comment[] {
  // A run of none or one (the usual) has nothing to mark; every run given here is a fresh array.
  if (run.length < 2) return run;
  return run.map((c, i) => (i > 0 && blankBetween(text, endOffset(run[i - 1].loc), startOffset(c.loc)) ? { ...c, blankLineBefore: true } : c));
}
