/**
 * What may come next after the tokens of a statement: the grammar's own answer (Chevrotain's
 * `computeContentAssist` on the recovering parser) narrowed by the clause table — the clauses the
 * verb takes, no second target once one is given, no clause given twice. Completion and the
 * parser's "unexpected word" messages both read it, so they offer the same words.
 */
import type { CstNode, IToken, TokenType } from 'chevrotain';
import { CLAUSE_ORDER, MAX_NESTING, OP_OF_VERB, clauseSpec, type ClauseName, type VerbName } from '../language/index.js';
import { parser } from './grammar.js';
import * as T from './tokens.js';
import { VERB_SET } from './lex.js';
import { verbTakesClauseNamed } from './verbClauses.js';

export interface NextWords {
  /** The statement's verb, when the tokens have one. */
  readonly verb?: VerbName;
  /** False when the tokens do not parse as the start of a statement (nothing else is then known). */
  readonly parsed: boolean;
  /** Keywords that continue the clause being written (AND, LIMIT, a search option, TO, OF of AS OF…), in grammar order. */
  readonly continuations: readonly string[];
  /** Clauses that may start here, by name (`DRY RUN`, `OLDER`), best first: a missing target, the verb's own, those every verb takes. */
  readonly clauses: readonly ClauseName[];
  /** Where a value goes (`SET weight |`, `LIMIT |`). */
  readonly value: boolean;
  /** Where a condition's field or `search` goes (`WHERE |`, `AND |`). */
  readonly conditionField: boolean;
  /** The statement may end here (`;`). */
  readonly end: boolean;
}

const NOTHING: NextWords = { parsed: false, continuations: [], clauses: [], value: false, conditionField: false, end: false };
const TARGETS: readonly ClauseName[] = ['ID', 'IDS', 'ALL', 'WHERE'];
const VALUE_TOKENS = new Set<TokenType>([T.StringLiteral, T.NumberLiteral, T.DateTimeLiteral, T.DurationLiteral, T.True, T.False, T.Null, T.Identifier, T.SoftKeyword, T.Reference, T.LBracket, T.LBrace]);

/** The clause a clause node of the CST is, by its keywords (`AS OF`, `DRY RUN`, `OLDER` for OLDER THAN). */
function clauseName(node: CstNode): ClauseName | undefined {
  const keywords: IToken[] = [];
  for (const [key, children] of Object.entries(node.children)) {
    for (const child of children) {
      if ('image' in child) {
        if (key !== 'Semicolon') keywords.push(child);
      } else if (['idClause', 'idsClause', 'whereClause', 'valueClause', 'listClause', 'maxClause', 'olderClause', 'withinClause', 'flagClause', 'setClause', 'withClause'].includes(child.name)) {
        return clauseName(child);
      }
    }
  }
  keywords.sort((a, b) => a.startOffset - b.startOffset);
  const [first, second] = keywords.map((t) => t.image.toUpperCase());
  if (first === undefined) return undefined;
  const pair = `${first} ${second}`;
  if (second !== undefined && clauseSpec(pair)) return pair as ClauseName;
  return clauseSpec(first) ? (first as ClauseName) : undefined;
}

/**
 * Statements these helpers leave alone: lists and objects nested past the limit (the parser is
 * recursive; the recovery driver refuses them before it runs too) and very long ones (content
 * assist walks the grammar along every token), where callers fall back to plainer answers.
 */
const MAX_TOKENS = 2000;
function unreadable(tokens: readonly IToken[]): boolean {
  if (tokens.length > MAX_TOKENS) return true;
  let depth = 0;
  for (const t of tokens) {
    if (t.tokenType === T.LBracket || t.tokenType === T.LBrace || t.tokenType === T.Dot) {
      if (++depth > MAX_NESTING) return true;
    } else if ((t.tokenType === T.RBracket || t.tokenType === T.RBrace) && depth > 0) depth--;
  }
  return false;
}

/** The recovering parser's tree of one statement. */
function statementCst(tokens: readonly IToken[]): CstNode {
  // The CST's locations are read from the tokens' `endOffset`, which the lexer does not record.
  for (const t of tokens) if (t.endOffset === undefined) t.endOffset = t.startOffset + t.image.length - 1;
  parser.input = tokens as IToken[];
  return parser.statement();
}

/** The clauses the tokens already give, read off the recovering parser's tree. */
function givenClauses(tokens: readonly IToken[]): ClauseName[] {
  const cst = statementCst(tokens);
  return (cst.children.clause ?? []).flatMap((c) => ('image' in c ? [] : clauseName(c) ?? []));
}

/**
 * Where a token stands in its statement (`tokens`, verb or LET first), by the grammar: the CST
 * nodes from the statement down to the one holding it, each with the key it is held under
 * (`fieldName`, or a label such as `subField`). Undefined when the parser did not read it.
 */
export function placeOf(tokens: readonly IToken[], token: IToken): { node: CstNode; key: string }[] | undefined {
  if (unreadable(tokens)) return undefined;
  const find = (node: CstNode, key: string): { node: CstNode; key: string }[] | undefined => {
    for (const [k, children] of Object.entries(node.children)) {
      for (const child of children) {
        if ('image' in child) {
          if (child.startOffset === token.startOffset && child.image === token.image) return [{ node, key }];
        } else {
          const below = find(child, k);
          if (below) return [{ node, key }, ...below];
        }
      }
    }
    return undefined;
  };
  return find(statementCst(tokens), 'statement');
}

/** What may follow `tokens`, the start of one statement (verb or LET first). */
export function nextWords(tokens: readonly IToken[]): NextWords {
  if (tokens.length === 0 || unreadable(tokens)) return NOTHING;
  const suggestions = parser.computeContentAssist('statement', tokens as IToken[]);
  if (suggestions.length === 0) return NOTHING;
  const verbToken = tokens.find((t) => VERB_SET.has(t.tokenType));
  const verb = verbToken ? (verbToken.tokenType.name as VerbName) : undefined;
  const end = suggestions.some((s) => s.nextTokenType === T.Semicolon);
  const continuations: string[] = [];
  const starts = new Set<string>();
  let value = false;
  let conditionField = false;
  for (const s of suggestions) {
    const type = s.nextTokenType;
    const stack = s.ruleStack;
    const rule = stack[stack.length - 1];
    // A clause starts only where the statement could end: every clause is optional.
    if (end && stack[1] === 'clause' && stack.length <= 3 && (rule === 'clause' || !['whereClause'].includes(rule) || type === T.KW.WHERE)) {
      starts.add(type.name);
      continue;
    }
    if (rule === 'fieldName' || rule === 'searchCondition' && type === T.KW.SEARCH) { conditionField = true; continue; }
    if (rule === 'value' || rule === 'list' || rule === 'object' || (VALUE_TOKENS.has(type) && rule !== 'relativeRange')) { value = true; continue; }
    if (type === T.Semicolon || type.name === 'EOF') continue;
    if (T.KEYWORDS.includes(type.name) && !continuations.includes(type.name)) continuations.push(type.name);
  }
  const given = verb ? givenClauses(tokens) : [];
  const hasTarget = given.some((c) => TARGETS.includes(c));
  const op = verb ? OP_OF_VERB[verb] : undefined;
  const open = CLAUSE_ORDER.filter((name) => {
    const first = name.split(' ')[0];
    if (!starts.has(first)) return false;
    if (verb && !verbTakesClauseNamed(verb, name)) return false;
    if (given.includes(name)) return false;
    if ((name === 'SOFT' || name === 'HARD') && (given.includes('SOFT') || given.includes('HARD'))) return false;
    return !(TARGETS.includes(name) && hasTarget);
  });
  const isTarget = (n: ClauseName) => TARGETS.includes(n);
  const isOwn = (n: ClauseName) => op !== undefined && clauseSpec(n)?.ops?.[op] !== undefined;
  // ENCODE creates a memory and selects none: no target there (the checker's target-forbidden).
  const targets = verb === 'ENCODE' ? [] : open.filter(isTarget);
  const clauses = [...targets, ...open.filter(isOwn), ...open.filter((n) => !isTarget(n) && !isOwn(n))];
  return { verb, parsed: true, continuations, clauses, value, conditionField, end };
}

/** The words that start a clause or continue one, as a user types them (`OLDER THAN`, `ORDER BY`). */
export function startWords(name: string): string {
  return name === 'OLDER' ? 'OLDER THAN' : name === 'ORDER' ? 'ORDER BY' : name;
}

