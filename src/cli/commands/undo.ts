/** `t2m audit --db <store>` lists the audit log; `t2m undo <entry> --db <store>` undoes a soft delete (or takes back a feedback entry's reward). */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { loaded } from '../startup.js';
import { oneLine } from '../../diagnostics/escape.js';

/** The engine and the stores, loaded on use so the other commands do not pay for them. */
async function engine() {
  const [{ Session }, { openStoreUrl, storeError }, { parseStoreUrl }, { isReadOnlyFile }, { table }] = await loaded(Promise.all([
    import('../../engine/index.js'), import('../../dialect/open-url.js'), import('../../store/url.js'), import('../../dialect/sqlite/native.js'),
    import('../engine-output.js'),
  ]));
  return { Session, openStoreUrl, storeError, parseStoreUrl, isReadOnlyFile, table };
}

const STORE_HELP = "the store: a file, 'pglite:./dir' or 'postgres://user@host/db' (spec/storage.md)";

export function auditCommand(program: Command): void {
  program
    .command('audit')
    .description('list the audit log of a store')
    .requiredOption('--db <store>', STORE_HELP)
    .option('--json', 'print the entries as JSON')
    .option('--tenant <name>', 'the tenant the command acts in (default: default); a script cannot name another')
    .action(async (flags: { db: string; json?: boolean; tenant?: string }) => {
      const { Session, openStoreUrl, storeError, parseStoreUrl, isReadOnlyFile, table } = await engine();
      // Only reads: a missing or read-only file is opened read-only (and an older store is read as it is).
      const url = parseStoreUrl(flags.db);
      const file = 'kind' in url && url.kind === 'file' ? url.path : undefined;
      const readOnly = file === undefined ? !('kind' in url && url.kind === 'memory') : !existsSync(file) || isReadOnlyFile(file);
      const opened = await openStoreUrl(flags.db, { readOnly });
      if (!opened.ok) {
        for (const d of opened.diagnostics) process.stderr.write(`t2m audit: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      }
      let entries: import('../../engine/index.js').AuditRecord[];
      try {
        entries = await new Session(opened.store, { tenant: flags.tenant }).auditLog();
      } catch (e) {
        const d = storeError(opened.name, e);
        if (!d) throw e;
        process.stderr.write(`t2m audit: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      } finally {
        await opened.store.close();
      }
      if (flags.json) process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
      else {
        process.stdout.write(`${table(entries.map((e) => ({ entry: e.id, at: e.at, actor: e.actor, op: e.op, ids: e.affectedIds.join(','), undone_by: e.undoneBy })))}\n`);
      }
    });
}

export function undoCommand(program: Command): void {
  program
    .command('undo')
    .description('undo the soft deletes recorded by an audit entry, or take back its feedback (PROMOTE … REWARD) (see t2m audit)')
    .argument('<entry>', 'audit entry number')
    .requiredOption('--db <store>', STORE_HELP)
    .option('--actor <name>', 'the acting actor (locks and write permissions of the restored records apply)')
    .option('--now <iso>', 'privileged: the clock (default: the current time); it decides which locks are in force and stamps the audit log')
    .option('--tenant <name>', 'the tenant the command acts in (default: default); a script cannot name another')
    .action(async (entry: string, flags: { db: string; actor?: string; now?: string; tenant?: string }) => {
      if (!/^\d+$/.test(entry)) {
        process.stderr.write(`t2m undo: '${entry}' is not an audit entry number\n`);
        process.exitCode = 2;
        return;
      }
      const { Session, openStoreUrl, storeError } = await engine();
      const opened = await openStoreUrl(flags.db);
      if (!opened.ok) {
        for (const d of opened.diagnostics) process.stderr.write(`t2m undo: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      }
      // One transaction: when undo returns, the change is committed (and only then printed).
      let result: import('../../engine/index.js').UndoResult;
      try {
        result = await new Session(opened.store, { actor: flags.actor, tenant: flags.tenant }).undo(Number(entry), flags.now);
      } catch (e) {
        const d = storeError(opened.name, e);
        if (!d) throw e;
        process.stderr.write(`t2m undo: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      } finally {
        await opened.store.close();
      }
      if (!result.ok) {
        for (const d of result.diagnostics) process.stderr.write(`t2m undo: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`restored ${result.restored.map((id) => `#${id}`).join(', ')} (audit entry #${result.auditId})\n`);
      if (result.unexpired.length) {
        process.stdout.write(`cleared the passed expiry of ${result.unexpired.map((id) => `#${id}`).join(', ')} so that ${result.unexpired.length === 1 ? 'it is' : 'they are'} live again\n`);
      }
    });
}
