/** `t2m check <files...> [--strict] [--json]`: validate and check DSL or IR JSON, with code frames. */
import type { Command } from 'commander';
import { loaded } from '../startup.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { countSummary, displayName, printDiagnostics, raiseExitCode, readSource } from '../input.js';

export function checkCommand(program: Command): void {
  program
    .command('check')
    .description('check DSL scripts or IR JSON (object, array or JSONL) and print their diagnostics; exit 1 on errors')
    .argument('<files...>', 'input files, or - for stdin')
    .option('--strict', 'strict policy: warnings count as errors')
    .option('--json', 'print the diagnostics as JSON instead of code frames (one file: an array of diagnostics; several: [{file, kind, diagnostics}])')
    .addHelpText('after', '\nExit codes: 0 no errors, 1 errors found, 2 an input could not be read.\n\nExample:\n  t2m check notes.t2m --strict\n')
    .action(async (files: string[], opts: { strict?: boolean; json?: boolean }) => {
      // Loaded on use so the other commands do not pay for the front end.
      const { readInput } = await loaded(import('../../pipeline.js'));
      const reports: Array<{ file: string; kind: string; diagnostics: unknown[] }> = [];
      for (const file of files) {
        const text = readSource('check', file);
        if (text === undefined) continue;
        const result = readInput(text, { policy: opts.strict ? 'strict' : 'default' });
        if (hasErrors(result.diagnostics)) raiseExitCode(1);
        if (opts.json) {
          reports.push({ file, kind: result.kind, diagnostics: result.diagnostics });
          continue;
        }
        await printDiagnostics(process.stdout, result.diagnostics, file, text);
        const n = result.statements;
        const summary = result.diagnostics.length ? countSummary(result.diagnostics) : 'ok';
        process.stdout.write(`${result.diagnostics.length ? '\n' : ''}${displayName(file)}: ${summary} (${n} statement${n === 1 ? '' : 's'} checked, ${result.kind})\n`);
      }
      if (opts.json) process.stdout.write(`${JSON.stringify(files.length === 1 ? (reports[0]?.diagnostics ?? []) : reports, null, 2)}\n`);
    });
}
