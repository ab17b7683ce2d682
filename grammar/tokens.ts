/**
 * The Text2Mem DSL lexer. Keywords are case-insensitive and fall back to `Identifier` when a
 * longer word starts with one (`longer_alt`), so `types` or `tagsX` stay identifiers. Every
 * keyword also belongs to the `Keyword` category, which object keys and list elements accept, so
 * `{ type: "x", allow: [Retrieve] }` works although `type` and `Retrieve` are keywords.
 * `#` starts a comment that runs to the end of the line; comments go to a token group so the
 * printer can keep them.
 */
import { createToken, Lexer, type TokenType } from 'chevrotain';

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n\uFEFF\u00A0]+/, group: Lexer.SKIPPED });
export const Comment = createToken({ name: 'Comment', pattern: /#[^\r\n]*/, group: 'comments' });

export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_]*/, label: 'a name' });
/** The category of all keywords (not `true`/`false`/`null`, which are literals). */
export const Keyword = createToken({ name: 'Keyword', pattern: Lexer.NA });

/** ISO-8601 date or datetime with optional fractional seconds and offset, kept verbatim. */
export const DATETIME_PATTERN = /\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![A-Za-z0-9_])/;
/** ISO-8601 duration (`P7D`, `PT1H30M`, `P1W`), kept verbatim. */
export const DURATION_PATTERN = /P(?=\d|T\d)(?:\d+Y)?(?:\d+M)?(?:\d+W)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?(?![A-Za-z0-9_])/;
export const NUMBER_PATTERN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![A-Za-z0-9_])/;
export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const DateTimeLiteral = createToken({ name: 'DateTimeLiteral', pattern: DATETIME_PATTERN, label: 'a datetime' });
export const DurationLiteral = createToken({ name: 'DurationLiteral', pattern: DURATION_PATTERN, label: 'a duration' });
export const NumberLiteral = createToken({ name: 'NumberLiteral', pattern: NUMBER_PATTERN, label: 'a number' });
/** JSON string escapes; raw characters other than `"`, `\` and line breaks (Chinese text too). */
export const StringLiteral = createToken({
  name: 'StringLiteral',
  label: 'a string',
  pattern: /"(?:[^"\\\r\n]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/,
});
/** A string with a bad escape or no closing quote; never consumed by the grammar, reported by `parse`. */
export const BadString = createToken({ name: 'BadString', pattern: /"(?:[^"\\\r\n]|\\.)*"?/ });

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

const keywordTokens: TokenType[] = [];
const byName = new Map<string, TokenType>();
function keyword(word: string): TokenType {
  const t = createToken({
    name: word,
    pattern: new RegExp(word, 'i'),
    longer_alt: Identifier,
    categories: [Keyword],
    label: word,
  });
  keywordTokens.push(t);
  byName.set(word, t);
  return t;
}

// Verbs: one per Text2Mem op.
export const ENCODE = keyword('ENCODE');
export const UPDATE = keyword('UPDATE');
export const LABEL = keyword('LABEL');
export const PROMOTE = keyword('PROMOTE');
export const DEMOTE = keyword('DEMOTE');
export const MERGE = keyword('MERGE');
export const SPLIT = keyword('SPLIT');
export const LOCK = keyword('LOCK');
export const EXPIRE = keyword('EXPIRE');
export const DELETE = keyword('DELETE');
export const RETRIEVE = keyword('RETRIEVE');
export const SUMMARIZE = keyword('SUMMARIZE');
export const VERB_TOKENS = [ENCODE, UPDATE, LABEL, PROMOTE, DEMOTE, MERGE, SPLIT, LOCK, EXPIRE, DELETE, RETRIEVE, SUMMARIZE];

// Target.
export const IDS = keyword('IDS');
export const ID = keyword('ID');
export const ALL = keyword('ALL');
export const WHERE = keyword('WHERE');
export const AND = keyword('AND');
export const LIMIT = keyword('LIMIT');
export const SEARCH = keyword('SEARCH');
export const HAS = keyword('HAS');
export const NOT = keyword('NOT');
export const IN = keyword('IN');
export const FROM = keyword('FROM');
export const TO = keyword('TO');
export const LAST = keyword('LAST');
export const NEXT = keyword('NEXT');
export const BEFORE = keyword('BEFORE');
export const AFTER = keyword('AFTER');
export const K = keyword('K');
export const ALPHA = keyword('ALPHA');
export const ORDER = keyword('ORDER');
export const BY = keyword('BY');
export const CONTEXT = keyword('CONTEXT');
export const VECTOR = keyword('VECTOR');

// Argument clauses.
export const TYPE = keyword('TYPE');
export const TAGS = keyword('TAGS');
export const TIME = keyword('TIME');
export const SOURCE = keyword('SOURCE');
export const SUBJECT = keyword('SUBJECT');
export const LOCATION = keyword('LOCATION');
export const TOPIC = keyword('TOPIC');
export const URL = keyword('URL');
export const STRUCTURED = keyword('STRUCTURED');
export const PAYLOAD = keyword('PAYLOAD');
export const FACETS = keyword('FACETS');
export const MODE = keyword('MODE');
export const REASON = keyword('REASON');
export const POLICY = keyword('POLICY');
export const INTO = keyword('INTO');
export const STRATEGY = keyword('STRATEGY');
export const TTL = keyword('TTL');
export const UNTIL = keyword('UNTIL');
export const THEN = keyword('THEN');
export const FOCUS = keyword('FOCUS');
export const MAX = keyword('MAX');
export const TOKENS = keyword('TOKENS');
export const REMIND = keyword('REMIND');
export const ARCHIVE = keyword('ARCHIVE');
export const SOFT = keyword('SOFT');
export const HARD = keyword('HARD');
export const OLDER = keyword('OLDER');
export const THAN = keyword('THAN');
export const WITHIN = keyword('WITHIN');
export const INCLUDE = keyword('INCLUDE');
export const SET = keyword('SET');
export const WITH = keyword('WITH');

// Statement-wide clauses: stage, meta, comment.
export const STAGE = keyword('STAGE');
export const AS = keyword('AS');
export const LANG = keyword('LANG');
export const TRACE = keyword('TRACE');
export const AT = keyword('AT');
export const DRY = keyword('DRY');
export const RUN = keyword('RUN');
export const CONFIRM = keyword('CONFIRM');
export const COMMENT = keyword('COMMENT');

/** Every keyword, upper-case, for highlighting and completion. */
export const KEYWORDS: readonly string[] = keywordTokens.map((t) => t.name);
/** The verbs, upper-case, in op order. */
export const VERBS: readonly string[] = VERB_TOKENS.map((t) => t.name);
export function keywordToken(word: string): TokenType | undefined {
  return byName.get(word.toUpperCase());
}

/** Order matters: literals with digits before numbers, keywords before identifiers. */
export const allTokens: TokenType[] = [
  WhiteSpace, Comment,
  DateTimeLiteral, DurationLiteral, NumberLiteral, StringLiteral, BadString,
  Semicolon, Comma, Colon, Dot, LBrace, RBrace, LBracket, RBracket, GreaterEq, LessEq, Equals,
  // Longest keywords first so that `TO` does not cut `TOPIC` short.
  Keyword, ...[...keywordTokens].sort((a, b) => b.name.length - a.name.length), True, False, Null, Identifier,
];

export const lexer = new Lexer(allTokens, { positionTracking: 'full', ensureOptimizations: true });
