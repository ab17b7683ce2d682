/**
 * The recovery driver and its syntax diagnostics: statements are parsed one `;`-piece at a time,
 * unreadable parts are skipped to the next statement, and each parser error becomes a diagnostic
 * that says what was expected, with "did you mean" for a misspelt keyword and plain advice for
 * the usual misplacements (ORDER BY after a filter, LIMIT away from WHERE).
 */
import type { CstNode, IRecognitionException, IToken, TokenType } from 'chevrotain';
import { tokenMatcher } from 'chevrotain';
import type { Code, Diagnostic } from '../diagnostics/diagnostic.js';
import { closest } from '../diagnostics/suggest.js';
import * as T from './tokens.js';
import { fastParser, parser, expectedAtToken, type T2mParser } from './grammar.js';
import {
  CLAUSES, CONDITION_OPERATORS, CONDITION_ORDER, MAX_NESTING, SEARCH_OPTIONS, SEARCH_OPTION_NAMES, clauseSpec, firstKeyword, type ClauseName, type ClauseShape, type Keyword,
} from '../language/index.js';
import type * as A from './ast.js';
import { buildStatement, type RawStatement } from './cstToAst.js';
import { VERB_SET } from './lex.js';
import { plainTokenRange, textLines, tokenEnd, tokenRange } from './nodes.js';
import { describeVerbClauses, verbClauseKeywords } from './verbClauses.js';
import { nextWords, startWords } from './next.js';

function diagnosticAt(t: IToken, code: Code, message: string, fix?: Diagnostic['fix']): Diagnostic {
  return { code, severity: 'error', message, range: plainTokenRange(t), ...(fix ? { fix } : {}) };
}

/**
 * A `;` missing between `prev` (the last token of a statement) and `verb` (the next one's first):
 * reported where the `;` goes, at the end of the statement before, with the fix that inserts it.
 */
function missingSemicolon(prev: IToken, verb: IToken): Diagnostic {
  const end = tokenRange(prev).end;
  return {
    code: 'missing-semicolon',
    severity: 'error',
    message: `Expected ';' before '${verb.image}': statements end with ';'.`,
    range: { start: end, end },
    fix: { message: "insert ';'", edits: [{ range: { start: end, end }, newText: ';' }] },
  };
}

/** A token that starts a statement: a verb, or `LET` (`LET $n = ENCODE …`). */
function isVerb(t: IToken | undefined): boolean {
  return !!t && (VERB_SET.has(t.tokenType) || t.tokenType === T.KW.LET);
}

/**
 * Words a clause may start with, for "did you mean": the vocabulary's clauses by their first
 * keyword, the WHERE continuations LIMIT and AND among them. Ties go to the earlier word, so the
 * order (keyword-led shapes first, value clauses last) is kept stable.
 */
const CLAUSE_WORDS: readonly string[] = (() => {
  const names = Object.keys(CLAUSES) as ClauseName[];
  const ofShape = (shape: ClauseShape) => names.filter((n) => clauseSpec(n)!.shape === shape).map(firstKeyword);
  const shapes: ClauseShape[] = ['target', 'set', 'with', 'list', 'max-tokens', 'older-than', 'within', 'flag'];
  const continuations: Keyword[] = ['LIMIT', 'AND'];
  return [...shapes.flatMap(ofShape), ...continuations, ...ofShape('value')];
})();

function suggestionFix(t: IToken, word: string): Diagnostic['fix'] {
  return { message: `replace '${t.image}' with '${word}'`, edits: [{ range: plainTokenRange(t), newText: word }] };
}

/**
 * Words a WHERE condition starts with (`search`, `tags`, `time`, `type`, …), for "did you mean"
 * on a misspelt one: the parser takes any word there as a field name and only fails on the token
 * after it (`WHERE serch "x"` fails at `"x"`, where an operator was expected).
 */
const CONDITION_WORDS: readonly string[] = [...new Set([
  'search',
  ...CONDITION_ORDER.map((key) => Object.values(CONDITION_OPERATORS).find((o) => o.key === key)?.field ?? key),
])];

/** A diagnostic for a parser error, with "did you mean" when a bare word is close to an expected keyword or condition field. */
function parserErrorDiagnostic(e: { message: string; token: IToken; previousToken?: IToken }, lastToken: IToken): Diagnostic {
  const t = e.token;
  const previous = e.previousToken;
  // Only where the parser wanted a condition's operator, so the word before was read as a field.
  const wantedOperator = (expectedAtToken.get(t) ?? []).includes(T.KW.HAS);
  if (wantedOperator && previous?.tokenType === T.Identifier && !CONDITION_WORDS.includes(previous.image.toLowerCase())) {
    const word = closest(previous.image.toLowerCase(), CONDITION_WORDS);
    if (word) return diagnosticAt(previous, 'unknown-keyword', `Unknown word '${previous.image}'; did you mean ${word}? ${e.message}`, suggestionFix(previous, word));
  }
  const atEof = t.tokenType.name === 'EOF' || !Number.isFinite(t.startOffset);
  if (t.tokenType === T.Identifier) {
    // Only suggest keywords the parser could take here (a unit where a number is due is no typo).
    const expected = (expectedAtToken.get(t) ?? []).filter((x) => T.KEYWORDS.includes(x.name)).map((x) => x.name);
    const word = expected.length ? closest(t.image, expected) : undefined;
    if (word) return diagnosticAt(t, 'unknown-keyword', `Unknown word '${t.image}'; did you mean ${word}? ${e.message}`, suggestionFix(t, word));
  }
  if (atEof) {
    // Point just after the last token, where the missing part should go.
    const end = tokenRange(lastToken).end;
    return { code: 'unexpected-end', severity: 'error', message: e.message, range: { start: end, end } };
  }
  return diagnosticAt(t, 'unexpected-token', e.message);
}

/** Search options (but LIMIT, which a filter takes too) by their first token, with the option's name and an example. */
const SEARCH_OPTION_EXAMPLES = new Map<TokenType, { name: string; example: string }>(
  SEARCH_OPTION_NAMES.filter((name) => name !== 'LIMIT').map((name) => [T.KW[firstKeyword(name) as Keyword], { name, example: SEARCH_OPTIONS[name].example }]),
);

/**
 * The typical misplacements, said plainly: a search option after a filter (SQL habit puts ORDER BY
 * after WHERE) or after the search's other conditions, and LIMIT away from the WHERE conditions.
 */
function misplacedMessage(t: IToken, statement: RawStatement | undefined): string | undefined {
  const option = SEARCH_OPTION_EXAMPLES.get(t.tokenType);
  if (option) {
    const { name, example } = option;
    const hasSearch = statement?.clauses.some((c) => c.kind === 'WhereClause' && c.conditions.some((x) => x.kind === 'SearchCondition'));
    return hasSearch
      ? `${name} is an option of the search and goes right after it: WHERE search "…" ${example} AND tags HAS "x".`
      : `${name} only goes with a search condition: WHERE search "…" ${example}. A filter (tags HAS …, time IN …, type = …) has no ${t.tokenType === T.KW.ORDER ? 'order' : name}.`;
  }
  if (t.tokenType === T.KW.LIMIT) return 'LIMIT goes right after the WHERE conditions: WHERE tags HAS "x" LIMIT 5 (ID, IDS and ALL take no LIMIT).';
  if (t.tokenType === T.KW.AND) return 'AND joins the conditions of a WHERE and goes right after them: WHERE tags HAS "x" AND type = note.';
  return undefined;
}

/** Last real token index (exclusive end) covered by a CST node, searched in `tokens` from `from`. */
function consumedUntil(cst: CstNode, tokens: readonly IToken[], from: number): number {
  const end = cst.location?.endOffset;
  if (end === undefined || !Number.isFinite(end)) return from;
  let i = from;
  while (i < tokens.length && tokens[i].startOffset <= end) i++;
  return i;
}

/** The token is the first on its line (comments aside: they are not in the token stream). */
function startsLine(t: IToken, previous: IToken): boolean {
  const lines = textLines();
  return lines.position(t.startOffset).line > lines.position(tokenEnd(previous) - 1).line;
}

/**
 * Where the next statement starts after an unreadable part: the first verb at or after `from`
 * (starting a line, when `lineStart`) with no `[` or `{` left open since the statement began at
 * `start`; `chunk.length` when there is none.
 */
function resumeAt(chunk: readonly IToken[], start: number, from: number, lineStart: boolean): number {
  let depth = 0;
  for (let j = start; j < chunk.length; j++) {
    const t = chunk[j];
    if (j >= from && depth === 0 && isVerb(t) && (!lineStart || startsLine(t, chunk[j - 1]))) return j;
    if (t.tokenType === T.LBracket || t.tokenType === T.LBrace) depth++;
    else if ((t.tokenType === T.RBracket || t.tokenType === T.RBrace) && depth > 0) depth--;
  }
  return chunk.length;
}

/**
 * The token where `chunk` passes MAX_NESTING levels, if it does: a bracket that opens one level
 * too many, or a `.` of a dotted path (`SET a.b.c = 1`, each segment a level of the IR) that does.
 */
function firstTooDeep(chunk: readonly IToken[]): IToken | undefined {
  let depth = 0;
  let dots = 0;
  let previous: IToken | undefined;
  for (let i = 0; i < chunk.length; i++) {
    const t = chunk[i];
    if (t.tokenType === T.Dot) {
      if (depth + ++dots > MAX_NESTING) return t;
    } else if (previous?.tokenType !== T.Dot) dots = 0;
    if (t.tokenType === T.LBracket || t.tokenType === T.LBrace) {
      if (++depth > MAX_NESTING) return t;
    } else if ((t.tokenType === T.RBracket || t.tokenType === T.RBrace) && depth > 0) depth--;
    previous = t;
  }
  return undefined;
}

/**
 * Work counters, for the tests that keep recovery linear: `tokensFed` is how many tokens were
 * handed to the parser in all (each window counted whole), `parses` how many times it ran.
 */
export const recoveryWork = { tokensFed: 0, parses: 0 };
/** `happyPath: false` reads every statement with the recovering parser (for the tests that hold the happy path to it). */
export const parsing = { happyPath: true };

/** The first window a statement is parsed in; it doubles while the parse reaches its end. */
const WINDOW = 64;
/** The least window of a statement with errors. */
const ERROR_WINDOW = 4096;
/** The parser looks this many tokens past the one it stands on (maxLookahead 3, plus one). */
const LOOKAHEAD_MARGIN = 4;

/** A statement's AST (when it could be built), its parse errors and the index (in the piece) of the first token after it. */
interface ParsedStatement {
  readonly statement: RawStatement | undefined;
  readonly errors: IRecognitionException[];
  readonly next: number;
}

/**
 * The statement that starts at `chunk[i]`. The happy path first: the first statement of a piece
 * (usually its only one) is read by the parser without recovery or CST, whose actions build its
 * AST as they go, given the piece as it is (no window: without recovery the parser reads only the
 * statement and its lookahead). Its reading is taken when it has no error and ends where the
 * piece ends (at its `;`): there recovery has nothing to do, so the recovering parser and
 * cstToAst would build the same tree (test/syntax/happy-path.test.ts holds them to it). Any other
 * statement is read by the recovering parser, so its tree and diagnostics are that parser's.
 */
function parseStatementAt(chunk: readonly IToken[], i: number): ParsedStatement {
  if (i === 0 && parsing.happyPath) {
    fastParser.input = chunk as IToken[];
    recoveryWork.tokensFed += chunk.length;
    recoveryWork.parses++;
    const statement = fastParser.statement();
    // `currIdx` is the last token the parser consumed.
    const next = (fastParser as unknown as { currIdx: number }).currIdx + 1;
    if (next === chunk.length && fastParser.errors.length === 0) return { statement, errors: [], next };
  }
  const { cst, errors } = parseStatementWith(parser, chunk, i);
  return { statement: buildStatement(cst), errors, next: consumedUntil(cst, chunk, i) };
}

/**
 * Parses the statement that starts at `chunk[i]`, giving the parser a window of the tokens rather
 * than the whole rest of the piece: handing it `chunk.slice(i)` for every statement of a piece
 * with many `;` missing was quadratic. The window doubles until the parser stopped short of its
 * end by more than its lookahead, so it never saw the window's end and the result is the one the
 * whole rest would have given; a statement of n tokens costs O(n) however long the piece is.
 */
function parseStatementWith(parser: T2mParser<CstNode>, chunk: readonly IToken[], i: number): { cst: CstNode; errors: IRecognitionException[] } {
  for (let size = WINDOW; ; size *= 2) {
    const end = Math.min(chunk.length, i + size);
    const window = chunk.slice(i, end);
    // The CST's locations are read from the tokens' `endOffset`, which the lexer does not record.
    for (const t of window) if (t.endOffset === undefined) t.endOffset = tokenEnd(t) - 1;
    parser.input = window;
    recoveryWork.tokensFed += end - i;
    recoveryWork.parses++;
    const cst = parser.statement();
    // Input left after the statement is handled by the caller, not reported as "redundant input".
    const errors = parser.errors.filter((e) => e.name !== 'NotAllInputParsedException');
    const stoppedAt = (parser as unknown as { currIdx?: number }).currIdx;
    const sawEnd = typeof stoppedAt !== 'number' || stoppedAt + LOOKAHEAD_MARGIN >= end - i;
    // After an error, the parser's recovery may have looked further ahead for a token to resume
    // at: such a statement gets a window of at least ERROR_WINDOW tokens (or the whole rest).
    if (end === chunk.length || (!sawEnd && (errors.length === 0 || size >= ERROR_WINDOW))) return { cst, errors };
  }
}

/**
 * Parses the statements of a token stream, recovering from errors: the stream is cut at each
 * `;` and every piece is parsed on its own, so one broken statement cannot hide the errors of the
 * next; an unreadable part is skipped up to the next verb that can start a statement, and a
 * missing `;` before a verb is reported. Syntax diagnostics are appended to `diagnostics`.
 */
export function parseStatements(tokens: readonly IToken[], diagnostics: Diagnostic[]): RawStatement[] {
  const raw: RawStatement[] = [];

  // Cut at every `;` (it never appears inside a value), keeping the `;` with its statement.
  // Each piece is parsed as soon as it is cut, so that its array dies young.
  for (let from = 0, k = 0; from < tokens.length; k++) {
    if (k < tokens.length && tokens[k].tokenType !== T.Semicolon) continue;
    const chunk = tokens.slice(from, k + 1);
    from = k + 1;
    // Lists and objects nested deeper than the limit are refused before the (recursive) parser
    // and converters see them: the piece is skipped, with one diagnostic where the limit is passed.
    const tooDeep = firstTooDeep(chunk);
    if (tooDeep) {
      diagnostics.push(diagnosticAt(tooDeep, 'too-deep', `Lists and objects nest deeper than ${MAX_NESTING} levels here; the statement is not read.`));
      continue;
    }
    let i = 0;
    while (i < chunk.length) {
      const t = chunk[i];
      if (t.tokenType === T.Semicolon) { i++; continue; }
      if (!isVerb(t)) {
        const word = t.tokenType === T.Identifier || tokenMatcher(t, T.Keyword) ? closest(t.image, T.VERBS) : undefined;
        diagnostics.push(word
          ? diagnosticAt(t, 'unknown-verb', `Unknown verb '${t.image}'; did you mean ${word}?`, suggestionFix(t, word))
          : diagnosticAt(t, 'expected-statement', `Expected a statement starting with a verb (${T.VERBS.join(', ')}) but found '${t.image}'.`));
        // Skip the unreadable statement, up to a verb that starts a later line outside brackets:
        // the next statement with its `;` missing before it (a verb inside a line, or inside a
        // list or object that goes on over lines, is a value: `[Retrieve,\n Delete]`).
        const j = resumeAt(chunk, i, i + 1, true);
        if (j >= chunk.length) break;
        diagnostics.push(missingSemicolon(chunk[j - 1], chunk[j]));
        i = j;
        continue;
      }
      const { statement: built, errors, next } = parseStatementAt(chunk, i);
      for (const e of errors) diagnostics.push(parserErrorDiagnostic(e, chunk[chunk.length - 1]));
      if (built) raw.push(built);
      if (next <= i) break;
      const rest = chunk[next];
      if (rest && rest.tokenType !== T.Semicolon) {
        const alreadyReported = errors.some((e) => e.token === rest);
        if (isVerb(rest)) {
          const prev = chunk[next - 1];
          if (!alreadyReported) {
            diagnostics.push(missingSemicolon(prev, rest));
          }
          i = next;
          continue;
        }
        if (!alreadyReported && errors.length === 0) {
          const verb = built?.verb.name ?? (chunk[i].tokenType.name as A.VerbName);
          // What may come here (as completion offers it): the clause being written may go on, and
          // only the clauses the verb still takes may start (no second target, no clause twice).
          const ahead = nextWords(chunk.slice(i, next));
          const here = ahead.parsed ? [...ahead.continuations, ...ahead.clauses] : verbClauseKeywords(verb);
          const word = rest.tokenType === T.Identifier
            ? closest(rest.image, [...new Set(here.map(firstKeyword))]) ?? closest(rest.image, [...CLAUSE_WORDS, ...T.VERBS])
            : undefined;
          const takes = ahead.parsed ? `here ${verb} takes ${here.map((w) => clauseSpec(w)?.written ?? startWords(w)).join(', ')}` : `${verb} takes ${describeVerbClauses(verb)}`;
          const message = misplacedMessage(rest, built) ?? `Unexpected '${rest.image}': ${takes}; or end the statement with ';'.`;
          diagnostics.push(word
            ? diagnosticAt(rest, 'unknown-keyword', `Unknown word '${rest.image}'; did you mean ${word}? ${message}`, suggestionFix(rest, word))
            : diagnosticAt(rest, 'unexpected-token', message));
        }
        // Resume at the next verb outside brackets in this piece, if any (a missing `;` after a
        // broken clause).
        i = resumeAt(chunk, i, next + 1, false);
        continue;
      }
      i = next;
    }
  }
  return raw;
}
