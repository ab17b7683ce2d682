/**
 * Hover: the documentation of the keyword, field or enum value under the cursor, the IR field
 * it maps to, and a link to the railroad diagram of the grammar rule it belongs to.
 */
import { ENUMS, FIELD_DOCS, KEYWORD_DOCS, enumValueDoc } from './docs.js';
import { ENUMS as LANGUAGE_ENUMS } from '../language/index.js';
import type { IToken } from 'chevrotain';
import { lexer } from '../syntax/tokens.js';
import { endOf, isKeywordToken, startOf, tokenAt, tokenName } from './context.js';
import { ruleOfKeyword } from './rules.js';

export interface HoverInfo {
  /** Markdown. */
  readonly markdown: string;
  /** The hovered span (offsets, end exclusive). */
  readonly from: number;
  readonly to: number;
  /** The grammar rule whose railroad diagram the hover links to. */
  readonly rule?: string;
}

export interface HoverOptions {
  /**
   * Where the railroad diagrams live; the rule name is appended as `#rule`. `null`: no link (an
   * editor with no copy of the diagrams at hand).
   */
  readonly diagramsUrl?: string | null;
}

export const DEFAULT_DIAGRAMS_URL = 'grammar/generated/diagrams.html';

/**
 * The clauses whose value is an enum, by the keyword that introduces the value: how the clause is
 * written, where its value goes in the IR, and the enums it may take (MODE is a Label mode or a
 * Lock mode, by value). Read off the vocabulary's enums (`LAST / NEXT` is introduced by either).
 */
const ENUM_CLAUSES: Readonly<Record<string, { clause: string; path: string; enums: readonly string[] }>> = (() => {
  const out: Record<string, { clause: string; path: string; enums: string[] }> = {};
  for (const [name, spec] of Object.entries(LANGUAGE_ENUMS) as [string, { clause?: string; paths: readonly string[] }][]) {
    if (!spec.clause || !ENUMS[name]) continue;
    for (const clause of spec.clause.split(' / ')) {
      const keyword = clause.split(' ')[0];
      (out[keyword] ??= { clause, path: spec.paths[0], enums: [] }).enums.push(name);
    }
  }
  return out;
})();

const ENUM_VALUES = new Set(Object.values(ENUMS).flat());

/**
 * The keyword that introduces the value `token` (`MODE` for `read_only`, `LAST` for `DAYS`),
 * skipping the other values of a list, `BY` and the count of a relative time range.
 */
function clauseOf(text: string, token: IToken): string | undefined {
  const tokens = lexer.tokenize(text).tokens;
  for (let i = tokens.findIndex((t) => t.startOffset === token.startOffset) - 1; i >= 0; i--) {
    const name = tokenName(tokens[i]);
    if (name === 'Comma' || name === 'BY' || name === 'NumberLiteral' || name === 'Identifier') continue;
    if (!isKeywordToken(tokens[i])) return undefined;
    // `INCLUDE id, text`: an enum value may be a keyword too; the clause is further back.
    if (!ENUM_CLAUSES[name] && ENUM_VALUES.has(tokens[i].image.toLowerCase())) continue;
    return name;
  }
  return undefined;
}

/** "Value of MODE (`args.mode`)": the clause as written and the IR field the value lands in. */
function clauseEnumDoc(text: string, token: IToken): string | undefined {
  const spec = ENUM_CLAUSES[clauseOf(text, token) ?? ''];
  if (!spec) return undefined;
  const enumName = spec.enums.find((e) => ENUMS[e]?.includes(token.image) || ENUMS[e]?.includes(token.image.toLowerCase()));
  if (!enumName) return undefined;
  const value = ENUMS[enumName].includes(token.image) ? token.image : token.image.toLowerCase();
  const doc = enumValueDoc(enumName, value);
  return `Value of ${spec.clause} (\`${spec.path}\`): one of ${ENUMS[enumName].map((v) => `\`${v}\``).join(', ')}.${doc ? `\n\n${doc}` : ''}`;
}

function enumDoc(word: string): string | undefined {
  const fields = Object.entries(ENUMS).filter(([, values]) => values.includes(word)).map(([field]) => `\`${field}\``);
  return fields.length ? `Value of ${fields.join(', ')}.` : undefined;
}

export function getHover(text: string, offset: number, options: HoverOptions = {}): HoverInfo | undefined {
  const token = tokenAt(text, offset);
  if (!token) return undefined;
  const from = startOf(token);
  const to = endOf(token);
  const diagrams = options.diagramsUrl === undefined ? DEFAULT_DIAGRAMS_URL : options.diagramsUrl;
  // A value after its clause (`MODE read_only`, `THEN demote`, `INCLUDE text`), even one that is
  // also a keyword, is documented as that clause's value.
  const value = clauseEnumDoc(text, token);
  if (value) {
    const field = FIELD_DOCS[token.image] ?? FIELD_DOCS[token.image.toLowerCase()];
    return { markdown: [`**${token.image}**${field ? ` — ${field}` : ''}`, value].join('\n\n'), from, to };
  }
  if (isKeywordToken(token)) {
    const word = token.image.toUpperCase();
    const doc = KEYWORD_DOCS[word];
    if (!doc) return undefined;
    const rule = ruleOfKeyword(word);
    const lines = [`**${word}** — ${doc.summary}`];
    if (doc.ir) lines.push(`IR: \`${doc.ir}\``);
    if (rule && diagrams !== null) lines.push(`[Syntax diagram: ${rule}](${diagrams}#${rule})`);
    return { markdown: lines.join('\n\n'), from, to, rule };
  }
  if (tokenName(token) === 'Identifier') {
    const word = token.image;
    const field = FIELD_DOCS[word] ?? FIELD_DOCS[word.toLowerCase()];
    const value = enumDoc(word) ?? enumDoc(word.toLowerCase());
    if (!field && !value) return undefined;
    const lines = [`**${word}**${field ? ` — ${field}` : ''}`];
    if (value) lines.push(value);
    return { markdown: lines.join('\n\n'), from, to };
  }
  return undefined;
}
