/** `t2m sweep --db <store> [--now <iso>]`: apply the expiry actions that are due. */
import type { Command } from 'commander';
import { sweep } from '../../engine/index.js';
import { loadStoreFile, saveStoreFile } from '../../engine/file-store.js';

export function sweepCommand(program: Command): void {
  program
    .command('sweep')
    .description('apply due expiry actions (soft_delete, hard_delete, demote, anonymize) to a store file')
    .requiredOption('--db <store>', 'store file')
    .option('--now <iso>', 'privileged: the clock (default: the current time); a later clock applies expiries early and lets locks lapse')
    .option('--json', 'print the result as JSON')
    .action(async (flags: { db: string; now?: string; json?: boolean }) => {
      const opened = await loadStoreFile(flags.db);
      if (!opened.ok) {
        for (const d of opened.diagnostics) process.stderr.write(`t2m sweep: ${d.message}\n`);
        process.exitCode = 2;
        return;
      }
      const result = sweep(opened.store, flags.now ?? new Date());
      if ('diagnostics' in result) {
        for (const d of result.diagnostics) process.stderr.write(`t2m sweep: ${d.message}\n`);
        process.exitCode = 2;
        return;
      }
      if (flags.json) process.stdout.write(`${JSON.stringify({ applied: result.applied, skipped: result.skipped })}\n`);
      else {
        const lines = [...result.applied.map((a) => `#${a.id} ${a.action}`), ...result.skipped.map((x) => `#${x.id} skipped (${x.reason})`)];
        process.stdout.write(lines.length ? `${lines.join('\n')}\n` : 'nothing due\n');
      }
      const problem = result.applied.length ? saveStoreFile(opened.store, flags.db) : null;
      if (problem) {
        process.stderr.write(`t2m sweep: ${problem.message}\n`);
        process.exitCode = 2;
      }
    });
}
