/**
 * The Text2Mem DSL grammar: a pure Chevrotain `CstParser` (no semantic actions). Each rule's doc
 * comment is its production. The grammar is deliberately uniform: a statement is a verb followed
 * by keyword-led clauses; which clause a verb accepts, and which IR field it fills, is the
 * vocabulary's clause table (`src/language/`), applied by `src/convert` (so a clause in the wrong
 * statement gets a precise diagnostic instead of a generic parse error). The keyword alternatives
 * of `valueClause`, `listClause`, `flagClause` and `searchOption` are read from that table.
 */
import { CstParser, type CstNode, type IOrAlt, type OrMethodOpts, type IParserErrorMessageProvider, type TokenType, defaultParserErrorProvider, type IToken } from 'chevrotain';
import * as T from './tokens.js';
import { FLAG_KEYWORDS, LIST_KEYWORDS, LIST_ITEMS, SEARCH_OPTION_NAMES, VALUE_KEYWORDS, type Keyword } from '../src/language/index.js';

/** Clause keywords followed by exactly one value (the vocabulary's `value` clauses; `VALID FROM`, `AS OF` are two words). */
export const VALUE_CLAUSE_TOKENS: readonly (readonly TokenType[])[] = VALUE_KEYWORDS.map(words);
/** Clause keywords followed by one value or a comma-separated list. */
export const LIST_CLAUSE_TOKENS: readonly TokenType[] = LIST_KEYWORDS.map((k) => T.KW[k]);
/** Clause keywords that stand alone; `DRY RUN` is two words. */
export const FLAG_CLAUSE_TOKENS: readonly (readonly TokenType[])[] = FLAG_KEYWORDS.map(words);

/** The tokens of a keyword phrase (`ORDER BY` → ORDER, BY). */
function words(phrase: string): TokenType[] {
  return phrase.split(' ').map((w) => T.KW[w as Keyword]);
}

/**
 * Records what the parser expected at each failing token, so `parse` can suggest the closest
 * keyword ("did you mean TYPE?") without parsing Chevrotain's message text.
 */
export const expectedAtToken = new WeakMap<IToken, TokenType[]>();

function firstTokens(paths: TokenType[][]): TokenType[] {
  const out = new Set<TokenType>();
  for (const p of paths) if (p[0]) out.add(p[0]);
  return [...out];
}
/**
 * How a token is named to the user. A keyword where a name is allowed (`{ type: … }`) is a name
 * too, so the category is not named apart; `search` is spelt as the printer writes it.
 */
function tokenLabel(t: TokenType, all: readonly TokenType[]): string | undefined {
  if (t === T.Keyword) return all.includes(T.Identifier) ? undefined : 'a keyword';
  if (t === T.KW.SEARCH) return 'search';
  return typeof t.LABEL === 'string' ? t.LABEL : t.name;
}
function describe(tokens: TokenType[]): string {
  const names = [...new Set(tokens.flatMap((t) => tokenLabel(t, tokens) ?? []))];
  const shown = names.slice(0, 12).join(', ');
  return names.length > 12 ? `${shown}, …` : shown;
}
function actualText(t: IToken): string {
  return t.tokenType.name === 'EOF' ? 'end of input' : `'${t.image}'`;
}

const errorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual }) {
    expectedAtToken.set(actual, [expected]);
    return `Expected ${describe([expected])} but found ${actualText(actual)}.`;
  },
  buildNotAllInputParsedMessage(options) {
    return defaultParserErrorProvider.buildNotAllInputParsedMessage(options);
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, ruleName }) {
    const expected = firstTokens(expectedPathsPerAlt.flat());
    expectedAtToken.set(actual[0], expected);
    if (ruleName === 'condition') {
      const hint = actual[0].tokenType === T.KW.LIMIT ? ' LIMIT follows the last condition: remove the AND before it.' : '';
      return `Expected a condition (search "…", or a field condition such as tags HAS "x" or type = note) but found ${actualText(actual[0])}.${hint}`;
    }
    return `Expected one of ${describe(expected)} but found ${actualText(actual[0])}.`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual }) {
    const expected = firstTokens(expectedIterationPaths);
    expectedAtToken.set(actual[0], expected);
    return `Expected at least one of ${describe(expected)} but found ${actualText(actual[0])}.`;
  },
};

export class T2mParser extends CstParser {
  /**
   * Alternatives are built once and reused: building closures on every rule call dominated
   * parse time (Chevrotain's documented "cache the alternatives" optimisation).
   */
  private readonly alts: Record<string, IOrAlt<unknown>[]> = {};
  private conditionAlts?: OrMethodOpts<unknown>;

  /**
   * `recovery: false, locations: false` makes the happy-path parser: it pays nothing for error
   * recovery (Chevrotain tries resynchronisation after every repetition when recovery is on) or
   * for node locations, and on input without errors builds the same CST as the recovering one,
   * but for the nodes' `location`.
   */
  constructor(options: { readonly recovery?: boolean; readonly locations?: boolean } = {}) {
    super(T.allTokens, {
      recoveryEnabled: options.recovery ?? true,
      maxLookahead: 3,
      errorMessageProvider: errorMessages,
      nodeLocationTracking: options.locations ?? true ? 'full' : 'none',
    });
    this.performSelfAnalysis();
  }

  /** script := statement* */
  script = this.RULE('script', () => {
    this.MANY(() => this.SUBRULE(this.statement));
  });

  /** statement := letBinding? verb StringLiteral? clause* ';'?   (the `;` may be left out only at the end) */
  statement = this.RULE('statement', () => {
    this.OPTION3(() => this.SUBRULE(this.letBinding));
    this.SUBRULE(this.verb);
    this.OPTION(() => this.CONSUME(T.StringLiteral, { LABEL: 'text' }));
    this.MANY(() => this.SUBRULE(this.clause));
    this.OPTION2(() => this.CONSUME(T.Semicolon));
  });

  /** letBinding := LET Reference '='   (binds the ids the statement creates or affects) */
  letBinding = this.RULE('letBinding', () => {
    this.CONSUME(T.KW.LET);
    this.CONSUME(T.Reference);
    this.CONSUME(T.Equals);
  });

  /** verb := ENCODE | UPDATE | LABEL | PROMOTE | DEMOTE | MERGE | SPLIT | LOCK | EXPIRE | DELETE | RETRIEVE | SUMMARIZE */
  verb = this.RULE('verb', () => {
    this.OR(this.alts.verb ??= T.VERB_TOKENS.map((t) => ({ ALT: () => this.CONSUME(t) })));
  });

  /** clause := idClause | idsClause | ALL | whereClause | valueClause | listClause | maxClause | olderClause | withinClause | flagClause | setClause | withClause */
  clause = this.RULE('clause', () => {
    this.OR(this.alts.clause ??= [
      { ALT: () => this.SUBRULE(this.idClause) },
      { ALT: () => this.SUBRULE(this.idsClause) },
      { ALT: () => this.CONSUME(T.KW.ALL) },
      { ALT: () => this.SUBRULE(this.whereClause) },
      { ALT: () => this.SUBRULE(this.valueClause) },
      { ALT: () => this.SUBRULE(this.listClause) },
      { ALT: () => this.SUBRULE(this.maxClause) },
      { ALT: () => this.SUBRULE(this.olderClause) },
      { ALT: () => this.SUBRULE(this.withinClause) },
      { ALT: () => this.SUBRULE(this.flagClause) },
      { ALT: () => this.SUBRULE(this.setClause) },
      { ALT: () => this.SUBRULE(this.withClause) },
    ]);
  });

  /** idClause := ID value */
  idClause = this.RULE('idClause', () => {
    this.CONSUME(T.KW.ID);
    this.SUBRULE(this.value);
  });

  /** idsClause := IDS valueList */
  idsClause = this.RULE('idsClause', () => {
    this.CONSUME(T.KW.IDS);
    this.SUBRULE(this.valueList);
  });

  /** whereClause := WHERE condition (AND condition)* (LIMIT value)? */
  whereClause = this.RULE('whereClause', () => {
    this.CONSUME(T.KW.WHERE);
    this.SUBRULE(this.condition);
    this.MANY(() => {
      this.CONSUME(T.KW.AND);
      this.SUBRULE2(this.condition);
    });
    this.OPTION(() => {
      this.CONSUME(T.KW.LIMIT);
      this.SUBRULE3(this.value);
    });
  });

  /** condition := searchCondition | fieldCondition   (`search` always starts a search; a field named search is written "search") */
  condition = this.RULE('condition', () => {
    this.OR(this.conditionAlts ??= {
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => this.SUBRULE(this.searchCondition) },
        { ALT: () => this.SUBRULE(this.fieldCondition) },
      ],
    });
  });

  /** searchCondition := SEARCH StringLiteral? searchOption*   (a LIMIT right after it limits the search) */
  searchCondition = this.RULE('searchCondition', () => {
    this.CONSUME(T.KW.SEARCH);
    this.OPTION(() => this.CONSUME(T.StringLiteral, { LABEL: 'query' }));
    this.MANY(() => this.SUBRULE(this.searchOption));
  });

  /** searchOption := SEARCH_OPTION value   (K, ALPHA, LIMIT, CONTEXT, VECTOR, ORDER BY: the vocabulary's search options) */
  searchOption = this.RULE('searchOption', () => {
    this.OR(this.alts.searchOption ??= SEARCH_OPTION_NAMES.map((name) => ({ ALT: () => words(name).forEach((t) => this.consume(0, t)) })));
    this.SUBRULE(this.value);
  });

  /** fieldCondition := fieldName ('.' fieldName)? ( '=' value | HAS valueList | NOT HAS valueList | '>=' value | '<=' value | BEFORE value | AFTER value | timeRange ) */
  fieldCondition = this.RULE('fieldCondition', () => {
    this.SUBRULE(this.fieldName);
    // `facets.status = "open"`: a condition on one facet.
    this.OPTION(() => { this.CONSUME(T.Dot); this.SUBRULE2(this.fieldName, { LABEL: 'subField' }); });
    this.OR(this.alts.fieldCondition ??= [
      { ALT: () => { this.CONSUME(T.Equals); this.SUBRULE(this.value); } },
      { ALT: () => { this.CONSUME(T.KW.HAS); this.SUBRULE(this.valueList); } },
      { ALT: () => { this.CONSUME(T.KW.NOT); this.CONSUME2(T.KW.HAS); this.SUBRULE2(this.valueList); } },
      { ALT: () => { this.CONSUME(T.GreaterEq); this.SUBRULE3(this.value); } },
      { ALT: () => { this.CONSUME(T.LessEq); this.SUBRULE4(this.value); } },
      { ALT: () => { this.CONSUME(T.KW.BEFORE); this.SUBRULE5(this.value); } },
      { ALT: () => { this.CONSUME(T.KW.AFTER); this.SUBRULE6(this.value); } },
      { ALT: () => this.SUBRULE(this.timeRange) },
    ]);
  });

  /** fieldName := Identifier | StringLiteral | Keyword   (a keyword names the lower-case field: `type`, `facets`) */
  fieldName = this.RULE('fieldName', () => {
    this.OR(this.alts.fieldName ??= [
      { ALT: () => this.CONSUME(T.Identifier) },
      { ALT: () => this.CONSUME(T.StringLiteral) },
      { ALT: () => this.CONSUME(T.Keyword) },
    ]);
  });

  /** timeRange := relativeRange (FROM value)? (TO value)? | FROM value (TO value)? | TO value */
  timeRange = this.RULE('timeRange', () => {
    this.OR(this.alts.timeRange ??= [
      {
        ALT: () => {
          this.SUBRULE(this.relativeRange);
          this.OPTION(() => { this.CONSUME(T.KW.FROM); this.SUBRULE(this.value); });
          this.OPTION2(() => { this.CONSUME(T.KW.TO); this.SUBRULE2(this.value); });
        },
      },
      {
        ALT: () => {
          this.CONSUME2(T.KW.FROM);
          this.SUBRULE3(this.value);
          this.OPTION3(() => { this.CONSUME2(T.KW.TO); this.SUBRULE4(this.value); });
        },
      },
      { ALT: () => { this.CONSUME3(T.KW.TO); this.SUBRULE5(this.value); } },
    ]);
  });

  /** relativeRange := IN? (LAST | NEXT) NumberLiteral Identifier   (the unit: DAYS, WEEKS, …) */
  relativeRange = this.RULE('relativeRange', () => {
    this.OPTION(() => this.CONSUME(T.KW.IN));
    this.OR(this.alts.relativeRange ??= [{ ALT: () => this.CONSUME(T.KW.LAST) }, { ALT: () => this.CONSUME(T.KW.NEXT) }]);
    this.CONSUME(T.NumberLiteral, { LABEL: 'amount' });
    this.CONSUME(T.Identifier, { LABEL: 'unit' });
  });

  /** valueClause := VALUE_KEYWORD value   (TYPE, TIME, VALID FROM, AS OF, …, COMMENT: the vocabulary's value clauses) */
  valueClause = this.RULE('valueClause', () => {
    // A keyword that starts two phrases (`AS`, `AS OF`) is consumed under a distinct index in each.
    this.OR(this.alts.valueClause ??= VALUE_CLAUSE_TOKENS.map(([first, ...rest], i) => ({
      ALT: () => {
        this.consume(i, first, { LABEL: 'keyword' });
        rest.forEach((t) => this.consume(i, t));
      },
    })));
    this.SUBRULE(this.value);
  });

  /** listClause := LIST_KEYWORD (valueList | elementList)   (TAGS valueList | INCLUDE elementList: field names such as `id`, `type` are keywords) */
  listClause = this.RULE('listClause', () => {
    this.OR(this.alts.listClause ??= LIST_KEYWORDS.map((k) => ({
      ALT: () => {
        this.CONSUME(T.KW[k], { LABEL: 'keyword' });
        this.SUBRULE(LIST_ITEMS[k] === 'elements' ? this.elementList : this.valueList);
      },
    })));
  });

  /** elementList := element (',' element)* */
  elementList = this.RULE('elementList', () => {
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => this.SUBRULE(this.element) });
  });

  /** maxClause := MAX value TOKENS */
  maxClause = this.RULE('maxClause', () => {
    this.CONSUME(T.KW.MAX);
    this.SUBRULE(this.value);
    this.CONSUME(T.KW.TOKENS);
  });

  /** olderClause := OLDER THAN value */
  olderClause = this.RULE('olderClause', () => {
    this.CONSUME(T.KW.OLDER);
    this.CONSUME(T.KW.THAN);
    this.SUBRULE(this.value);
  });

  /** withinClause := WITHIN timeRange */
  withinClause = this.RULE('withinClause', () => {
    this.CONSUME(T.KW.WITHIN);
    this.SUBRULE(this.timeRange);
  });

  /** flagClause := FLAG_KEYWORD   (ARCHIVE, SOFT, HARD, CONFIRM, DRY RUN: the vocabulary's flags) */
  flagClause = this.RULE('flagClause', () => {
    this.OR(this.alts.flagClause ??= FLAG_CLAUSE_TOKENS.map(([first, ...rest]) => ({
      ALT: () => {
        this.CONSUME(first, { LABEL: 'keyword' });
        rest.forEach((t) => this.consume(0, t));
      },
    })));
  });

  /** setClause := SET assignment (',' assignment)* */
  setClause = this.RULE('setClause', () => {
    this.CONSUME(T.KW.SET);
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => this.SUBRULE(this.assignment) });
  });

  /** assignment := key '='? value */
  assignment = this.RULE('assignment', () => {
    this.SUBRULE(this.key);
    this.OPTION(() => this.CONSUME(T.Equals));
    this.SUBRULE(this.value);
  });

  /** withClause := WITH key ('.' key)* '=' value */
  withClause = this.RULE('withClause', () => {
    this.CONSUME(T.KW.WITH);
    this.AT_LEAST_ONE_SEP({ SEP: T.Dot, DEF: () => this.SUBRULE(this.key) });
    this.CONSUME(T.Equals);
    this.SUBRULE(this.value);
  });

  /** valueList := value (',' value)*   (a single bracketed list is the list itself) */
  valueList = this.RULE('valueList', () => {
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => this.SUBRULE(this.value) });
  });

  /** value := StringLiteral | NumberLiteral | DateTimeLiteral | DurationLiteral | TRUE | FALSE | NULL | Identifier | SoftKeyword | Reference | list | object */
  value = this.RULE('value', () => {
    this.OR(this.alts.value ??= [
      { ALT: () => this.CONSUME(T.StringLiteral) },
      { ALT: () => this.CONSUME(T.NumberLiteral) },
      { ALT: () => this.CONSUME(T.DateTimeLiteral) },
      { ALT: () => this.CONSUME(T.DurationLiteral) },
      { ALT: () => this.CONSUME(T.True) },
      { ALT: () => this.CONSUME(T.False) },
      { ALT: () => this.CONSUME(T.Null) },
      { ALT: () => this.CONSUME(T.Identifier) },
      { ALT: () => this.CONSUME(T.SoftKeyword) },
      { ALT: () => this.CONSUME(T.Reference) },
      { ALT: () => this.SUBRULE(this.list) },
      { ALT: () => this.SUBRULE(this.object) },
    ]);
  });

  /** element := value | Keyword   (inside brackets a keyword is just a bare word, e.g. [Retrieve]) */
  element = this.RULE('element', () => {
    this.OR(this.alts.element ??= [
      { ALT: () => this.SUBRULE(this.value) },
      { ALT: () => this.CONSUME(T.Keyword) },
    ]);
  });

  /** list := '[' (element (',' element)*)? ']' */
  list = this.RULE('list', () => {
    this.CONSUME(T.LBracket);
    this.MANY_SEP({ SEP: T.Comma, DEF: () => this.SUBRULE(this.element) });
    this.CONSUME(T.RBracket);
  });

  /** object := '{' (entry (',' entry)*)? '}' */
  object = this.RULE('object', () => {
    this.CONSUME(T.LBrace);
    this.MANY_SEP({ SEP: T.Comma, DEF: () => this.SUBRULE(this.entry) });
    this.CONSUME(T.RBrace);
  });

  /** entry := key ':' element */
  entry = this.RULE('entry', () => {
    this.SUBRULE(this.key);
    this.CONSUME(T.Colon);
    this.SUBRULE(this.element);
  });

  /** key := Identifier | StringLiteral | Keyword | TRUE | FALSE | NULL */
  key = this.RULE('key', () => {
    this.OR(this.alts.key ??= [
      { ALT: () => this.CONSUME(T.Identifier) },
      { ALT: () => this.CONSUME(T.StringLiteral) },
      { ALT: () => this.CONSUME(T.Keyword) },
      { ALT: () => this.CONSUME(T.True) },
      { ALT: () => this.CONSUME(T.False) },
      { ALT: () => this.CONSUME(T.Null) },
    ]);
  });
}

/** The recovering parser (Chevrotain parsers are meant to be reused): partial trees and every error. */
export const parser = new T2mParser();
/**
 * The parser for the first pass over a statement: no recovery and no CST locations (the AST's
 * come from its tokens), so the usual input (no errors) costs less; a statement it finds an error
 * in, or that does not end its `;`-piece, is parsed again by `parser` (src/syntax/recover.ts).
 */
export const fastParser = new T2mParser({ recovery: false, locations: false });
export type { CstNode };
