/** `t2m sweep --db <store> [--now <iso>]`: apply the expiry actions that are due. */
import type { Command } from 'commander';
import { loaded } from '../startup.js';
import { oneLine } from '../../diagnostics/escape.js';
import type { SweepOutcome } from '../../engine/index.js';

export function sweepCommand(program: Command): void {
  program
    .command('sweep')
    .description('apply due expiry actions (soft_delete, hard_delete, demote, anonymize) to a store')
    .requiredOption('--db <store>', "the store: a file, 'pglite:./dir' or 'postgres://user@host/db' (spec/storage.md)")
    .option('--now <iso>', 'privileged: the clock (default: the current time); a later clock applies expiries early and lets locks lapse')
    .option('--tenant <name>', 'the tenant the command acts in (default: default); a script cannot name another')
    .option('--json', 'print the result as JSON')
    .action(async (flags: { db: string; now?: string; json?: boolean; tenant?: string }) => {
      // Loaded on use so the other commands do not pay for the engine.
      const [{ Session }, { openStoreUrl, storeError }] = await loaded(Promise.all([
        import('../../engine/index.js'), import('../../dialect/open-url.js'),
      ]));
      const opened = await openStoreUrl(flags.db);
      if (!opened.ok) {
        for (const d of opened.diagnostics) process.stderr.write(`t2m sweep: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      }
      // One transaction: when sweep returns, the changes are committed (and only then printed).
      let result: SweepOutcome;
      try {
        result = await new Session(opened.store, { actor: 'system:sweep', tenant: flags.tenant }).sweep(flags.now ?? new Date());
      } catch (e) {
        const d = storeError(opened.name, e);
        if (!d) throw e;
        process.stderr.write(`t2m sweep: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      } finally {
        await opened.store.close();
      }
      if ('diagnostics' in result) {
        for (const d of result.diagnostics) process.stderr.write(`t2m sweep: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      }
      if (flags.json) process.stdout.write(`${JSON.stringify({ applied: result.applied, skipped: result.skipped })}\n`);
      else {
        const lines = [...result.applied.map((a) => `#${a.id} ${a.action}`), ...result.skipped.map((x) => `#${x.id} skipped (${x.reason})`)];
        process.stdout.write(lines.length ? `${lines.map(oneLine).join('\n')}\n` : 'nothing due\n');
      }
    });
}
