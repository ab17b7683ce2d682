/**
 * The Text2Mem DSL lexer. The keywords are the vocabulary's (`src/language/`): case-insensitive,
 * they fall back to `Identifier` when a longer word starts with one (`longer_alt`), so `types` or
 * `tagsX` stay identifiers. Every
 * keyword also belongs to the `Keyword` category, which object keys and list elements accept, so
 * `{ type: "x", allow: [Retrieve] }` works although `type` and `Retrieve` are keywords.
 * `#` starts a comment that runs to the end of the line; comments go to a token group so the
 * printer can keep them.
 */
import { createToken, Lexer, type ILexingResult, type TokenType } from 'chevrotain';
import { isKeyword, SOFT_KEYWORDS, KEYWORDS as KEYWORD_LIST, VERB_NAMES, type Keyword as KeywordName } from '../language/index.js';

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n\uFEFF\u00A0]+/, group: Lexer.SKIPPED });
export const Comment = createToken({ name: 'Comment', pattern: /#[^\r\n]*/, group: 'comments' });

export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_]*/, label: 'a name' });
/** The category of all keywords (not `true`/`false`/`null`, which are literals). */
export const Keyword = createToken({ name: 'Keyword', pattern: Lexer.NA });
/** Keywords that are also a value word (SOFT_KEYWORDS in src/language/enums.ts): read as a bare word where a value is expected. */
export const SoftKeyword = createToken({ name: 'SoftKeyword', pattern: Lexer.NA, label: 'a name' });

/** ISO-8601 date or datetime with optional fractional seconds and offset, kept verbatim. */
export const DATETIME_PATTERN = /\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![A-Za-z0-9_])/;
/** ISO-8601 duration (`P7D`, `PT1H30M`, `P1W`), kept verbatim. */
export const DURATION_PATTERN = /P(?=\d|T\d)(?:\d+Y)?(?:\d+M)?(?:\d+W)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?(?![A-Za-z0-9_])/;
export const NUMBER_PATTERN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![A-Za-z0-9_])/;
export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const DateTimeLiteral = createToken({ name: 'DateTimeLiteral', pattern: DATETIME_PATTERN, label: 'a datetime' });
export const DurationLiteral = createToken({ name: 'DurationLiteral', pattern: DURATION_PATTERN, label: 'a duration' });
export const NumberLiteral = createToken({ name: 'NumberLiteral', pattern: NUMBER_PATTERN, label: 'a number' });
/**
 * The string patterns are scanners, not regular expressions: a regex with an alternation under
 * `*` keeps one backtrack entry per repetition, and a string of a million `\u0041` escapes
 * overflowed its stack. Both scan in one pass, in constant stack.
 */
const QUOTE = 34;
const BACKSLASH = 92;
const isLineBreak = (c: number) => c === 10 || c === 13;
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const SIMPLE_ESCAPES = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));

/**
 * The scanners' match, one array reused: Chevrotain reads its image (and `payload`, never set)
 * before it calls a scanner again, and a fresh array per string was a tenth of the lexer's garbage.
 */
const MATCH = [''] as unknown as RegExpExecArray;
function matched(text: string, start: number, end: number): RegExpExecArray {
  MATCH[0] = text.slice(start, end);
  return MATCH;
}

/** What `scanString` matches, as a regex (for the generated grammars; not used to lex). */
export const STRING_PATTERN = /"(?:[^"\\\r\n]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/;

/** `STRING_PATTERN`: a JSON string on one line. */
export function scanString(text: string, offset: number): RegExpExecArray | null {
  if (text.charCodeAt(offset) !== QUOTE) return null;
  for (let j = offset + 1; j < text.length;) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return matched(text, offset, j + 1);
    if (isLineBreak(c)) return null;
    if (c !== BACKSLASH) { j++; continue; }
    const e = text.charCodeAt(j + 1);
    if (SIMPLE_ESCAPES.has(e)) j += 2;
    else if (e === 117 && isHex(text.charCodeAt(j + 2)) && isHex(text.charCodeAt(j + 3)) && isHex(text.charCodeAt(j + 4)) && isHex(text.charCodeAt(j + 5))) j += 6;
    else return null;
  }
  return null;
}

/** `"(?:[^"\\\r\n]|\\.)*"?`: a string with a bad escape or no closing quote. */
export function scanBadString(text: string, offset: number): RegExpExecArray | null {
  if (text.charCodeAt(offset) !== QUOTE) return null;
  let j = offset + 1;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return matched(text, offset, j + 1);
    if (isLineBreak(c)) break;
    if (c === BACKSLASH) {
      const e = text.charCodeAt(j + 1);
      // `.` matches any character but a line terminator.
      if (Number.isNaN(e) || isLineBreak(e) || e === 0x2028 || e === 0x2029) break;
      j += 2;
    } else j++;
  }
  return matched(text, offset, j);
}

/** JSON string escapes; raw characters other than `"`, `\` and line breaks (Chinese text too). */
export const StringLiteral = createToken({
  name: 'StringLiteral',
  label: 'a string',
  // `toJSON`: the serialised grammar (railroad diagrams) shows the regex the scanner implements.
  pattern: { exec: scanString, toJSON: () => STRING_PATTERN.source } as { exec: typeof scanString },
  start_chars_hint: ['"'],
  line_breaks: false,
});
/** A string with a bad escape or no closing quote; never consumed by the grammar, reported by `parse`. */
export const BadString = createToken({ name: 'BadString', pattern: { exec: scanBadString }, start_chars_hint: ['"'], line_breaks: false });

/** A reference to an earlier statement's binding: `$name` (see `LET`, src/language/references.ts). */
export const Reference = createToken({ name: 'Reference', pattern: /\$[A-Za-z_][A-Za-z0-9_]*/, label: 'a reference ($name)' });

export const Semicolon = createToken({ name: 'Semicolon', pattern: ';', label: "';'" });
export const Comma = createToken({ name: 'Comma', pattern: ',', label: "','" });
export const Colon = createToken({ name: 'Colon', pattern: ':', label: "':'" });
export const Dot = createToken({ name: 'Dot', pattern: '.', label: "'.'" });
export const LBrace = createToken({ name: 'LBrace', pattern: '{', label: "'{'" });
export const RBrace = createToken({ name: 'RBrace', pattern: '}', label: "'}'" });
export const LBracket = createToken({ name: 'LBracket', pattern: '[', label: "'['" });
export const RBracket = createToken({ name: 'RBracket', pattern: ']', label: "']'" });
export const GreaterEq = createToken({ name: 'GreaterEq', pattern: '>=', label: "'>='" });
export const LessEq = createToken({ name: 'LessEq', pattern: '<=', label: "'<='" });
export const Equals = createToken({ name: 'Equals', pattern: '=', label: "'='" });

function literalWord(word: string): TokenType {
  return createToken({ name: word[0].toUpperCase() + word.slice(1), pattern: new RegExp(word, 'i'), longer_alt: Identifier, label: word });
}
export const True = literalWord('true');
export const False = literalWord('false');
export const Null = literalWord('null');

/**
 * One token per keyword of the vocabulary (`src/language/keywords.ts`), in its order, by name:
 * `KW.WHERE`. Each is in the `Keyword` category and gives way to a longer identifier.
 */
export const KW = Object.fromEntries(KEYWORD_LIST.map((word) => [word, createToken({
  name: word,
  pattern: new RegExp(word, 'i'),
  longer_alt: Identifier,
  categories: SOFT_KEYWORDS.includes(word) ? [Keyword, SoftKeyword] : [Keyword],
  label: word,
})])) as { readonly [W in KeywordName]: TokenType };
const keywordTokens: TokenType[] = KEYWORD_LIST.map((word) => KW[word]);

/** The verb tokens, one per Text2Mem op, in op order. */
export const VERB_TOKENS: readonly TokenType[] = VERB_NAMES.map((v) => KW[v]);

/** Every keyword, upper-case, for highlighting and completion. */
export const KEYWORDS: readonly string[] = KEYWORD_LIST;
/** The verbs, upper-case, in op order. */
export const VERBS: readonly string[] = VERB_NAMES;
export function keywordToken(word: string): TokenType | undefined {
  const upper = word.toUpperCase();
  return isKeyword(upper) ? KW[upper] : undefined;
}

/** Order matters: literals with digits before numbers, keywords before identifiers. */
export const allTokens: TokenType[] = [
  WhiteSpace, Comment,
  DateTimeLiteral, DurationLiteral, NumberLiteral, StringLiteral, BadString,
  Reference, Semicolon, Comma, Colon, Dot, LBrace, RBrace, LBracket, RBracket, GreaterEq, LessEq, Equals,
  // Longest keywords first so that `TO` does not cut `TOPIC` short.
  Keyword, ...[...keywordTokens].sort((a, b) => b.name.length - a.name.length), True, False, Null, Identifier,
];

/** The words Chevrotain's lexer reads as identifiers and `lexer` turns into keywords (and `true`, `false`, `null`). */
const WORD_TOKENS: readonly TokenType[] = [...keywordTokens, True, False, Null];
/** Their token types by the word upper-cased, and as commonly written (upper or lower case) so that most need no `toUpperCase`. */
const WORDS = new Map<string, TokenType>();
for (const t of WORD_TOKENS) {
  const word = t.name.toUpperCase();
  WORDS.set(word, t);
  WORDS.set(word.toLowerCase(), t);
}
const LONGEST_WORD = Math.max(...WORD_TOKENS.map((t) => t.name.length));

/**
 * Chevrotain's lexer over every token but the keywords: a word is one `Identifier`, which `lexer`
 * then looks up in `WORDS`. This reads exactly what the keyword tokens (case-insensitive, each
 * giving way to a longer identifier) read, a sixth faster: with a token per keyword, every word
 * was tried against each keyword sharing its first letter before the identifier pattern.
 */
const wordTokens = allTokens.filter((t) => t !== Keyword && !WORD_TOKENS.includes(t));
// Chevrotain's lexer validations: on in the sources and tests, off in the CLI bundle (scripts/bundle-cli.mjs defines this).
const skipValidations = (globalThis as { T2M_SKIP_GRAMMAR_VALIDATIONS?: boolean }).T2M_SKIP_GRAMMAR_VALIDATIONS === true;
const wordLexer = new Lexer(wordTokens, { positionTracking: 'full', ensureOptimizations: true, skipValidations });
/** The same without lines and columns: tokens carry offsets only (a third fewer fields, lexed a fifth faster); `src/syntax` computes positions from offsets when a range is read. */
const wordOffsetLexer = new Lexer(wordTokens, { positionTracking: 'onlyOffset', ensureOptimizations: true, skipValidations });

/** Gives each identifier that is a keyword (in any case) the keyword's token type. */
function keywords(result: ILexingResult): ILexingResult {
  const tokens = result.tokens;
  // An indexed loop: `for … of` here allocated an iterator result per token (40 bytes × 94k on the corpus).
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.tokenType !== Identifier) continue;
    const image = t.image;
    const word = WORDS.get(image) ?? (image.length <= LONGEST_WORD ? WORDS.get(image.toUpperCase()) : undefined);
    if (word !== undefined) {
      t.tokenType = word;
      t.tokenTypeIdx = word.tokenTypeIdx!;
    }
  }
  return result;
}

/** The DSL lexer: Chevrotain's result, with each identifier that is a keyword (in any case) given the keyword's token type. */
export const lexer = {
  tokenize: (text: string): ILexingResult => keywords(wordLexer.tokenize(text)),
};

/** `lexer` with offsets only (no `startLine`, `startColumn`, `endLine`, `endColumn`): what `src/syntax/lex.ts` reads. */
export const offsetLexer = {
  tokenize: (text: string): ILexingResult => keywords(wordOffsetLexer.tokenize(text)),
};
