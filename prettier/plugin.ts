/**
 * A prettier 3 plugin for Text2Mem scripts (`.t2m`). Formatting is the project's printer
 * (`print` through `formatText`), so prettier, `t2m fmt` and the playground agree byte for
 * byte. The printer is canonical: prettier's `printWidth`/`tabWidth` options do not apply.
 * Comments are kept by the printer itself, so the AST handed to prettier carries none.
 */
import type { Doc, Parser, Printer, SupportLanguage } from 'prettier';
import { doc } from 'prettier';
import { format } from '../src/services/format.js';

/** The whole script as one node: prettier only needs its canonical text. */
export interface T2mRoot {
  readonly type: 't2m-script';
  readonly text: string;
  readonly formatted: string;
}

export const languages: SupportLanguage[] = [
  {
    name: 'Text2Mem',
    parsers: ['t2m'],
    extensions: ['.t2m'],
    aliases: ['t2m', 'text2mem'],
    vscodeLanguageIds: ['t2m'],
    linguistLanguageId: 0,
  },
];

/** Prettier reports a parser error with its `loc` as a code frame, like its own parsers do. */
class T2mSyntaxError extends SyntaxError {
  constructor(message: string, readonly loc: { start: { line: number; column: number }; end?: { line: number; column: number } }) {
    super(message);
  }
}

export const parsers: Record<string, Parser<T2mRoot>> = {
  t2m: {
    astFormat: 't2m',
    parse(text: string): T2mRoot {
      const result = format(text);
      if (result.text === undefined) {
        const errors = result.diagnostics.filter((d) => d.severity === 'error');
        const first = errors[0];
        const where = first?.range;
        const more = errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length > 2 ? 's' : ''})` : '';
        throw new T2mSyntaxError(
          `${first?.message ?? 'the script does not parse'}${more}${where ? ` (${where.start.line}:${where.start.column})` : ''}`,
          where ? { start: { line: where.start.line, column: where.start.column }, end: { line: where.end.line, column: where.end.column } } : { start: { line: 1, column: 1 } },
        );
      }
      return { type: 't2m-script', text, formatted: result.text };
    },
    locStart: () => 0,
    locEnd: (node: T2mRoot) => node.text.length,
  },
};

export const printers: Record<string, Printer<T2mRoot>> = {
  t2m: {
    print(path): Doc {
      // Lines joined by hardlines rather than one string with "\n", so prettier's line
      // bookkeeping (cursor offsets, range formatting) stays right.
      return doc.builders.join(doc.builders.hardline, path.node.formatted.split('\n'));
    },
  },
};

const plugin = { languages, parsers, printers };
export default plugin;
