/**
 * The grammar in llama.cpp's GBNF, built from the recovering parser's rules and the vocabulary's
 * clause table (per verb). Browser-safe and cheap, so the library builds it where it is asked for
 * (`GBNF`) rather than carrying it as a string; `scripts/gen-grammar.ts` also writes it out
 * (grammar/generated/grammar.gbnf) next to the EBNF and the railroad diagrams.
 */
import {
  Alternation, Alternative, NonTerminal, Option, Repetition, RepetitionMandatory, RepetitionMandatoryWithSeparator,
  RepetitionWithSeparator, Rule, Terminal, type IProduction, type TokenType,
} from 'chevrotain';
import { SOFT_KEYWORDS, type VerbName } from '../language/index.js';
import { parser } from './grammar.js';
import * as T from './tokens.js';
import { verbTakesClause, verbTakesClauseNamed, verbTakesText } from './verbClauses.js';

/** A token that may start with a letter or digit, so it needs white space after a word. */
function wordyTerminal(t: TokenType): boolean {
  return t !== T.StringLiteral && !(typeof t.LABEL === 'string' && t.LABEL.startsWith("'"));
}

const firstWordyCache = new Map<string, boolean>();
function firstWordy(p: IProduction): boolean {
  if (p instanceof Terminal) return wordyTerminal(p.terminalType);
  if (p instanceof NonTerminal) {
    const name = p.nonTerminalName;
    if (!firstWordyCache.has(name)) {
      firstWordyCache.set(name, true); // recursion guard: assume wordy (the safe choice)
      firstWordyCache.set(name, p.referencedRule.definition.length === 0 || firstWordySeq(p.referencedRule.definition));
    }
    return firstWordyCache.get(name)!;
  }
  if (p instanceof Alternation) return p.definition.some((a) => firstWordySeq((a as Alternative).definition));
  return firstWordySeq((p as Option).definition);
}
function firstWordySeq(defs: IProduction[]): boolean {
  // Optional leading parts may be absent, so any of them (and the first required one) counts.
  for (const d of defs) {
    if (firstWordy(d)) return true;
    if (!(d instanceof Option || d instanceof Repetition || d instanceof RepetitionWithSeparator)) return false;
  }
  return false;
}

function gbnfName(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** A word in any letter case, as the lexer reads keywords: `[sS][eE][aA][rR][cC][hH]`. */
function anyCase(word: string): string {
  return [...word].map((c) => (c.toLowerCase() === c.toUpperCase() ? JSON.stringify(c) : `[${c.toLowerCase()}${c.toUpperCase()}]`)).join('');
}

function gbnfTerminal(t: TokenType): string {
  if (t === T.Keyword) return 'keyword';
  if (t === T.SoftKeyword) return `( ${SOFT_KEYWORDS.map(anyCase).join(' | ')} )`;
  if (T.KEYWORDS.includes(t.name)) return anyCase(t.name);
  if (t === T.True || t === T.False || t === T.Null) return anyCase(t.name.toLowerCase());
  if (typeof t.LABEL === 'string' && t.LABEL.startsWith("'")) return JSON.stringify(t.LABEL.slice(1, -1));
  return gbnfName(t.name.replace(/Literal$/, '')).replace(/^-/, '');
}

/** Can the production end with a word? Only a punctuation or string terminal cannot. */
function lastWordy(p: IProduction): boolean {
  return p instanceof Terminal ? wordyTerminal(p.terminalType) : true;
}

function isOptional(p: IProduction): boolean {
  return p instanceof Option || p instanceof Repetition || p instanceof RepetitionWithSeparator;
}

/**
 * The separator before an element: none at the start, required white space between two words
 * (`WHERE tags`), optional white space next to punctuation or strings (`"a", "b"`).
 */
function gbnfSep(prevWordy: boolean | null, p: IProduction): string {
  if (prevWordy === null) return '';
  return prevWordy && firstWordy(p) ? 'sp ' : 'ws ';
}

/** One or more items of a repetition, the separator (if any) between them. */
function gbnfRepeat(p: Repetition | RepetitionMandatory | RepetitionWithSeparator | RepetitionMandatoryWithSeparator, prevWordy: boolean | null): string {
  const item = gbnfSeq(p.definition, prevWordy);
  const again = p instanceof RepetitionWithSeparator || p instanceof RepetitionMandatoryWithSeparator
    ? `ws ${gbnfTerminal(p.separator)} ${gbnfSeq(p.definition, false)}`
    : gbnfSeq(p.definition, true);
  return `${item} ( ${again} )*`;
}

/**
 * A sequence. Separators go before each element, inside its group when it is optional; a
 * leading optional element is expanded (`( x REST | REST )`) so that no separator is doubled.
 */
function gbnfSeq(defs: IProduction[], prevWordy: boolean | null): string {
  if (defs.length === 0) return '""';
  const [first, ...rest] = defs;
  if (prevWordy === null && isOptional(first)) {
    const body = first instanceof Option ? gbnfSeq(first.definition, null) : gbnfRepeat(first as Repetition, null);
    if (rest.length === 0) return `( ${body} )?`;
    return `( ${body} ${gbnfSeq(rest, true)} | ${gbnfSeq(rest, null)} )`;
  }
  const out = [gbnfProd(first, prevWordy)];
  let prev = lastWordy(first) || isOptional(first);
  for (const d of rest) {
    out.push(gbnfProd(d, prev));
    // After an optional element either it or what came before it ends the text so far.
    prev = isOptional(d) ? lastWordy(d) || prev : lastWordy(d);
  }
  return out.join(' ');
}

function gbnfProd(p: IProduction, prevWordy: boolean | null): string {
  if (p instanceof Terminal) return `${gbnfSep(prevWordy, p)}${gbnfTerminal(p.terminalType)}`;
  if (p instanceof NonTerminal) return `${gbnfSep(prevWordy, p)}${gbnfName(p.nonTerminalName)}`;
  if (p instanceof Option) return `( ${gbnfSeq(p.definition, prevWordy)} )?`;
  if (p instanceof Repetition) return `( ${gbnfSeq(p.definition, prevWordy)} )*`;
  if (p instanceof RepetitionMandatory) return `( ${gbnfSeq(p.definition, prevWordy)} )+`;
  if (p instanceof RepetitionWithSeparator) return `( ${gbnfRepeat(p, prevWordy)} )?`;
  if (p instanceof RepetitionMandatoryWithSeparator) return gbnfRepeat(p, prevWordy);
  if (p instanceof Alternation) return `( ${p.definition.map((a) => gbnfSeq((a as Alternative).definition, prevWordy)).join(' | ')} )`;
  throw new Error(`unknown GAST production ${p.constructor.name}`);
}

const GBNF_LEXICAL = [
  'ws ::= ([ \\t\\r\\n] | comment)*',
  'sp ::= ([ \\t\\r\\n] | comment)+',
  // A comment inside the script ends at its line break; only the last line may end without one.
  'comment ::= "#" [^\\n]* "\\n"',
  'last-comment ::= "#" [^\\n]*',
  'string ::= "\\"" ( [^"\\\\\\x00-\\x1f] | "\\\\" ( ["\\\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] ) )* "\\""',
  'number ::= "-"? ( "0" | [1-9] [0-9]* ) ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?',
  'date-time ::= [0-9] [0-9] [0-9] [0-9] "-" [0-9] [0-9] "-" [0-9] [0-9] ( "T" [0-9] [0-9] ":" [0-9] [0-9] ( ":" [0-9] [0-9] ( "." [0-9]+ )? )? ( "Z" | [-+] [0-9] [0-9] ":"? [0-9] [0-9] )? )?',
  'duration ::= "P" ( [0-9]+ "Y" )? ( [0-9]+ "M" )? ( [0-9]+ "W" )? ( [0-9]+ "D" )? ( "T" ( [0-9]+ "H" )? ( [0-9]+ "M" )? ( [0-9]+ ( "." [0-9]+ )? "S" )? )?',
  'identifier ::= [a-zA-Z_] [a-zA-Z0-9_]*',
  'reference ::= "$" [a-zA-Z_] [a-zA-Z0-9_]*',
];

/** The keyword a production starts with (`ID` for `idClause`), if it starts with one. */
function firstKeyword(p: IProduction): string | undefined {
  if (p instanceof Terminal) return T.KEYWORDS.includes(p.terminalType.name) ? p.terminalType.name : undefined;
  if (p instanceof NonTerminal) return p.referencedRule.definition[0] && firstKeyword(p.referencedRule.definition[0]);
  if (p instanceof Alternative) return p.definition[0] && firstKeyword(p.definition[0]);
  return undefined;
}

/** The keywords an alternative starts with, as a phrase (`AS OF`, `DRY RUN`, `TYPE`). */
function leadingPhrase(p: IProduction): string | undefined {
  if (!(p instanceof Alternative)) return firstKeyword(p);
  const words: string[] = [];
  for (const q of p.definition) {
    if (!(q instanceof Terminal) || !T.KEYWORDS.includes(q.terminalType.name)) break;
    words.push(q.terminalType.name);
  }
  return words.length ? words.join(' ') : firstKeyword(p);
}

/** Whether the verb takes the clause an alternative starts: by its whole phrase when that names a clause (`AS OF` is not `AS`). */
function takes(verb: VerbName, p: IProduction): boolean {
  const phrase = leadingPhrase(p);
  if (phrase && phrase.includes(' ') && verbTakesClauseNamed(verb, phrase) !== undefined) return verbTakesClauseNamed(verb, phrase)!;
  return verbTakesClause(verb, firstKeyword(p)!);
}

/** `statement` or a rule it reaches only through `clause`: replaced by the per-verb rules. */
const PER_VERB_RULES = new Set(['script', 'statement', 'verb', 'clause']);

/** The statement's leading `letBinding?` (`LET $name =`), which the GBNF's `statement` rule writes before any verb. */
function isLetBinding(p: IProduction): boolean {
  return p instanceof Option && p.definition[0] instanceof NonTerminal && p.definition[0].nonTerminalName === 'letBinding';
}

/**
 * One clause rule per verb with only the clauses it takes: the `clause` alternatives, and inside
 * a keyword-led alternation (`valueClause`, `listClause`, `flagClause`) only the allowed keywords.
 * Rules left with no user are dropped by the caller.
 */
function verbClauseRule(verb: VerbName, clause: Rule): Rule {
  const alternatives: Alternative[] = [];
  for (const alt of (clause.definition[0] as Alternation).definition as Alternative[]) {
    const [p] = alt.definition;
    const body = p instanceof NonTerminal ? p.referencedRule.definition : alt.definition;
    const [head, ...rest] = body;
    if (head instanceof Alternation && head.definition.every((a) => firstKeyword(a) !== undefined)) {
      const kept = head.definition.filter((a) => takes(verb, a));
      if (kept.length === 0) continue;
      if (kept.length === head.definition.length) alternatives.push(alt);
      else alternatives.push(new Alternative({ definition: [new Alternation({ definition: kept }), ...rest] }));
    } else if (verbTakesClause(verb, firstKeyword(p)!)) alternatives.push(alt);
  }
  return new Rule({ name: `${verb.toLowerCase()}Clause`, definition: [new Alternation({ definition: alternatives })] });
}

/** `ENCODE "text"? clause*`: the verb's statement without its `;` (the script places those). */
function verbStatementRule(verb: VerbName, statement: Rule, clauseRule: Rule): Rule {
  const token = T.VERB_TOKENS.find((t) => t.name === verb)!;
  const definition: IProduction[] = [new Terminal({ terminalType: token })];
  for (const p of statement.definition) {
    if (isLetBinding(p) || (p instanceof NonTerminal && p.nonTerminalName === 'verb')) continue;
    if (p instanceof Option && p.definition[0] instanceof Terminal && p.definition[0].terminalType === T.Semicolon) continue;
    if (p instanceof Option) {
      if (verbTakesText(verb)) definition.push(p);
    } else if (p instanceof Repetition) {
      definition.push(new Repetition({ definition: [new NonTerminal({ nonTerminalName: clauseRule.name, referencedRule: clauseRule })] }));
    } else throw new Error('unexpected statement production');
  }
  return new Rule({ name: `${verb.toLowerCase()}Statement`, definition });
}

/**
 * The grammar in llama.cpp's GBNF, for constrained decoding: an LLM sampling under it can only
 * emit text the parser reads, and each verb only with the clauses it takes. Keywords match in any
 * letter case (the printer writes `search` in lower case); statements are separated by `;`.
 * Over-acceptance left: a bare name may be spelt like a keyword (`TYPE where`), and values are
 * not checked against the IR's enums or types.
 */
export function renderGbnf(): string {
  const productions = parser.getGAstProductions();
  const lines = [
    '# Text2Mem DSL grammar in GBNF (llama.cpp) for constrained decoding.',
    '# Generated from src/syntax/grammar.ts and the clause table by scripts/gen-grammar.ts: do not edit.',
    'root ::= ws script ws last-comment?',
    'script ::= ( statement ( ws ";" ws statement )* ( ws ";" )? )?',
    `statement ::= ( ${gbnfName('letBinding')} ws )? ( ${T.VERBS.map((v) => gbnfName(`${v.toLowerCase()}Statement`)).join(' | ')} )`,
  ];
  const rules: Rule[] = [];
  for (const verb of T.VERBS as VerbName[]) {
    const clause = verbClauseRule(verb, productions.clause);
    rules.push(verbStatementRule(verb, productions.statement, clause), clause);
  }
  rules.push(...Object.values(productions).filter((r) => !PER_VERB_RULES.has(r.name)));
  const body = rules.map((r) => `${gbnfName(r.name)} ::= ${gbnfSeq(r.definition, null)}`);
  // Drop the rules no verb reaches (e.g. `flag-clause` when every verb has its own flag list).
  const used = new Set(['root', 'script', 'statement']);
  const refs = (line: string) => line.split('::=')[1].replace(/"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]/g, '').match(/[a-z][a-z-]*/g) ?? [];
  let grew = true;
  for (const l of lines.slice(2)) refs(l).forEach((n) => used.add(n));
  while (grew) {
    grew = false;
    for (const l of body) {
      if (!used.has(l.split(' ::=')[0])) continue;
      for (const n of refs(l)) if (!used.has(n)) { used.add(n); grew = true; }
    }
  }
  lines.push(...body.filter((l) => used.has(l.split(' ::=')[0])));
  lines.push(`keyword ::= ${T.KEYWORDS.map(anyCase).join(' | ')}`, ...GBNF_LEXICAL, '');
  return lines.join('\n');
}

let built: string | undefined;
/** `renderGbnf()`, built at the first call and kept (walking the grammar takes tens of milliseconds: too long for every import). */
export function gbnf(): string {
  return (built ??= renderGbnf());
}
