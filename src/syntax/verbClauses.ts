/**
 * Which clauses each verb takes, by the clause's first keyword (`DRY` for DRY RUN, `MAX` for
 * MAX … TOKENS). The grammar lets any clause follow any verb so that a misplaced one gets a
 * precise `clause-not-allowed` from `astToIr`; this view of the same table (`src/convert/clauses.ts`)
 * serves the parser's "expected a clause" messages and the per-verb GBNF. A test checks it
 * against what `astToIr` accepts.
 */
import { CLAUSE_TARGETS, COMMON_CLAUSES, FLAG_TARGETS, OP_OF_VERB } from '../convert/clauses.js';
import type { FlagKeyword, VerbName } from './ast.js';

/** Clauses every verb takes: the target, SET / WITH (args or any path), the stage. */
const EVERY_VERB = ['ID', 'IDS', 'ALL', 'WHERE', 'SET', 'WITH', 'STAGE'];

/** The first keyword of each clause the verb takes. */
export function verbClauseKeywords(verb: VerbName): string[] {
  const op = OP_OF_VERB[verb];
  const flags = (Object.keys(FLAG_TARGETS) as FlagKeyword[])
    .filter((f) => FLAG_TARGETS[f].ops === 'all' || (FLAG_TARGETS[f].ops as readonly string[]).includes(op))
    .map((f) => f.split(' ')[0]);
  const specific = Object.keys(CLAUSE_TARGETS).filter((k) => CLAUSE_TARGETS[k][op] !== undefined);
  return [...EVERY_VERB, ...specific, ...flags, ...Object.keys(COMMON_CLAUSES)];
}

export function verbTakesClause(verb: VerbName, keyword: string): boolean {
  return verbClauseKeywords(verb).includes(keyword.toUpperCase());
}

/** Only ENCODE starts with a text (`ENCODE "…"`); other verbs select memories. */
export function verbTakesText(verb: VerbName): boolean {
  return verb === 'ENCODE';
}

/** How a clause is written, by its first keyword, for messages. */
const CLAUSE_SHAPES: Readonly<Record<string, string>> = { DRY: 'DRY RUN', MAX: 'MAX … TOKENS', OLDER: 'OLDER THAN' };

/** The clauses a verb takes as a message lists them: its own first, then those every verb takes. */
export function describeVerbClauses(verb: VerbName): string {
  const all = verbClauseKeywords(verb);
  const own = all.filter((k) => !EVERY_VERB.includes(k) && !(k in COMMON_CLAUSES) && k !== 'CONFIRM' && k !== 'DRY');
  const rest = all.filter((k) => !own.includes(k));
  const shape = (k: string) => CLAUSE_SHAPES[k] ?? k;
  return [...own, ...rest].map(shape).join(', ');
}
