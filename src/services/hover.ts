/**
 * Hover: the documentation of the keyword, field or enum value under the cursor, the IR field
 * it maps to, and a link to the railroad diagram of the grammar rule it belongs to.
 */
import { ENUMS, FIELD_DOCS, KEYWORD_DOCS } from './docs.ts';
import { endOf, isKeywordToken, startOf, tokenAt, tokenName } from './context.ts';
import { ruleOfKeyword } from './rules.ts';

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
  /** Where the railroad diagrams live; the rule name is appended as `#rule`. */
  readonly diagramsUrl?: string;
}

export const DEFAULT_DIAGRAMS_URL = 'grammar/generated/diagrams.html';

function enumDoc(word: string): string | undefined {
  const fields = Object.entries(ENUMS).filter(([, values]) => values.includes(word)).map(([field]) => `\`${field}\``);
  return fields.length ? `Value of ${fields.join(', ')}.` : undefined;
}

export function getHover(text: string, offset: number, options: HoverOptions = {}): HoverInfo | undefined {
  const token = tokenAt(text, offset);
  if (!token) return undefined;
  const from = startOf(token);
  const to = endOf(token);
  const diagrams = options.diagramsUrl ?? DEFAULT_DIAGRAMS_URL;
  if (isKeywordToken(token)) {
    const word = token.image.toUpperCase();
    const doc = KEYWORD_DOCS[word];
    if (!doc) return undefined;
    const rule = ruleOfKeyword(word);
    const lines = [`**${word}** — ${doc.summary}`];
    if (doc.ir) lines.push(`IR: \`${doc.ir}\``);
    if (rule) lines.push(`[Syntax diagram: ${rule}](${diagrams}#${rule})`);
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
