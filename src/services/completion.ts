/**
 * Completion: verbs at the start of a statement, keywords elsewhere, enum values after the
 * keyword that takes them, condition fields after `WHERE`/`AND`, and — from the store — the tags,
 * types and subjects that already exist, after `TAGS`/`HAS`, `TYPE` and `SUBJECT`.
 */
import type { IToken } from 'chevrotain';
import { CONDITION_OPERATORS, CONDITION_ORDER, KEYWORDS, OPS, VERB_NAMES as VERBS } from '../language/index.js';
import { UpdateSet } from '../ir/schema.js';
import { ENUMS, FIELD_DOCS, KEYWORD_DOCS, enumValueDoc } from './docs.js';
import { nextWords, startWords } from '../syntax/next.js';
import { cursorContext, endOf, isKeywordToken, startOf, tokenName } from './context.js';

export type CompletionKind = 'keyword' | 'verb' | 'field' | 'enum' | 'tag' | 'type' | 'subject';

export interface CompletionItem {
  readonly label: string;
  readonly kind: CompletionKind;
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  /** Text to insert when it differs from the label (quoted store values). */
  readonly insertText?: string;
  /** The span the item replaces: the word (or string) being typed. */
  readonly from: number;
  readonly to: number;
}

/** What the current store holds, so completion can offer it. */
export interface StoreVocabulary {
  readonly tags: readonly string[];
  readonly types: readonly string[];
  readonly subjects: readonly string[];
}

const EMPTY_VOCABULARY: StoreVocabulary = { tags: [], types: [], subjects: [] };

/**
 * Fields a `WHERE` condition can test, in canonical order: the vocabulary's filter keys by the
 * field each is written with (`has_tags` → tags, `expire_before` → expires), then `search`.
 */
export const CONDITION_FIELDS: readonly string[] = [...new Set([
  ...CONDITION_ORDER.map((key) => Object.values(CONDITION_OPERATORS).find((o) => o.key === key)?.field ?? key),
  'search',
])];
/** The doc of a condition field (`expires` is the memory's expiry here, not a lock policy's). */
const conditionDoc = (f: string) => FIELD_DOCS[f === 'expires' ? 'expire' : f];

/** Keys offered inside `{ … }` after these keywords. */
const OBJECT_KEYS: Readonly<Record<string, readonly string[]>> = {
  FACETS: ['subject', 'time', 'location', 'topic'],
  POLICY: ['allow', 'deny', 'reviewers', 'expires'],
};

const VERB_SET = new Set<string>(VERBS);

/** Fields `SET` (and `WITH`) can name, per verb. */
function setKeys(verb: string | undefined): readonly string[] {
  if (verb === 'PROMOTE' || verb === 'DEMOTE') return ['weight', 'weight_delta'];
  if (verb === 'UPDATE') return Object.keys(UpdateSet.shape);
  return Object.keys(FIELD_DOCS);
}

function quote(value: string): string {
  return JSON.stringify(value);
}

/** The keyword that governs the cursor: the nearest keyword going back over values and commas. */
function governingKeyword(before: readonly IToken[]): { keyword?: string; index: number } {
  for (let i = before.length - 1; i >= 0; i--) {
    const t = before[i];
    if (isKeywordToken(t)) return { keyword: t.image.toUpperCase(), index: i };
    const name = tokenName(t);
    if (name === 'LBrace' || name === 'RBrace' || name === 'LBracket' || name === 'RBracket' || name === 'Colon') return { index: i };
  }
  return { index: -1 };
}

/** The keyword before an unclosed `{` the cursor is in, if any. */
function enclosingObject(before: readonly IToken[]): { keyword?: string; afterKey: boolean } | undefined {
  let depth = 0;
  for (let i = before.length - 1; i >= 0; i--) {
    const name = tokenName(before[i]);
    if (name === 'RBrace') depth++;
    else if (name === 'LBrace') {
      if (depth === 0) {
        const last = tokenName(before[before.length - 1]);
        return { keyword: before[i - 1]?.image.toUpperCase(), afterKey: last === 'Colon' || (last !== 'LBrace' && last !== 'Comma') };
      }
      depth--;
    }
  }
  return undefined;
}

/**
 * The tokens of the statement the cursor is in: from the last verb (or LET) that starts a line
 * outside brackets, as the parser resumes after a missing `;`.
 */
function currentStatement(text: string, before: readonly IToken[]): readonly IToken[] {
  let start = 0;
  let depth = 0;
  for (let i = 0; i < before.length; i++) {
    const t = before[i];
    const name = tokenName(t);
    if (name === 'LBracket' || name === 'LBrace') depth++;
    else if ((name === 'RBracket' || name === 'RBrace') && depth > 0) depth--;
    else if (i > 0 && depth === 0 && (VERB_SET.has(t.image.toUpperCase()) || name === 'LET') && text.slice(endOf(before[i - 1]), startOf(t)).includes('\n')) start = i;
  }
  return before.slice(start);
}

export function getCompletions(text: string, offset: number, vocabulary: StoreVocabulary = EMPTY_VOCABULARY): CompletionItem[] {
  const ctx = cursorContext(text, offset);
  if (ctx.inComment) return [];
  const token = ctx.token;
  const inString = tokenName(token) === 'StringLiteral' || tokenName(token) === 'BadString';
  const isWord = !!token && (tokenName(token) === 'Identifier' || isKeywordToken(token) || ['True', 'False', 'Null'].includes(tokenName(token)));
  // A finished string or number right before the cursor: nothing is being typed.
  if (token && !inString && !isWord) return [];
  if (inString && token && offset === endOf(token) && token.image.length > 1 && token.image.endsWith('"')) return [];
  const from = token ? startOf(token) : offset;
  const to = token ? Math.max(offset, inString ? endOf(token) : offset) : offset;
  const prefix = token ? text.slice(from, offset).replace(/^"/, '').toLowerCase() : '';
  const items: CompletionItem[] = [];
  const add = (label: string, kind: CompletionKind, extra: Partial<CompletionItem> = {}) => {
    if (!label.toLowerCase().startsWith(prefix)) return;
    // One entry per word: keywords are case-insensitive, so `SEARCH` after the field `search` is the same word twice.
    if (items.some((i) => i.label.toLowerCase() === label.toLowerCase() && (i.kind === kind || i.kind === 'field' || kind === 'keyword'))) return;
    items.push({ label, kind, from, to, ...extra });
  };
  const addValues = (values: readonly string[], kind: CompletionKind, detail: string) => {
    for (const v of values) add(v, kind, { detail, insertText: quote(v) });
  };

  const before = ctx.before;
  const verb = before[0] && VERB_SET.has(before[0].image.toUpperCase()) ? before[0].image.toUpperCase() : undefined;
  if (before.length === 0) {
    for (const v of VERBS) add(v, 'verb', { detail: 'verb', documentation: KEYWORD_DOCS[v]?.summary });
    return items;
  }

  const object = enclosingObject(before);
  if (object) {
    if (!object.afterKey && !inString) {
      for (const key of OBJECT_KEYS[object.keyword ?? ''] ?? Object.keys(FIELD_DOCS)) add(key, 'field', { detail: 'field', documentation: FIELD_DOCS[key] });
    } else if (object.keyword === 'POLICY') {
      for (const op of OPS) add(op, 'enum', { detail: 'op' });
    }
    return items;
  }

  const last = before[before.length - 1];
  const { keyword, index } = governingKeyword(before);
  const onlyValuesSince = before.slice(index + 1).every((t) => ['StringLiteral', 'Comma', 'Identifier'].includes(tokenName(t)));
  const valueSlot = keyword !== undefined && onlyValuesSince
    && (index === before.length - 1 || tokenName(last) === 'Comma');

  if (valueSlot) {
    switch (keyword) {
      case 'TAGS':
      case 'HAS':
        addValues(vocabulary.tags, 'tag', 'tag in the store');
        if (inString) return items;
        break;
      case 'TYPE':
        addValues(vocabulary.types, 'type', 'type in the store');
        if (inString) return items;
        break;
      case 'SUBJECT':
        addValues(vocabulary.subjects, 'subject', 'subject in the store');
        if (inString) return items;
        break;
      case 'MODE':
        for (const m of verb === 'LABEL' ? ENUMS.label_mode : verb === 'LOCK' ? ENUMS.lock_mode : [...ENUMS.label_mode, ...ENUMS.lock_mode]) add(m, 'enum', { detail: 'mode', documentation: enumValueDoc(verb === 'LOCK' || ENUMS.lock_mode.includes(m) ? 'lock_mode' : 'label_mode', m) });
        return items;
      case 'THEN':
        for (const v of ENUMS.on_expire) add(v, 'enum', { detail: 'on expire', documentation: enumValueDoc('on_expire', v) });
        return items;
      case 'STRATEGY':
        for (const v of verb === 'MERGE' ? ENUMS.merge_strategy : ENUMS.split_strategy) add(v, 'enum', { detail: 'strategy', documentation: enumValueDoc(verb === 'MERGE' ? 'merge_strategy' : 'split_strategy', v) });
        return items;
      case 'BY':
        if (before[index - 1]?.image.toUpperCase() === 'ORDER') {
          for (const v of ENUMS.order_by) add(v, 'enum', { detail: 'order', documentation: enumValueDoc('order_by', v) });
          return items;
        }
        for (const v of ENUMS.split_strategy) add(v.replace(/^by_/, ''), 'enum', { detail: 'split strategy' });
        return items;
      case 'STAGE':
        for (const v of ENUMS.stage) add(v, 'enum', { detail: 'stage' });
        return items;
      case 'INCLUDE':
        for (const v of ENUMS.include) add(v, 'enum', { detail: 'field' });
        return items;
      case 'SET':
      case 'WITH':
        for (const f of setKeys(verb)) add(f, 'field', { detail: 'field', documentation: FIELD_DOCS[f] });
        return items;
      case 'WHERE':
      case 'AND':
        for (const f of CONDITION_FIELDS) add(f, 'field', { detail: 'condition', documentation: conditionDoc(f) });
        break;
      default:
        break;
    }
  }
  // `LAST 7 |` → units.
  if (tokenName(last) === 'NumberLiteral' && ['LAST', 'NEXT'].includes(before[before.length - 2]?.image.toUpperCase() ?? '')) {
    for (const u of ENUMS.time_unit) add(u.toUpperCase(), 'enum', { detail: 'time unit' });
    return items;
  }
  if (inString) return items;
  // The grammar's own "what may come next", narrowed to the verb's clauses; all keywords only
  // where the statement so far does not parse.
  const next = nextWords(currentStatement(text, before));
  if (next.parsed) {
    for (const k of next.continuations) add(startWords(k), 'keyword', { documentation: KEYWORD_DOCS[k]?.summary });
    for (const c of next.clauses) add(startWords(c), 'keyword', { documentation: KEYWORD_DOCS[c.split(' ')[0]]?.summary });
    if (next.end) add(';', 'keyword', { detail: 'end of the statement' });
    return items;
  }
  for (const k of KEYWORDS) {
    if (VERB_SET.has(k)) continue;
    add(k, 'keyword', { documentation: KEYWORD_DOCS[k]?.summary });
  }
  return items;
}
