/**
 * Artefacts generated from the grammar (never edited by hand): railroad diagrams (HTML, fully
 * self-contained so it works offline and the playground can serve it), an EBNF listing, and the
 * llama.cpp GBNF grammar for constrained decoding (src/syntax/gbnf.ts, which the library builds
 * itself). `scripts/gen-grammar.ts` writes them to `grammar/generated/`; `test/grammar` fails when
 * the committed copies are stale.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Alternation, Alternative, NonTerminal, Option, Repetition, RepetitionMandatory, RepetitionMandatoryWithSeparator,
  RepetitionWithSeparator, Rule, Terminal, createSyntaxDiagramsCode, type IProduction, type TokenType,
} from 'chevrotain';
import { SOFT_KEYWORDS } from '../src/language/index.js';
import { renderGbnf } from '../src/syntax/gbnf.js';
import { parser } from '../src/syntax/grammar.js';
import * as T from '../src/syntax/tokens.js';

/** chevrotain's package folder (its `exports` hide package.json, so walk up from the entry). */
function chevrotainDir(): string {
  let dir = dirname(fileURLToPath(import.meta.resolve('chevrotain')));
  while (!existsSync(join(dir, 'diagrams', 'diagrams.css'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('chevrotain diagrams folder not found');
    dir = up;
  }
  return dir;
}

/** Chevrotain's diagram page with its CSS and scripts inlined instead of loaded from a CDN. */
export function renderDiagrams(): string {
  const diagramsDir = join(chevrotainDir(), 'diagrams');
  const html = createSyntaxDiagramsCode(parser.getSerializedGastProductions(), { resourceBase: 'LOCAL/', css: 'LOCAL/diagrams.css' });
  const read = (rel: string) => readFileSync(join(diagramsDir, rel), 'utf8');
  return html
    .replace("<link rel='stylesheet' href='LOCAL/diagrams.css'>", () => `<style>\n${read('diagrams.css')}\n</style>`)
    .replace(/<script src='LOCAL\/([^']+)'><\/script>/g, (_m, rel: string) => `<script>\n${read(rel)}\n</script>`)
    .replace('<!DOCTYPE html>', '<!DOCTYPE html>\n<title>Text2Mem DSL grammar</title>');
}

function terminalName(t: TokenType): string {
  if (t === T.Keyword) return 'Keyword';
  if (t === T.SoftKeyword) return `( ${SOFT_KEYWORDS.map((k) => `'${k}'`).join(' | ')} )`;
  if (T.KEYWORDS.includes(t.name)) return `'${t.name}'`;
  if (t === T.True || t === T.False || t === T.Null) return `'${t.name.toLowerCase()}'`;
  if (typeof t.LABEL === 'string' && t.LABEL.startsWith("'")) return t.LABEL;
  return t.name;
}

function alternatives(p: Alternation): string[] {
  return p.definition.map((a) => seq((a as Alternative).definition));
}

function needsParens(p: IProduction[]): boolean {
  return p.length !== 1 || p[0] instanceof Alternation;
}

function seq(defs: IProduction[]): string {
  return defs.map(prod).join(' ') || '/* nothing */';
}

function group(defs: IProduction[], suffix: string): string {
  const body = seq(defs);
  return needsParens(defs) ? `( ${body} )${suffix}` : `${body}${suffix}`;
}

function prod(p: IProduction): string {
  if (p instanceof Terminal) return terminalName(p.terminalType);
  if (p instanceof NonTerminal) return p.nonTerminalName;
  if (p instanceof Option) return group(p.definition, '?');
  if (p instanceof Repetition) return group(p.definition, '*');
  if (p instanceof RepetitionMandatory) return group(p.definition, '+');
  if (p instanceof RepetitionMandatoryWithSeparator) return `${group(p.definition, '')} ( ${terminalName(p.separator)} ${group(p.definition, '')} )*`;
  if (p instanceof RepetitionWithSeparator) return `( ${group(p.definition, '')} ( ${terminalName(p.separator)} ${group(p.definition, '')} )* )?`;
  if (p instanceof Alternation) return `( ${alternatives(p).join(' | ')} )`;
  if (p instanceof Alternative) return seq(p.definition);
  throw new Error(`unknown GAST production ${p.constructor.name}`);
}

function ruleBody(r: Rule): string {
  // A rule that is one alternation lists its alternatives one per line.
  if (r.definition.length === 1 && r.definition[0] instanceof Alternation) {
    return alternatives(r.definition[0]).join('\n    | ');
  }
  return seq(r.definition);
}

const LEXICAL: ReadonlyArray<[string, RegExp | string]> = [
  ['StringLiteral', T.STRING_PATTERN],
  ['NumberLiteral', T.NUMBER_PATTERN],
  ['DateTimeLiteral', T.DATETIME_PATTERN],
  ['DurationLiteral', T.DURATION_PATTERN],
  ['Identifier', T.Identifier.PATTERN as RegExp],
  ['Reference', T.Reference.PATTERN as RegExp],
  ['Comment', T.Comment.PATTERN as RegExp],
];

/** The grammar as EBNF (W3C style: `?`, `*`, `+`, quoted keywords are case-insensitive). */
export function renderEbnf(): string {
  const lines = [
    '/* Text2Mem DSL grammar. Generated from src/syntax/grammar.ts by scripts/gen-grammar.ts: do not edit. */',
    '/* Keywords (quoted, upper-case) match case-insensitively. Keyword = any keyword. */',
    '',
  ];
  for (const r of Object.values(parser.getGAstProductions())) lines.push(`${r.name} ::= ${ruleBody(r)}`, '');
  lines.push('/* Lexical rules (JavaScript regular expressions). Comments and white space are skipped. */', '');
  for (const [name, pattern] of LEXICAL) lines.push(`${name} ::= /${typeof pattern === 'string' ? pattern : pattern.source}/`);
  lines.push(`Keyword ::= ${T.KEYWORDS.map((k) => `'${k}'`).join(' | ')}`, '');
  return lines.join('\n');
}

export const GENERATED_DIR = join(import.meta.dirname, '..', 'grammar', 'generated');
export const GENERATED_FILES: ReadonlyArray<[string, () => string]> = [
  ['diagrams.html', renderDiagrams],
  ['grammar.ebnf', renderEbnf],
  ['grammar.gbnf', renderGbnf],
];
