/** `t2m why <id> --db <store> [--tenant <name>]`: where a record came from and what it superseded. */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { loaded } from '../startup.js';
import { oneLine } from '../../diagnostics/escape.js';

export function whyCommand(program: Command): void {
  program
    .command('why')
    .description('show where a record came from: the run, statement, actor and episode that wrote it, the versions it superseded, and their audit entries')
    .argument('<id>', 'memory id')
    .requiredOption('--db <store>', 'store file')
    .option('--tenant <name>', 'the tenant the command acts in (default: default); a script cannot name another')
    .option('--json', 'print the chain as JSON')
    .action(async (id: string, flags: { db: string; tenant?: string; json?: boolean }) => {
      if (!/^\d+$/.test(id) || Number(id) < 1) {
        process.stderr.write(`t2m why: '${id}' is not a memory id (a positive integer)\n`);
        process.exitCode = 2;
        return;
      }
      const [{ Session }, { classify, isSqliteError, isReadOnlyFile, openStoreFile }, storeUrl, { sqliteOnly }] = await loaded(Promise.all([
        import('../../engine/index.js'), import('../../dialect/sqlite/native.js'), import('../../store/url.js'), import('./mcp.js'),
      ]));
      // A store file: any other name is refused (without its password) rather than taken for a path.
      const url = sqliteOnly('t2m why', flags.db, storeUrl);
      if (!url) return;
      const path = url.kind === 'file' ? url.path : flags.db;
      const opened = openStoreFile(path, { readOnly: !existsSync(path) || isReadOnlyFile(path) });
      if (!opened.ok) {
        for (const d of opened.diagnostics) process.stderr.write(`t2m why: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      }
      let result: import('../../engine/index.js').WhyOutcome;
      try {
        result = new Session(opened.store, { tenant: flags.tenant }).why(Number(id));
      } catch (e) {
        if (!isSqliteError(e)) throw e;
        process.stderr.write(`t2m why: ${path} is ${classify(e as Error).message}\n`);
        process.exitCode = 2;
        return;
      } finally {
        opened.store.close();
      }
      if (!result.ok) {
        for (const d of result.diagnostics) process.stderr.write(`t2m why: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 1;
        return;
      }
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ chain: result.chain, audit: result.audit }, null, 2)}\n`);
        return;
      }
      const lines: string[] = [];
      result.chain.forEach((p, i) => {
        const key = p.attribute ? `${p.subject}.${p.attribute} = ${JSON.stringify(p.text)}` : JSON.stringify(p.text);
        const valid = p.attribute ? ` valid ${p.validFrom ?? '?'} .. ${p.validTo ?? 'now'}` : '';
        lines.push(`${i === 0 ? '' : 'superseded '}#${p.id} ${key}${valid}${p.deleted ? ' (deleted)' : ''}`);
        lines.push(`  written by ${p.actor ?? 'an anonymous actor'} at ${p.createdAt ?? '?'}, run ${p.traceId ?? '?'} statement ${p.statement === null ? '?' : p.statement + 1}`
          + `${p.episode ? `, from episode ${p.episode}` : ''}${p.confidence === null ? '' : `, confidence ${p.confidence}`}${p.retention ? `, retention ${p.retention}` : ''}`);
        lines.push(`  believed ${p.believed.length ? p.believed.map(([from, to]) => `${from} .. ${to ?? 'now'}`).join(', ') : 'never (hidden by a correction as it was recorded)'}`);
      });
      for (const e of result.audit) lines.push(`audit #${e.id} ${e.at} ${e.op} by ${e.actor ?? 'anonymous'} (run ${e.traceId ?? '?'}): ${e.affectedIds.map((a) => `#${a}`).join(', ')}`);
      // Each line shows stored values (a subject, a text, an actor): one line each, controls escaped.
      process.stdout.write(`${lines.map(oneLine).join('\n')}\n`);
    });
}
