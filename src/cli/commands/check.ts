/** `t2m check <file> [--strict] [--json]`: validate and check DSL or IR JSON, with code frames. */
import type { Command } from 'commander';
import { hasErrors } from '../../diagnostics/diagnostic.ts';
import { countSummary, displayName, printDiagnostics, readSource } from '../input.ts';

export function checkCommand(program: Command): void {
  program
    .command('check')
    .description('check a DSL script or IR JSON (object, array or JSONL) and print its diagnostics; exit 1 on errors')
    .argument('<file>', 'input file, or - for stdin')
    .option('--strict', 'strict policy: warnings count as errors')
    .option('--json', 'print the diagnostics as a JSON array instead of code frames')
    .addHelpText('after', '\nExit codes: 0 no errors, 1 errors found, 2 the input could not be read.\n\nExample:\n  t2m check notes.t2m --strict\n')
    .action(async (file: string, opts: { strict?: boolean; json?: boolean }) => {
      const text = readSource('check', file);
      if (text === undefined) return;
      // Loaded on use so the other commands do not pay for the front end.
      const { readInput } = await import('../../pipeline.ts');
      const result = readInput(text, { policy: opts.strict ? 'strict' : 'default' });
      if (opts.json) process.stdout.write(`${JSON.stringify(result.diagnostics, null, 2)}\n`);
      else {
        printDiagnostics(process.stdout, result.diagnostics, file, text);
        const statements = result.irs.length;
        const summary = result.diagnostics.length ? countSummary(result.diagnostics) : 'ok';
        process.stdout.write(`${result.diagnostics.length ? '\n' : ''}${displayName(file)}: ${summary} (${statements} statement${statements === 1 ? '' : 's'} checked, ${result.kind})\n`);
      }
      if (hasErrors(result.diagnostics)) process.exitCode = 1;
    });
}
