/**
 * The Text2Mem DSL grammar, one set of rules run by two Chevrotain parsers (`grammar()` below):
 * the recovering `CstParser` (`parser`: partial trees, every error, editor services and the
 * generated grammars) and the happy-path `EmbeddedActionsParser` (`fastParser`: no recovery, no
 * CST; its actions build the AST directly, the one `cstToAst.ts` builds from a CST).
 * Each rule's doc comment is its production; its actions run only in the AST-building parser
 * (`this.ast`), so the CST parser records and parses the very same grammar. The grammar is deliberately uniform: a statement is a verb followed
 * by keyword-led clauses; which clause a verb accepts, and which IR field it fills, is the
 * vocabulary's clause table (`src/language/`), applied by `src/convert` (so a clause in the wrong
 * statement gets a precise diagnostic instead of a generic parse error). The keyword alternatives
 * of `valueClause`, `listClause`, `flagClause` and `searchOption` are read from that table.
 */
import { CstParser, EmbeddedActionsParser, type CstNode, type IOrAlt, type ManySepMethodOpts, type OrMethodOpts, type IParserErrorMessageProvider, type ParserMethod, type TokenType, defaultParserErrorProvider, type IToken, tokenMatcher } from 'chevrotain';
import * as T from './tokens.js';
import { FLAG_KEYWORDS, LIST_KEYWORDS, LIST_ITEMS, SEARCH_OPTION_NAMES, VALUE_KEYWORDS, type Keyword } from '../language/index.js';
import type * as A from './ast.js';
import type { RawStatement } from './ast.js';
import { decodeString, span, spanFrom, tokenKey, tokenRange, tokenSpan, tokenValue, valueList } from './nodes.js';

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


/** Labels of consumed tokens (in the CST), built once. */
const TEXT = { LABEL: 'text' };
const QUERY = { LABEL: 'query' };
const AMOUNT = { LABEL: 'amount' };
const UNIT = { LABEL: 'unit' };

/** What a rule returns in the CST parser, where its actions do not run (the CST is returned instead). */
const NO_AST = undefined as never;

/** An operator of a field condition and what follows it, before the condition is put together. */
type FieldTail =
  | { readonly operator: 'RANGE'; readonly range: A.TimeRange }
  | { readonly operator: 'HAS' | 'NOT HAS'; readonly operatorLoc: A.ValueList['loc']; readonly values: A.ValueList }
  | { readonly operator: Exclude<A.FieldOperator, 'RANGE' | 'HAS' | 'NOT HAS'>; readonly operatorLoc: A.ValueList['loc']; readonly value: A.Value };

/** The grammar's entry points, as the recovery driver, the editor services and the artefact scripts use them. */
export interface T2mParser<Out> extends EmbeddedActionsParser {
  readonly statement: ParserMethod<[], Out>;
  readonly script: ParserMethod<[], unknown>;
}

/**
 * The rules, on either kind of Chevrotain parser. `Base` is typed as the embedded-actions parser
 * whose rules return their actions' values; given `CstParser`, the same rules return CSTs.
 */
function grammar(Base: typeof EmbeddedActionsParser) {
  return class T2mGrammar extends Base {
    /**
     * Alternatives are built once and reused: building closures on every rule call dominated
     * parse time (Chevrotain's documented "cache the alternatives" optimisation).
     */
    readonly alts: Record<string, IOrAlt<unknown>[]> = {};
    /**
     * The separated repetitions' options, built once like the alternatives (a `DEF` closure per
     * call cost an allocation and, under tsx, a `defineProperty` for its name): each `DEF` adds
     * the item it reads to the list on top of `lists`, which its rule pushes before and pops after.
     */
    readonly seps: Record<string, ManySepMethodOpts<unknown>> = {};
    readonly lists: unknown[][] = [];
    /**
     * The `OPTION` and `MANY` bodies of the rules read once per statement or clause, built once
     * like the alternatives (an arrow function per call, four per statement, was an allocation
     * each); a `MANY` adds what it reads to the list on top of `lists`, as the `DEF`s above do.
     */
    readonly fns: Record<string, () => unknown> = {};
    conditionAlts?: OrMethodOpts<unknown>;
    /** The keyword phrase `valueClause` read last. */
    readonly phrase: { keyword: A.ValueKeyword; first: IToken; last: IToken } = { keyword: VALUE_KEYWORDS[0], first: undefined as never, last: undefined as never };
    /** The actions build the AST: set once the grammar is recorded, in the embedded-actions parser only. */
    ast = false;

    constructor(options: { readonly recovery: boolean; readonly ast: boolean }) {
      super(T.allTokens, {
        recoveryEnabled: options.recovery,
        maxLookahead: 3,
        // Chevrotain's grammar validations: on in the sources and tests, off in the CLI bundle (scripts/bundle-cli.mjs defines this).
        skipValidations: (globalThis as { T2M_SKIP_GRAMMAR_VALIDATIONS?: boolean }).T2M_SKIP_GRAMMAR_VALIDATIONS === true,
        errorMessageProvider: errorMessages,
        // Offsets only: the tokens carry no lines (positions are computed from offsets when read).
        nodeLocationTracking: options.recovery ? 'onlyOffset' : 'none',
      });
      this.performSelfAnalysis();
      this.ast = options.ast;
    }

    /** script := statement* */
    script = this.RULE('script', () => {
      this.MANY(() => this.SUBRULE(this.statement));
    });

    /** statement := letBinding? verb StringLiteral? clause* ';'?   (the `;` may be left out only at the end) */
    statement = this.RULE('statement', (): RawStatement => {
      // A statement the happy path gave up on may have left lists behind (see `seps`).
      this.lists.length = 0;
      const fns = this.fns;
      const binding = this.OPTION3(fns.letBinding ??= () => this.SUBRULE(this.letBinding)) as A.Binding | undefined;
      const verb = this.SUBRULE(this.verb);
      const t = this.OPTION(fns.text ??= () => this.CONSUME(T.StringLiteral, TEXT)) as IToken | undefined;
      const clauses: A.Clause[] = [];
      this.lists.push(clauses);
      this.MANY(fns.clauses ??= () => { this.lists[this.lists.length - 1].push(this.SUBRULE(this.clause)); });
      this.lists.pop();
      const semi = this.OPTION2(fns.semicolon ??= () => this.CONSUME(T.Semicolon)) as IToken | undefined;
      if (!this.ast) return NO_AST;
      const text: A.StringValue | undefined = t ? { kind: 'String', value: decodeString(t.image), loc: tokenRange(t) } : undefined;
      const end = semi ? tokenRange(semi) : clauses.length ? clauses[clauses.length - 1].loc : text?.loc ?? verb.loc;
      // No spread (`...(binding ? { binding } : {})`, as cstToAst writes it): the same keys, built directly.
      return binding ? { binding, verb, text, clauses, loc: span(binding.loc, end) } : { verb, text, clauses, loc: span(verb.loc, end) };
    });

    /** letBinding := LET Reference '='   (binds the ids the statement creates or affects) */
    letBinding = this.RULE('letBinding', (): A.Binding => {
      const kw = this.CONSUME(T.KW.LET);
      const ref = this.CONSUME(T.Reference);
      const eq = this.CONSUME(T.Equals);
      return this.ast ? { kind: 'Binding', name: ref.image.slice(1), nameLoc: tokenRange(ref), loc: tokenSpan(kw, eq) } : NO_AST;
    });

    /** verb := ENCODE | UPDATE | LABEL | PROMOTE | DEMOTE | MERGE | SPLIT | LOCK | EXPIRE | DELETE | RETRIEVE | SUMMARIZE */
    verb = this.RULE('verb', (): A.Verb => {
      const t = this.OR(this.alts.verb ??= T.VERB_TOKENS.map((v) => ({ ALT: () => this.CONSUME(v) }))) as IToken;
      return this.ast ? { kind: 'Verb', name: t.tokenType.name as A.VerbName, loc: tokenRange(t) } : NO_AST;
    });

    /** clause := idClause | idsClause | ALL | whereClause | valueClause | listClause | maxClause | olderClause | withinClause | flagClause | setClause | withClause */
    clause = this.RULE('clause', (): A.Clause => this.OR(this.alts.clause ??= [
      { ALT: () => this.SUBRULE(this.idClause) },
      { ALT: () => this.SUBRULE(this.idsClause) },
      { ALT: () => { const all = this.CONSUME(T.KW.ALL); return this.ast ? { kind: 'AllClause', loc: tokenRange(all) } : NO_AST; } },
      { ALT: () => this.SUBRULE(this.whereClause) },
      { ALT: () => this.SUBRULE(this.valueClause) },
      { ALT: () => this.SUBRULE(this.listClause) },
      { ALT: () => this.SUBRULE(this.maxClause) },
      { ALT: () => this.SUBRULE(this.olderClause) },
      { ALT: () => this.SUBRULE(this.withinClause) },
      { ALT: () => this.SUBRULE(this.flagClause) },
      { ALT: () => this.SUBRULE(this.setClause) },
      { ALT: () => this.SUBRULE(this.withClause) },
    ]) as A.Clause);

    /** idClause := ID value */
    idClause = this.RULE('idClause', (): A.IdClause => {
      const kw = this.CONSUME(T.KW.ID);
      const value = this.SUBRULE(this.value);
      return this.ast ? { kind: 'IdClause', value, loc: spanFrom(kw, value.loc) } : NO_AST;
    });

    /** idsClause := IDS valueList */
    idsClause = this.RULE('idsClause', (): A.IdsClause => {
      const kw = this.CONSUME(T.KW.IDS);
      const values = this.SUBRULE(this.valueList);
      return this.ast ? { kind: 'IdsClause', values, loc: spanFrom(kw, values.loc) } : NO_AST;
    });

    /** whereClause := WHERE condition (AND condition)* (LIMIT value)? */
    whereClause = this.RULE('whereClause', (): A.WhereClause => {
      const kw = this.CONSUME(T.KW.WHERE);
      const conditions = [this.SUBRULE(this.condition)];
      this.lists.push(conditions);
      this.MANY(this.fns.conditions ??= () => {
        this.CONSUME(T.KW.AND);
        this.lists[this.lists.length - 1].push(this.SUBRULE2(this.condition));
      });
      this.lists.pop();
      const limit = this.OPTION(this.fns.limit ??= () => {
        this.CONSUME(T.KW.LIMIT);
        return this.SUBRULE3(this.value);
      }) as A.Value | undefined;
      if (!this.ast) return NO_AST;
      return { kind: 'WhereClause', conditions, limit, loc: spanFrom(kw, limit?.loc ?? conditions[conditions.length - 1].loc) };
    });

    /** condition := searchCondition | fieldCondition   (`search` always starts a search; a field named search is written "search") */
    condition = this.RULE('condition', (): A.Condition => this.OR(this.conditionAlts ??= {
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => this.SUBRULE(this.searchCondition) },
        { ALT: () => this.SUBRULE(this.fieldCondition) },
      ],
    }) as A.Condition);

    /** searchCondition := SEARCH StringLiteral? searchOption*   (a LIMIT right after it limits the search) */
    searchCondition = this.RULE('searchCondition', (): A.SearchCondition => {
      const kw = this.CONSUME(T.KW.SEARCH);
      const q = this.OPTION(this.fns.query ??= () => this.CONSUME(T.StringLiteral, QUERY)) as IToken | undefined;
      const options: A.SearchOption[] = [];
      this.lists.push(options);
      this.MANY(this.fns.searchOptions ??= () => { this.lists[this.lists.length - 1].push(this.SUBRULE(this.searchOption)); });
      this.lists.pop();
      if (!this.ast) return NO_AST;
      const query: A.StringValue | undefined = q ? { kind: 'String', value: decodeString(q.image), loc: tokenRange(q) } : undefined;
      const last = options.length ? options[options.length - 1].loc : query?.loc ?? tokenRange(kw);
      return { kind: 'SearchCondition', query, options, loc: spanFrom(kw, last) };
    });

    /** searchOption := SEARCH_OPTION value   (K, ALPHA, LIMIT, CONTEXT, VECTOR, ORDER BY: the vocabulary's search options) */
    searchOption = this.RULE('searchOption', (): A.SearchOption => {
      const option = this.OR(this.alts.searchOption ??= SEARCH_OPTION_NAMES.map((option) => {
        const [first, ...rest] = words(option);
        return {
          ALT: () => {
            const k = this.consume(0, first);
            for (let j = 0; j < rest.length; j++) this.consume(0, rest[j]);
            return [option, k];
          },
        };
      })) as [A.SearchOptionName, IToken];
      const value = this.SUBRULE(this.value);
      if (!this.ast) return NO_AST;
      const [name, k] = option;
      return { kind: 'SearchOption', name, value, loc: spanFrom(k, value.loc) };
    });

    /** fieldCondition := fieldName ('.' fieldName)? ( '=' value | HAS valueList | NOT HAS valueList | '>=' value | '<=' value | BEFORE value | AFTER value | timeRange ) */
    fieldCondition = this.RULE('fieldCondition', (): A.FieldCondition => {
      const written = this.SUBRULE(this.fieldName);
      // `facets.status = "open"`: a condition on one facet.
      const subField = this.OPTION(() => { this.CONSUME(T.Dot); return this.SUBRULE2(this.fieldName, { LABEL: 'subField' }); });
      const tail = this.OR(this.alts.fieldCondition ??= [
        { ALT: () => { const t = this.CONSUME(T.Equals); const value = this.SUBRULE(this.value); return this.ast ? { operator: '=', operatorLoc: tokenRange(t), value } : NO_AST; } },
        { ALT: () => { const t = this.CONSUME(T.KW.HAS); const values = this.SUBRULE(this.valueList); return this.ast ? { operator: 'HAS', operatorLoc: tokenRange(t), values } : NO_AST; } },
        { ALT: () => { const t = this.CONSUME(T.KW.NOT); const has = this.CONSUME2(T.KW.HAS); const values = this.SUBRULE2(this.valueList); return this.ast ? { operator: 'NOT HAS', operatorLoc: tokenSpan(t, has), values } : NO_AST; } },
        { ALT: () => { const t = this.CONSUME(T.GreaterEq); const value = this.SUBRULE3(this.value); return this.ast ? { operator: '>=', operatorLoc: tokenRange(t), value } : NO_AST; } },
        { ALT: () => { const t = this.CONSUME(T.LessEq); const value = this.SUBRULE4(this.value); return this.ast ? { operator: '<=', operatorLoc: tokenRange(t), value } : NO_AST; } },
        { ALT: () => { const t = this.CONSUME(T.KW.BEFORE); const value = this.SUBRULE5(this.value); return this.ast ? { operator: 'BEFORE', operatorLoc: tokenRange(t), value } : NO_AST; } },
        { ALT: () => { const t = this.CONSUME(T.KW.AFTER); const value = this.SUBRULE6(this.value); return this.ast ? { operator: 'AFTER', operatorLoc: tokenRange(t), value } : NO_AST; } },
        { ALT: () => { const range = this.SUBRULE(this.timeRange); return this.ast ? { operator: 'RANGE', range } : NO_AST; } },
      ]) as FieldTail;
      if (!this.ast) return NO_AST;
      // A field written as a keyword (`TYPE = note`, `TAGS HAS`) names the lower-case IR field.
      const field: A.Key = written.keyword ? { kind: 'Key', name: written.key.name.toLowerCase(), loc: written.key.loc } : written.key;
      const sub = subField?.key;
      if (tail.operator === 'RANGE') {
        const loc = span(field.loc, tail.range.loc);
        return sub
          ? { kind: 'FieldCondition', field, subField: sub, operator: 'RANGE', operatorLoc: tail.range.loc, range: tail.range, loc }
          : { kind: 'FieldCondition', field, operator: 'RANGE', operatorLoc: tail.range.loc, range: tail.range, loc };
      }
      if ('values' in tail) {
        const loc = span(field.loc, tail.values.loc);
        return sub
          ? { kind: 'FieldCondition', field, subField: sub, operator: tail.operator, operatorLoc: tail.operatorLoc, values: tail.values, loc }
          : { kind: 'FieldCondition', field, operator: tail.operator, operatorLoc: tail.operatorLoc, values: tail.values, loc };
      }
      const loc = span(field.loc, tail.value.loc);
      return sub
        ? { kind: 'FieldCondition', field, subField: sub, operator: tail.operator, operatorLoc: tail.operatorLoc, value: tail.value, loc }
        : { kind: 'FieldCondition', field, operator: tail.operator, operatorLoc: tail.operatorLoc, value: tail.value, loc };
    });

    /** fieldName := Identifier | StringLiteral | Keyword   (a keyword names the lower-case field: `type`, `facets`) */
    fieldName = this.RULE('fieldName', (): { key: A.Key; keyword: boolean } => {
      const t = this.OR(this.alts.fieldName ??= [
        { ALT: () => this.CONSUME(T.Identifier) },
        { ALT: () => this.CONSUME(T.StringLiteral) },
        { ALT: () => this.CONSUME(T.Keyword) },
      ]) as IToken;
      return this.ast ? { key: tokenKey(t), keyword: tokenMatcher(t, T.Keyword) } : NO_AST;
    });

    /** timeRange := relativeRange (FROM value)? (TO value)? | FROM value (TO value)? | TO value */
    timeRange = this.RULE('timeRange', (): A.TimeRange => this.OR(this.alts.timeRange ??= [
      {
        ALT: () => {
          const relative = this.SUBRULE(this.relativeRange);
          const from = this.OPTION(this.fns.relativeFrom ??= () => { this.CONSUME(T.KW.FROM); return this.SUBRULE(this.value); }) as A.Value | undefined;
          const to = this.OPTION2(this.fns.relativeTo ??= () => { this.CONSUME(T.KW.TO); return this.SUBRULE2(this.value); }) as A.Value | undefined;
          return this.ast ? { kind: 'TimeRange', relative, from, to, loc: span(relative.loc, to?.loc ?? from?.loc ?? relative.loc) } : NO_AST;
        },
      },
      {
        ALT: () => {
          const kw = this.CONSUME2(T.KW.FROM);
          const from = this.SUBRULE3(this.value);
          const to = this.OPTION3(this.fns.fromTo ??= () => { this.CONSUME2(T.KW.TO); return this.SUBRULE4(this.value); }) as A.Value | undefined;
          return this.ast ? { kind: 'TimeRange', relative: undefined, from, to, loc: spanFrom(kw, to?.loc ?? from.loc) } : NO_AST;
        },
      },
      {
        ALT: () => {
          const kw = this.CONSUME3(T.KW.TO);
          const to = this.SUBRULE5(this.value);
          return this.ast ? { kind: 'TimeRange', relative: undefined, from: undefined, to, loc: spanFrom(kw, to.loc) } : NO_AST;
        },
      },
    ]) as A.TimeRange);

    /** relativeRange := IN? (LAST | NEXT) NumberLiteral Identifier   (the unit: DAYS, WEEKS, …) */
    relativeRange = this.RULE('relativeRange', (): A.RelativeRange => {
      const inKw = this.OPTION(this.fns.in ??= () => this.CONSUME(T.KW.IN)) as IToken | undefined;
      const dir = this.OR(this.alts.relativeRange ??= [{ ALT: () => this.CONSUME(T.KW.LAST) }, { ALT: () => this.CONSUME(T.KW.NEXT) }]) as IToken;
      const amount = this.CONSUME(T.NumberLiteral, AMOUNT);
      const unit = this.CONSUME(T.Identifier, UNIT);
      if (!this.ast) return NO_AST;
      return {
        kind: 'RelativeRange',
        direction: dir.tokenType === T.KW.LAST ? 'last' : 'next',
        amount: { kind: 'Number', value: Number(amount.image), loc: tokenRange(amount) },
        unit: unit.image.toLowerCase(),
        unitLoc: tokenRange(unit),
        loc: tokenSpan(inKw ?? dir, unit),
      };
    });

    /** valueClause := VALUE_KEYWORD value   (TYPE, TIME, VALID FROM, AS OF, …, COMMENT: the vocabulary's value clauses) */
    valueClause = this.RULE('valueClause', (): A.ValueClause => {
      // A keyword that starts two phrases (`AS`, `AS OF`) is consumed under a distinct index in each.
      // The phrase read is left in `phrase` (no array per clause); read before the value is parsed.
      this.OR(this.alts.valueClause ??= VALUE_CLAUSE_TOKENS.map(([first, ...rest], i) => ({
        ALT: () => {
          const kw = this.consume(i, first, { LABEL: 'keyword' });
          let last = kw;
          for (let j = 0; j < rest.length; j++) last = this.consume(i, rest[j]);
          const phrase = this.phrase;
          phrase.keyword = VALUE_KEYWORDS[i];
          phrase.first = kw;
          phrase.last = last;
        },
      })));
      const { keyword, first: kw, last } = this.phrase;
      const value = this.SUBRULE(this.value);
      if (!this.ast) return NO_AST;
      const keywordLoc = tokenRange(kw);
      return { kind: 'ValueClause', keyword, keywordLoc: last === kw ? keywordLoc : tokenSpan(kw, last), value, loc: span(keywordLoc, value.loc) };
    });

    /** listClause := LIST_KEYWORD (valueList | elementList)   (TAGS valueList | INCLUDE elementList: field names such as `id`, `type` are keywords) */
    listClause = this.RULE('listClause', (): A.ListClause => this.OR(this.alts.listClause ??= LIST_KEYWORDS.map((k) => ({
      ALT: () => {
        const kw = this.CONSUME(T.KW[k], { LABEL: 'keyword' });
        const values = this.SUBRULE(LIST_ITEMS[k] === 'elements' ? this.elementList : this.valueList);
        if (!this.ast) return NO_AST;
        const keywordLoc = tokenRange(kw);
        return { kind: 'ListClause', keyword: k, keywordLoc, values, loc: span(keywordLoc, values.loc) };
      },
    }))) as A.ListClause);

    /** elementList := element (',' element)* */
    elementList = this.RULE('elementList', (): A.ValueList => {
      const items: A.Value[] = [];
      this.lists.push(items);
      this.AT_LEAST_ONE_SEP(this.seps.elementList ??= { SEP: T.Comma, DEF: () => { this.lists[this.lists.length - 1].push(this.SUBRULE(this.element)); } });
      this.lists.pop();
      return this.ast ? valueList(items)! : NO_AST;
    });

    /** maxClause := MAX value TOKENS */
    maxClause = this.RULE('maxClause', (): A.MaxTokensClause => {
      const kw = this.CONSUME(T.KW.MAX);
      const value = this.SUBRULE(this.value);
      const end = this.CONSUME(T.KW.TOKENS);
      return this.ast ? { kind: 'MaxTokensClause', value, loc: tokenSpan(kw, end) } : NO_AST;
    });

    /** olderClause := OLDER THAN value */
    olderClause = this.RULE('olderClause', (): A.OlderThanClause => {
      const kw = this.CONSUME(T.KW.OLDER);
      this.CONSUME(T.KW.THAN);
      const value = this.SUBRULE(this.value);
      return this.ast ? { kind: 'OlderThanClause', value, loc: spanFrom(kw, value.loc) } : NO_AST;
    });

    /** withinClause := WITHIN timeRange */
    withinClause = this.RULE('withinClause', (): A.WithinClause => {
      const kw = this.CONSUME(T.KW.WITHIN);
      const range = this.SUBRULE(this.timeRange);
      return this.ast ? { kind: 'WithinClause', range, loc: spanFrom(kw, range.loc) } : NO_AST;
    });

    /** flagClause := FLAG_KEYWORD   (ARCHIVE, SOFT, HARD, CONFIRM, DRY RUN: the vocabulary's flags) */
    flagClause = this.RULE('flagClause', (): A.FlagClause => this.OR(this.alts.flagClause ??= FLAG_CLAUSE_TOKENS.map(([first, ...rest]) => ({
      ALT: () => {
        const kw = this.CONSUME(first, { LABEL: 'keyword' });
        let last = kw;
        for (let j = 0; j < rest.length; j++) last = this.consume(0, rest[j]);
        if (!this.ast) return NO_AST;
        return kw.tokenType === T.KW.DRY
          ? { kind: 'FlagClause', keyword: 'DRY RUN', loc: tokenSpan(kw, last) }
          : { kind: 'FlagClause', keyword: kw.tokenType.name as A.FlagKeyword, loc: tokenRange(kw) };
      },
    }))) as A.FlagClause);

    /** setClause := SET assignment (',' assignment)* */
    setClause = this.RULE('setClause', (): A.SetClause => {
      const kw = this.CONSUME(T.KW.SET);
      const assignments: A.Assignment[] = [];
      this.lists.push(assignments);
      this.AT_LEAST_ONE_SEP(this.seps.setClause ??= { SEP: T.Comma, DEF: () => { this.lists[this.lists.length - 1].push(this.SUBRULE(this.assignment)); } });
      this.lists.pop();
      return this.ast ? { kind: 'SetClause', assignments, loc: spanFrom(kw, assignments[assignments.length - 1].loc) } : NO_AST;
    });

    /** assignment := key '='? value */
    assignment = this.RULE('assignment', (): A.Assignment => {
      const key = this.SUBRULE(this.key);
      this.OPTION(this.fns.equals ??= () => this.CONSUME(T.Equals));
      const value = this.SUBRULE(this.value);
      return this.ast ? { kind: 'Assignment', key, value, loc: span(key.loc, value.loc) } : NO_AST;
    });

    /** withClause := WITH key ('.' key)* '=' value */
    withClause = this.RULE('withClause', (): A.WithClause => {
      const kw = this.CONSUME(T.KW.WITH);
      const path: A.Key[] = [];
      this.lists.push(path);
      this.AT_LEAST_ONE_SEP(this.seps.withClause ??= { SEP: T.Dot, DEF: () => { this.lists[this.lists.length - 1].push(this.SUBRULE(this.key)); } });
      this.lists.pop();
      this.CONSUME(T.Equals);
      const value = this.SUBRULE(this.value);
      return this.ast ? { kind: 'WithClause', path, value, loc: spanFrom(kw, value.loc) } : NO_AST;
    });

    /** valueList := value (',' value)*   (a single bracketed list is the list itself) */
    valueList = this.RULE('valueList', (): A.ValueList => {
      const items: A.Value[] = [];
      this.lists.push(items);
      this.AT_LEAST_ONE_SEP(this.seps.valueList ??= { SEP: T.Comma, DEF: () => { this.lists[this.lists.length - 1].push(this.SUBRULE(this.value)); } });
      this.lists.pop();
      return this.ast ? valueList(items)! : NO_AST;
    });

    /** value := StringLiteral | NumberLiteral | DateTimeLiteral | DurationLiteral | TRUE | FALSE | NULL | Identifier | SoftKeyword | Reference | list | object */
    value = this.RULE('value', (): A.Value => this.OR(this.alts.value ??= [
      ...[T.StringLiteral, T.NumberLiteral, T.DateTimeLiteral, T.DurationLiteral, T.True, T.False, T.Null, T.Identifier, T.SoftKeyword, T.Reference].map((type) => ({
        ALT: () => {
          const t = this.CONSUME(type);
          return this.ast ? tokenValue(type.name, t) : NO_AST;
        },
      })),
      { ALT: () => this.SUBRULE(this.list) },
      { ALT: () => this.SUBRULE(this.object) },
    ]) as A.Value);

    /** element := value | Keyword   (inside brackets a keyword is just a bare word, e.g. [Retrieve]) */
    element = this.RULE('element', (): A.Value => this.OR(this.alts.element ??= [
      { ALT: () => this.SUBRULE(this.value) },
      { ALT: () => { const kw = this.CONSUME(T.Keyword); return this.ast ? { kind: 'Identifier', value: kw.image, loc: tokenRange(kw) } : NO_AST; } },
    ]) as A.Value);

    /** list := '[' (element (',' element)*)? ']' */
    list = this.RULE('list', (): A.ListValue => {
      const open = this.CONSUME(T.LBracket);
      const items: A.Value[] = [];
      this.lists.push(items);
      this.MANY_SEP(this.seps.list ??= { SEP: T.Comma, DEF: () => { this.lists[this.lists.length - 1].push(this.SUBRULE(this.element)); } });
      this.lists.pop();
      const close = this.CONSUME(T.RBracket);
      return this.ast ? { kind: 'List', items, loc: tokenSpan(open, close) } : NO_AST;
    });

    /** object := '{' (entry (',' entry)*)? '}' */
    object = this.RULE('object', (): A.ObjectValue => {
      const open = this.CONSUME(T.LBrace);
      const entries: A.ObjectEntry[] = [];
      this.lists.push(entries);
      this.MANY_SEP(this.seps.object ??= { SEP: T.Comma, DEF: () => { this.lists[this.lists.length - 1].push(this.SUBRULE(this.entry)); } });
      this.lists.pop();
      const close = this.CONSUME(T.RBrace);
      return this.ast ? { kind: 'Object', entries, loc: tokenSpan(open, close) } : NO_AST;
    });

    /** entry := key ':' element */
    entry = this.RULE('entry', (): A.ObjectEntry => {
      const key = this.SUBRULE(this.key);
      this.CONSUME(T.Colon);
      const value = this.SUBRULE(this.element);
      return this.ast ? { kind: 'Entry', key, value, loc: span(key.loc, value.loc) } : NO_AST;
    });

    /** key := Identifier | StringLiteral | Keyword | TRUE | FALSE | NULL */
    key = this.RULE('key', (): A.Key => {
      const t = this.OR(this.alts.key ??= [
        { ALT: () => this.CONSUME(T.Identifier) },
        { ALT: () => this.CONSUME(T.StringLiteral) },
        { ALT: () => this.CONSUME(T.Keyword) },
        { ALT: () => this.CONSUME(T.True) },
        { ALT: () => this.CONSUME(T.False) },
        { ALT: () => this.CONSUME(T.Null) },
      ]) as IToken;
      return this.ast ? tokenKey(t) : NO_AST;
    });
  };
}

/**
 * The recovering parser (Chevrotain parsers are meant to be reused): partial CSTs and every error,
 * for statements the happy path does not take, the editor services and the generated grammars.
 */
export const parser: T2mParser<CstNode> = new (grammar(CstParser as unknown as typeof EmbeddedActionsParser))({ recovery: true, ast: false }) as unknown as T2mParser<CstNode>;
/**
 * The parser for the first pass over a statement: no recovery and no CST, its actions build the
 * statement's AST as it goes, so the usual input (no errors) costs least; a statement it finds an
 * error in, or that does not end its `;`-piece, is parsed again by `parser` (recover.ts).
 * It pays: without it parse + check of the upstream corpus takes 1.7× the CPU (`npm run perf -- front`).
 */
export const fastParser: T2mParser<RawStatement> = new (grammar(EmbeddedActionsParser))({ recovery: false, ast: true });
export type { CstNode };
