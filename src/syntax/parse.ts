/**
 * `parse`: DSL text → `Script` AST plus diagnostics. Never throws. The stages, one file each:
 * `lex` (tokens and the lexer's repairs), `parseStatements` in recover.ts (the grammar run one
 * statement at a time with recovery and syntax diagnostics, each CST turned into AST by
 * cstToAst.ts), and `attachComments` (comments.ts).
 */
import type { Diagnostic, Range } from '../diagnostics/diagnostic.js';
import type * as A from './ast.js';
import { attachComments } from './comments.js';
import { lex } from './lex.js';
import { parseStatements } from './recover.js';

export { decodeString } from './cstToAst.js';
export { tokenize, tokenRange, type Token, type TokenKind } from './lex.js';

export interface ParseResult {
  readonly script: A.Script;
  readonly diagnostics: Diagnostic[];
}

const ZERO: Range = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };

/** Parses a DSL script. Never throws: problems come back as diagnostics next to a partial tree. */
export function parse(text: string): ParseResult {
  try {
    return parseUnsafe(text);
  } catch (err) {
    // Only a bug can get here; report it as a diagnostic rather than crash an editor.
    return {
      script: { kind: 'Script', statements: [], trailingComments: [], loc: ZERO },
      diagnostics: [{ code: 'internal-error', severity: 'error', message: `Internal parser error: ${(err as Error).message}` }],
    };
  }
}

function parseUnsafe(text: string): ParseResult {
  const { tokens, comments, diagnostics, muted } = lex(text);
  const lexical = diagnostics.length;
  const raw = parseStatements(tokens, diagnostics);

  // Parse errors inside a span the lexer already explained are not second mistakes.
  // (`muted` is in source order and its spans do not overlap: a binary search, so that a script
  // with thousands of broken strings stays linear.)
  const isMuted = (d: Diagnostic) => {
    const at = d.range?.start.offset;
    if (at === undefined) return false;
    let lo = 0;
    let hi = muted.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (muted[mid].end <= at) lo = mid + 1;
      else if (muted[mid].start > at) hi = mid - 1;
      else return true;
    }
    return false;
  };
  const kept = diagnostics.filter((d, k) => k < lexical || !isMuted(d));
  diagnostics.length = 0;
  diagnostics.push(...kept);
  const script = attachComments(text, raw, comments);
  // Source order, whatever stage found them (lexer first, then parser).
  const at = (d: Diagnostic) => d.range?.start.offset ?? Infinity;
  diagnostics.sort((a, b) => at(a) - at(b));
  return { script, diagnostics };
}
