/**
 * Which clauses each verb takes, by the clause's first keyword (`DRY` for DRY RUN, `MAX` for
 * MAX … TOKENS), read off the vocabulary's clause table (`src/language/`). The grammar lets any
 * clause follow any verb so that a misplaced one gets a precise `clause-not-allowed` from
 * `astToIr`; this view serves the parser's "expected a clause" messages and the per-verb GBNF.
 */
import { CLAUSES, OP_OF_VERB, VERB_TEXT, clausePath, clauseSpec, firstKeyword, type ClauseName, type VerbName } from '../language/index.js';

const NAMES = Object.keys(CLAUSES) as ClauseName[];
/** Clauses every verb takes: the target, SET / WITH (args or any path), the stage. */
const EVERY_VERB: ClauseName[] = [...NAMES.filter((n) => ['target', 'set', 'with'].includes(clauseSpec(n)!.shape)), 'STAGE'];
/** The meta clauses and COMMENT: every verb takes them too, listed last. */
const COMMON = NAMES.filter((n) => clauseSpec(n)!.shape === 'value' && clauseSpec(n)!.path && n !== 'STAGE');

/** The first keyword of each clause the verb takes: those every verb takes, its own, the flags, the meta clauses. */
export function verbClauseKeywords(verb: VerbName): string[] {
  const op = OP_OF_VERB[verb];
  const own = NAMES.filter((n) => clauseSpec(n)!.ops?.[op] !== undefined && clauseSpec(n)!.shape !== 'flag');
  const flags = NAMES.filter((n) => clauseSpec(n)!.shape === 'flag' && clausePath(n, op) !== undefined);
  return [...EVERY_VERB, ...own, ...flags, ...COMMON].map(firstKeyword);
}

export function verbTakesClause(verb: VerbName, keyword: string): boolean {
  return verbClauseKeywords(verb).includes(keyword.toUpperCase());
}

/** Only ENCODE starts with a text (`ENCODE "…"`); other verbs select memories. */
export function verbTakesText(verb: VerbName): boolean {
  return VERB_TEXT[OP_OF_VERB[verb]] !== undefined;
}

/** How a clause is written in a list of clauses, by its first keyword (`MAX` → `MAX … TOKENS`). */
function written(keyword: string): string {
  const name = NAMES.find((n) => firstKeyword(n) === keyword);
  return (name && clauseSpec(name)!.written) ?? name ?? keyword;
}

/** The clauses a verb takes as a message lists them: its own first, then those every verb takes. */
export function describeVerbClauses(verb: VerbName): string {
  const op = OP_OF_VERB[verb];
  const all = verbClauseKeywords(verb);
  const ownKeywords = NAMES.filter((n) => clauseSpec(n)!.ops?.[op] !== undefined).map(firstKeyword);
  const own = all.filter((k) => ownKeywords.includes(k));
  const rest = all.filter((k) => !own.includes(k));
  return [...own, ...rest].map(written).join(', ');
}
