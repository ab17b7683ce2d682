/**
 * `print`: Script AST → canonical DSL text, the only formatter (CLI `fmt`, JSON → DSL, prettier
 * plugin, playground). Canonical means each statement as its IR converts back (`irToAst`), so
 * DSL → IR → DSL is the identity on printed text; the layout is the printer's (src/syntax/print.ts).
 */
import type * as A from '../syntax/ast.js';
import { printTree, type PrintOptions as TreeOptions } from '../syntax/print.js';
import type { IR } from '../ir/schema.js';
import { astToIr } from './astToIr.js';
import { irToAst } from './irToAst.js';

export type PrintOptions = Omit<TreeOptions, 'rewrite'>;

/**
 * The statement in canonical spelling and order: the one `irToAst` writes for its IR, so that
 * DSL → IR → DSL gives back printed text unchanged (`tags HAS "a" AND tags HAS "b"` is
 * `tags HAS "a", "b"`, two SETs are one, `WITH meta.actor = v` is `AS v`). The IR has no
 * comments, so a statement with comments inside it keeps its clauses (the printer sorts them), and so does
 * one that does not convert cleanly (its errors are for the checker to report, not to rewrite).
 */
export function canonicalStatement(s: A.Statement): A.Statement {
  const last = s.clauses[s.clauses.length - 1];
  const inner = s.clauses.some((c) => c.leadingComments?.length || (c.trailingComment && c !== last));
  if (!inner && !(last?.trailingComment && s.trailingComment)) {
    const converted = astToIr({ kind: 'Script', statements: [s], trailingComments: [], loc: s.loc });
    if (converted.diagnostics.length === 0) {
      const rebuilt = irToAst(converted.irs[0] as IR);
      return { ...s, binding: rebuilt.binding, text: rebuilt.text, clauses: rebuilt.clauses, trailingComment: s.trailingComment ?? last?.trailingComment };
    }
  }
  return s;
}

/** Canonical DSL text for a script; ends with a newline unless the script is empty. */
export function print(script: A.Script, options: PrintOptions = {}): string {
  return printTree(script, { ...options, rewrite: canonicalStatement });
}
