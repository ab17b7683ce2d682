/**
 * `t2m check <files...> [--strict] [--json]`: validate and check DSL or IR JSON, with code frames.
 * `t2m check --db <store> [--tenant t]`: audit a store's facts against their attributes' schemas.
 */
import type { Command } from 'commander';
import type { SchemaViolation, StoredSchema } from '../../execute/schemas.js';
import { loaded } from '../startup.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { countSummary, displayName, printDiagnostics, raiseExitCode, readSource } from '../input.js';

export function checkCommand(program: Command): void {
  program
    .command('check')
    .description('check DSL scripts or IR JSON (object, array or JSONL) and print their diagnostics; exit 1 on errors')
    .argument('[files...]', 'input files, or - for stdin')
    .option('--strict', 'strict policy: warnings count as errors')
    .option('--db <store>', 'audit a store instead: list the facts that do not meet their attribute\'s schema in force (nothing is changed)')
    .option('--tenant <name>', 'with --db: the tenant audited (default: default)')
    .option('--json', 'print the diagnostics as JSON instead of code frames (one file: an array of diagnostics; several: [{file, kind, diagnostics}])')
    .addHelpText('after', '\nExit codes: 0 no errors, 1 errors found (--db: facts that violate their schema), 2 an input could not be read.\n\nExamples:\n  t2m check notes.t2m --strict\n  t2m check --db memory.db --tenant acme\n')
    .action(async (files: string[], opts: { strict?: boolean; json?: boolean; db?: string; tenant?: string }) => {
      if (opts.db !== undefined) return auditStore(opts.db, opts.tenant, opts.json === true, files);
      if (!files.length) {
        process.stderr.write('t2m check: give files to check, or --db <store> to audit a store\n');
        process.exitCode = 2;
        return;
      }
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

/** `t2m check --db`: the store's facts that violate their attribute's schema in force (src/execute/schemas.ts). */
async function auditStore(db: string, tenant: string | undefined, json: boolean, files: readonly string[]): Promise<void> {
  if (files.length) {
    process.stderr.write('t2m check: --db audits a store; check files in a separate call\n');
    process.exitCode = 2;
    return;
  }
  const [{ openStoreUrl }, { schemaViolationsIo, describe }, { DEFAULT_TENANT }, { oneLine }] = await loaded(Promise.all([
    import('../../dialect/open-url.js'), import('../../execute/schemas.js'), import('../../store/columns.js'), import('../../diagnostics/escape.js'),
  ]));
  const t = tenant ?? DEFAULT_TENANT;
  if (t.trim() === '') {
    process.stderr.write('t2m check: bad-tenant: the tenant is blank\n');
    process.exitCode = 2;
    return;
  }
  const opened = await openStoreUrl(db, { readOnly: true });
  if (!opened.ok) {
    for (const d of opened.diagnostics) process.stderr.write(`t2m check: ${d.code}: ${oneLine(d.message)}\n`);
    process.exitCode = 2;
    return;
  }
  let report: { schemas: StoredSchema[]; violations: SchemaViolation[] };
  try {
    report = await opened.store.driveAsync(schemaViolationsIo(opened.store.dialect, t));
  } finally {
    await opened.store.close();
  }
  if (report.violations.length) process.exitCode = 1;
  if (json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const versions = new Map(report.schemas.map((s) => [s.attribute, s]));
  const lines = report.violations.map((v) => {
    const s = versions.get(v.attribute);
    const written = v.beforeSchema ? `written before schema version ${s?.version ?? '?'} (${s ? describe(s.schema) : '?'})` : `written under schema version ${v.schemaVersion ?? '?'}; in force: version ${s?.version ?? '?'} (${s ? describe(s.schema) : '?'})`;
    return `memory #${v.id} ${v.subject}.${v.attribute} = ${JSON.stringify(v.value)}, ${written}: ${v.problem}${v.suggestion === undefined ? '' : `; fix: ${JSON.stringify(v.suggestion)}`}`;
  });
  lines.push(`${opened.name}: ${report.violations.length} fact${report.violations.length === 1 ? '' : 's'} violating ${report.schemas.length} attribute schema${report.schemas.length === 1 ? '' : 's'} in tenant ${t}`);
  process.stdout.write(`${lines.map(oneLine).join('\n')}\n`);
}
