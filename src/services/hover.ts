/**
 * Hover: the documentation of the keyword, field or enum value under the cursor, the IR field
 * it maps to, and a link to the railroad diagram of the grammar rule it belongs to.
 */
import { ENUMS, FIELD_DOCS, KEYWORD_DOCS, enumValueDoc } from './docs.js';
import { CONDITION_OPERATORS, ENUMS as LANGUAGE_ENUMS, type FieldOperator } from '../language/index.js';
import type { CstNode, IToken } from 'chevrotain';
import { lexer } from '../syntax/tokens.js';
import { VERB_SET } from '../syntax/lex.js';
import { nextWords, placeOf } from '../syntax/next.js';
import { decodeString } from '../syntax/nodes.js';
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

/** The operator a field condition's CST node holds, by the token (or rule) that writes it. */
const OPERATOR_OF_CHILD: Readonly<Record<string, FieldOperator>> = {
  Equals: '=', HAS: 'HAS', GreaterEq: '>=', LessEq: '<=', BEFORE: 'BEFORE', AFTER: 'AFTER', timeRange: 'RANGE',
};

function fieldDoc(word: string): string | undefined {
  return FIELD_DOCS[word] ?? FIELD_DOCS[word.toLowerCase()] ?? (word.toLowerCase() === 'expires' ? FIELD_DOCS.expire : undefined);
}

/**
 * A field name documented by the place it stands in, as the grammar reads the statement: the
 * field of a WHERE condition is the filter's (`tags HAS` → `target.filter.has_tags`, `time IN …`
 * → `target.filter.time_range`), a SET key is the verb's argument, a WITH path is the path itself.
 */
function placeDoc(text: string, token: IToken): { markdown: string; rule: string } | undefined {
  const tokens = lexer.tokenize(text).tokens;
  const at = tokens.findIndex((t) => t.startOffset === token.startOffset);
  if (at < 0) return undefined;
  let start = at;
  while (start > 0 && tokens[start - 1].tokenType.name !== 'Semicolon') start--;
  let end = at;
  while (end < tokens.length && tokens[end].tokenType.name !== 'Semicolon') end++;
  const statement = tokens.slice(start, end);
  if (!statement.length || !(VERB_SET.has(statement[0].tokenType) || statement[0].tokenType.name === 'LET')) return undefined;
  const word = token.tokenType.name === 'StringLiteral' ? decodeString(token.image) : token.image;
  const name = word.toLowerCase();
  const doc = fieldDoc(word);
  const head = `**${word}**${doc ? ` — ${doc}` : ''}`;
  const condition = (written?: FieldOperator, facets = false) => {
    // Before its operator is typed, a field is documented by the operator it takes (`tags` → HAS).
    const operator = written ?? (Object.keys(CONDITION_OPERATORS) as FieldOperator[]).find((o) => CONDITION_OPERATORS[o].field === name);
    // An operator written on a field it does not apply to (`time BEFORE …`) fills no filter key of that field.
    const applies = operator && CONDITION_OPERATORS[operator].field;
    if (applies && applies !== name && !(applies === 'expires' && name === 'expire')) {
      return { markdown: [head, `Condition of WHERE: ${operator} applies to \`${applies}\`, not \`${name}\`; \`${name} = value\` sets \`target.filter.${name}\``].join('\n\n'), rule: 'fieldCondition' };
    }
    const path = facets ? 'target.filter.facets' : `target.filter.${(operator && CONDITION_OPERATORS[operator].key) ?? name}`;
    return { markdown: [head, `Condition of WHERE${operator && operator !== '=' ? ` (${operator})` : ''}: \`${path}\``].join('\n\n'), rule: 'fieldCondition' };
  };
  const place = placeOf(statement, token);
  const inCondition = place && place.length >= 2 && place[place.length - 1].node.name === 'fieldName' && place[place.length - 2].node.name === 'fieldCondition';
  if (!inCondition && name !== 'search' && nextWords(statement.slice(0, at - start)).conditionField) {
    // A condition not finished yet (`WHERE tags|`) is not in the parser's tree as one: where the
    // grammar expects a condition's field, the word is one.
    return condition();
  }
  if (!place || place.length < 2) return undefined;
  const { node, key } = place[place.length - 1];
  const parent: CstNode = place[place.length - 2].node;
  if (node.name === 'fieldName' && parent.name === 'fieldCondition') {
    if (key === 'subField') return { markdown: [head, `Condition on one facet: \`target.filter.facets.${name}\``].join('\n\n'), rule: 'fieldCondition' };
    const written = Object.keys(parent.children).map((k) => OPERATOR_OF_CHILD[k] ?? (k === 'NOT' ? 'NOT HAS' : undefined)).find((o) => o !== undefined);
    return condition(written, parent.children.subField !== undefined);
  }
  if (node.name === 'key' && parent.name === 'assignment') {
    const verb = statement.find((t) => VERB_SET.has(t.tokenType))?.tokenType.name;
    const path = verb === 'UPDATE' ? `args.set.${word}` : `args.${word}`;
    return { markdown: [head, `Set by SET: \`${path}\``].join('\n\n'), rule: 'setClause' };
  }
  if (node.name === 'key' && parent.name === 'withClause') {
    const keys = (parent.children.key ?? []) as CstNode[];
    const upTo = keys.findIndex((k) => k === node);
    const path = keys.slice(0, upTo + 1).map((k) => Object.values(k.children).flat().map((t) => ('image' in t ? t.image : '')).join(''));
    return { markdown: [head, `Set by WITH: \`${path.join('.')}\``].join('\n\n'), rule: 'withClause' };
  }
  return undefined;
}

export function getHover(text: string, offset: number, options: HoverOptions = {}): HoverInfo | undefined {
  const token = tokenAt(text, offset);
  if (!token) return undefined;
  const from = startOf(token);
  const to = endOf(token);
  const diagrams = options.diagramsUrl === undefined ? DEFAULT_DIAGRAMS_URL : options.diagramsUrl;
  // A field name where the grammar reads one (a WHERE condition's field, a SET or WITH key), even
  // one that is also a keyword or an enum value (`tags`, `time`, `weight`), is that place's field.
  const place = isKeywordToken(token) || ['Identifier', 'StringLiteral', 'True', 'False', 'Null'].includes(tokenName(token)) ? placeDoc(text, token) : undefined;
  if (place) {
    const lines = [place.markdown];
    if (diagrams !== null) lines.push(`[Syntax diagram: ${place.rule}](${diagrams}#${place.rule})`);
    return { markdown: lines.join('\n\n'), from, to, rule: place.rule };
  }
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
