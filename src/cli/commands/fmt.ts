/** `t2m fmt <file> [--check|--write]`: print a DSL script in canonical form (the printer's). */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { displayName, printDiagnostics, readSource } from '../input.ts';

export function fmtCommand(program: Command): void {
  program
    .command('fmt')
    .description('format a DSL script canonically (prints it, or checks/rewrites the file)')
    .argument('<file>', 'DSL file, or - for stdin')
    .option('--check', 'exit 1 if the file is not canonically formatted; print nothing else')
    .option('--write', 'rewrite the file in place when it changes')
    .addHelpText('after', '\nExit codes: 0 ok, 1 not formatted (--check) or syntax errors, 2 bad input or options.\n')
    .action(async (file: string, opts: { check?: boolean; write?: boolean }) => {
      if (opts.check && opts.write) {
        process.stderr.write('t2m fmt: use either --check or --write, not both\n');
        process.exitCode = 2;
        return;
      }
      if (opts.write && file === '-') {
        process.stderr.write('t2m fmt: --write needs a file, not stdin\n');
        process.exitCode = 2;
        return;
      }
      const text = readSource('fmt', file);
      if (text === undefined) return;
      const { detectInput, formatText } = await import('../../pipeline.ts');
      if (detectInput(text) !== 'dsl') {
        process.stderr.write(`t2m fmt: ${displayName(file)} holds JSON; fmt formats DSL (use: t2m convert ${file} --to dsl)\n`);
        process.exitCode = 2;
        return;
      }
      const formatted = formatText(text);
      if (formatted.text === undefined) {
        printDiagnostics(process.stderr, formatted.diagnostics, file, text);
        process.exitCode = 1;
        return;
      }
      if (opts.check) {
        if (formatted.text !== text) {
          process.stdout.write(`${displayName(file)}: not formatted\n`);
          process.exitCode = 1;
        }
      } else if (opts.write) {
        if (formatted.text !== text) writeFileSync(file, formatted.text);
      } else process.stdout.write(formatted.text);
    });
}
