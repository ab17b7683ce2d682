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

/** The clauses the verb takes: those every verb takes, its own, the flags, the meta clauses. */
function verbClauseNames(verb: VerbName): ClauseName[] {
  const op = OP_OF_VERB[verb];
  const own = NAMES.filter((n) => clauseSpec(n)!.ops?.[op] !== undefined && clauseSpec(n)!.shape !== 'flag');
  const flags = NAMES.filter((n) => clauseSpec(n)!.shape === 'flag' && clausePath(n, op) !== undefined);
  return [...EVERY_VERB, ...own, ...flags, ...COMMON];
}

/** The first keyword of each clause the verb takes (`AS` once for AS and AS OF). */
export function verbClauseKeywords(verb: VerbName): string[] {
  return [...new Set(verbClauseNames(verb).map(firstKeyword))];
}

/** Whether the verb takes the clause named `name` (`AS OF`), or undefined when no clause has that name. */
export function verbTakesClauseNamed(verb: VerbName, name: string): boolean | undefined {
  if (!clauseSpec(name)) return undefined;
  return verbClauseNames(verb).includes(name as ClauseName);
}

export function verbTakesClause(verb: VerbName, keyword: string): boolean {
  return verbClauseKeywords(verb).includes(keyword.toUpperCase());
}

/** Only ENCODE starts with a text (`ENCODE "…"`); other verbs select memories. */
export function verbTakesText(verb: VerbName): boolean {
  return VERB_TEXT[OP_OF_VERB[verb]] !== undefined;
}

/** How a clause is written in a list of clauses (`MAX` → `MAX … TOKENS`). */
function written(name: ClauseName): string {
  return clauseSpec(name)!.written ?? name;
}

/** The clauses a verb takes as a message lists them: its own first, then those every verb takes. */
export function describeVerbClauses(verb: VerbName): string {
  const op = OP_OF_VERB[verb];
  const all = verbClauseNames(verb);
  const own = all.filter((n) => clauseSpec(n)!.ops?.[op] !== undefined);
  const rest = all.filter((n) => !own.includes(n));
  return [...own, ...rest].map(written).join(', ');
}
