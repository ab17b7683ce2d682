/** `t2m audit --db <store>` lists the audit log; `t2m undo <entry> --db <store>` undoes a soft delete. */
import type { Command } from 'commander';
import { auditLog, undo } from '../../engine/index.js';
import { loadStoreFile, saveStoreFile } from '../../engine/file-store.js';
import { table } from '../engine-output.js';

export function auditCommand(program: Command): void {
  program
    .command('audit')
    .description('list the audit log of a store file')
    .requiredOption('--db <store>', 'store file')
    .option('--json', 'print the entries as JSON')
    .action(async (flags: { db: string; json?: boolean }) => {
      const opened = await loadStoreFile(flags.db);
      if (!opened.ok) {
        for (const d of opened.diagnostics) process.stderr.write(`t2m audit: ${d.message}\n`);
        process.exitCode = 2;
        return;
      }
      const entries = auditLog(opened.store);
      if (flags.json) process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
      else {
        process.stdout.write(`${table(entries.map((e) => ({ entry: e.id, at: e.at, actor: e.actor, op: e.op, ids: e.affectedIds.join(','), undone_by: e.undoneBy })))}\n`);
      }
    });
}

export function undoCommand(program: Command): void {
  program
    .command('undo')
    .description('undo the soft deletes recorded by an audit entry (see t2m audit)')
    .argument('<entry>', 'audit entry number')
    .requiredOption('--db <store>', 'store file')
    .option('--actor <name>', 'the acting actor (locks and write permissions of the restored records apply)')
    .option('--now <iso>', 'privileged: the clock (default: the current time); it decides which locks are in force and stamps the audit log')
    .action(async (entry: string, flags: { db: string; actor?: string; now?: string }) => {
      if (!/^\d+$/.test(entry)) {
        process.stderr.write(`t2m undo: '${entry}' is not an audit entry number\n`);
        process.exitCode = 2;
        return;
      }
      const opened = await loadStoreFile(flags.db);
      if (!opened.ok) {
        for (const d of opened.diagnostics) process.stderr.write(`t2m undo: ${d.message}\n`);
        process.exitCode = 2;
        return;
      }
      const result = undo(opened.store, Number(entry), { actor: flags.actor, now: flags.now });
      if (!result.ok) {
        for (const d of result.diagnostics) process.stderr.write(`t2m undo: ${d.code}: ${d.message}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`restored ${result.restored.map((id) => `#${id}`).join(', ')} (audit entry #${result.auditId})\n`);
      if (result.unexpired.length) {
        process.stdout.write(`cleared the passed expiry of ${result.unexpired.map((id) => `#${id}`).join(', ')} so that ${result.unexpired.length === 1 ? 'it is' : 'they are'} live again\n`);
      }
      const problem = saveStoreFile(opened.store, flags.db);
      if (problem) {
        process.stderr.write(`t2m undo: ${problem.message}\n`);
        process.exitCode = 2;
      }
    });
}
