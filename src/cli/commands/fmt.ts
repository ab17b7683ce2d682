/** `t2m fmt <files...> [--check|--write]`: print DSL scripts in canonical form (the printer's). */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loaded } from '../startup.js';
import { displayName, printDiagnostics, raiseExitCode, readSource } from '../input.js';

export function fmtCommand(program: Command): void {
  program
    .command('fmt')
    .description('format DSL scripts canonically (prints them, or checks/rewrites the files)')
    .argument('<files...>', 'DSL files, or - for stdin')
    .option('--check', 'exit 1 if a file is not canonically formatted; print only the names of such files')
    .option('--write', 'rewrite each file in place when it changes')
    .addHelpText('after', '\nExit codes: 0 ok, 1 not formatted (--check) or syntax errors, 2 bad input or options.\n')
    .action(async (files: string[], opts: { check?: boolean; write?: boolean }) => {
      if (opts.check && opts.write) {
        process.stderr.write('t2m fmt: use either --check or --write, not both\n');
        raiseExitCode(2);
        return;
      }
      if (opts.write && files.includes('-')) {
        process.stderr.write('t2m fmt: --write needs files, not stdin\n');
        raiseExitCode(2);
        return;
      }
      const { detectInput, formatText } = await loaded(import('../../pipeline.js'));
      for (const file of files) {
        const text = readSource('fmt', file);
        if (text === undefined) continue;
        if (detectInput(text) !== 'dsl') {
          process.stderr.write(`t2m fmt: ${displayName(file)} holds JSON; fmt formats DSL (use: t2m convert ${file} --to dsl)\n`);
          raiseExitCode(2);
          continue;
        }
        const formatted = formatText(text);
        if (formatted.text === undefined) {
          await printDiagnostics(process.stderr, formatted.diagnostics, file, text);
          raiseExitCode(1);
          continue;
        }
        if (opts.check) {
          if (formatted.text !== text) {
            process.stdout.write(`${displayName(file)}: not formatted\n`);
            raiseExitCode(1);
          }
        } else if (opts.write) {
          if (formatted.text !== text) writeFileSync(file, formatted.text);
        } else process.stdout.write(formatted.text);
      }
    });
}
