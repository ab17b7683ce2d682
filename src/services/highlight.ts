/**
 * Syntax highlighting data for editors: a Monarch tokenizer and a language configuration built
 * from the grammar's own token list, so highlighting never drifts from the lexer. Plain data,
 * no Monaco import (Monaco's `setMonarchTokensProvider` takes it as is).
 */
import { KEYWORDS, VERB_NAMES as VERBS } from '../language/index.js';

const SOURCE = (re: RegExp): RegExp => new RegExp(re.source);

export function monarchLanguage(): Record<string, unknown> {
  const verbs = new Set(VERBS.map((v) => v.toLowerCase()));
  return {
    ignoreCase: true,
    defaultToken: '',
    verbs: [...verbs],
    keywords: KEYWORDS.map((k) => k.toLowerCase()).filter((k) => !verbs.has(k)),
    constants: ['true', 'false', 'null'],
    tokenizer: {
      root: [
        [/#.*$/, 'comment'],
        [SOURCE(/\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/), 'number.date'],
        [SOURCE(/P(?=\d|T\d)(?:\d+Y)?(?:\d+M)?(?:\d+W)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?/), 'number.duration'],
        [/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/, 'number'],
        [/"/, { token: 'string.quote', next: '@string' }],
        [/[A-Za-z_][A-Za-z0-9_]*/, { cases: { '@verbs': 'keyword.verb', '@keywords': 'keyword', '@constants': 'constant', '@default': 'identifier' } }],
        [/[{}[\]]/, '@brackets'],
        [/>=|<=|=/, 'operator'],
        [/[;,:.]/, 'delimiter'],
      ],
      string: [
        [/[^\\"]+/, 'string'],
        [/\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/, 'string.escape'],
        [/\\./, 'string.escape.invalid'],
        [/"/, { token: 'string.quote', next: '@pop' }],
      ],
    },
  };
}

export function languageConfiguration(): Record<string, unknown> {
  return {
    comments: { lineComment: '#' },
    brackets: [['{', '}'], ['[', ']']],
    autoClosingPairs: [
      { open: '{', close: '}' },
      { open: '[', close: ']' },
      { open: '"', close: '"', notIn: ['string', 'comment'] },
    ],
    surroundingPairs: [{ open: '"', close: '"' }, { open: '{', close: '}' }, { open: '[', close: ']' }],
  };
}
