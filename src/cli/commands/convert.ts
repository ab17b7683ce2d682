/**
 * `t2m convert <file|-> [--to dsl|json] [--jsonl] [--strict]`: DSL ⇄ JSON IR.
 *
 * Whole-file mode auto-detects the input (DSL, a JSON IR object, a JSON array of IRs, JSONL) and
 * prints a canonical DSL script or the IRs. `--jsonl` converts datasets line by line, output
 * line n for input line n so the two files zip: `--to dsl` reads one IR object per line and
 * writes `{"dsl": "..."}`; `--to json` reads `{"dsl": "..."}` lines (one statement each) back
 * into one IR per line. A line that fails — bad JSON, a bad IR, a blank line, an array or a DSL
 * script with no statement or several — gives `{"diagnostics": [...]}` in its place, and the
 * other lines are still converted.
 */
import { plainRange } from '../../diagnostics/sourceRange.js';
import type { Command } from 'commander';
import { loaded } from '../startup.js';
import { type Diagnostic, hasErrors } from '../../diagnostics/diagnostic.js';
import type { SourceMap } from '../../diagnostics/sourceMap.js';
import type { Policy } from '../../pipeline.js';

// The front end is loaded on use so the other commands do not pay for it.
type Pipeline = typeof import('../../pipeline.js');
type JsonReader = typeof import('../../ir/json.js');
import { printDiagnostics, readSource } from '../input.js';

type Target = 'dsl' | 'json';

export function convertCommand(program: Command): void {
  program
    .command('convert')
    .description('convert between the DSL and the JSON IR (input format auto-detected)')
    .argument('<file>', 'input file, or - for stdin')
    .option('--to <format>', 'output format: dsl or json (default: the other one)')
    .option('--jsonl', 'dataset mode: convert line by line, one JSON record per output line')
    .option('--strict', 'strict policy: warnings count as errors')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  t2m convert notes.t2m --to json          DSL script -> JSON array of IRs',
        '  t2m convert ir.json --to dsl             IR object/array/JSONL -> canonical DSL',
        '  t2m convert irs.jsonl --to dsl --jsonl   each line {IR} -> {"dsl": "..."}',
        '  t2m convert dsl.jsonl --to json --jsonl  each line {"dsl": "..."} -> {IR}',
        '',
        'With --jsonl, output line n answers input line n: one IR object per line in, one',
        'statement per "dsl" out (and back). A line that fails becomes {"diagnostics": [...]}:',
        'bad JSON, a bad IR, a blank line (empty-line), a JSON array or a "dsl" with no',
        'statement or several (expected-one-statement). The others are still converted.',
        'Exit codes: 0 ok, 1 errors in the input (or in any line), 2 bad options or unreadable input.\n',
      ].join('\n'),
    )
    .action(async (file: string, opts: { to?: string; jsonl?: boolean; strict?: boolean }) => {
      if (opts.to !== undefined && opts.to !== 'dsl' && opts.to !== 'json') {
        process.stderr.write(`t2m convert: --to must be dsl or json, got '${opts.to}'\n`);
        process.exitCode = 2;
        return;
      }
      if (opts.jsonl && !opts.to) {
        process.stderr.write('t2m convert: --jsonl needs --to dsl (IR lines in) or --to json (DSL lines in)\n');
        process.exitCode = 2;
        return;
      }
      const text = readSource('convert', file);
      if (text === undefined) return;
      const policy: Policy = opts.strict ? 'strict' : 'default';
      // Loaded on use (with the JSON reader and jsonc-parser), so that no other command pays for them at start-up.
      const [pipeline, json] = await loaded(Promise.all([import('../../pipeline.js'), import('../../ir/json.js')]));
      if (opts.jsonl) convertLines(pipeline, json, text, opts.to as Target, policy);
      else await convertWhole(pipeline, file, text, opts.to as Target | undefined, policy);
    });
}

async function convertWhole({ readInput, irsToText }: Pipeline, file: string, text: string, to: Target | undefined, policy: Policy): Promise<void> {
  const result = readInput(text, { policy });
  await printDiagnostics(process.stderr, result.diagnostics, file, text);
  if (hasErrors(result.diagnostics)) {
    process.exitCode = 1;
    return;
  }
  const target = to ?? (result.kind === 'dsl' ? 'json' : 'dsl');
  if (target === 'dsl') {
    process.stdout.write(irsToText(result.irs));
    return;
  }
  // Keep the input's layout when it is JSON; a DSL script is a list of statements.
  if (result.kind === 'jsonl') process.stdout.write(result.irs.map((ir) => `${JSON.stringify(ir)}\n`).join(''));
  else if (result.kind === 'json-object' && result.irs.length === 1) process.stdout.write(`${JSON.stringify(result.irs[0], null, 2)}\n`);
  else process.stdout.write(`${JSON.stringify(result.irs, null, 2)}\n`);
}

function convertLines(pipeline: Pipeline, { readJsonlRecords }: JsonReader, text: string, to: Target, policy: Policy): void {
  const byLine = new Map(readJsonlRecords(text).map((r) => [r.line, r]));
  // The text's lines; a final line break ends the last line rather than starting an empty one.
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  let failed = 0;
  let offset = 0;
  const out: string[] = [];
  lines.forEach((raw, i) => {
    const record = byLine.get(i + 1);
    const start = offset;
    offset += raw.length + 1;
    const line: object = !record
      ? { diagnostics: [emptyLine(i + 1, start)] }
      : record.item
        ? to === 'dsl'
          ? irLineToDsl(pipeline, record.item.value, record.item.sourceMap, policy)
          : dslLineToIr(pipeline, record.item.value, policy)
        : { diagnostics: record.diagnostics };
    if ('diagnostics' in line) failed++;
    out.push(JSON.stringify(line));
  });
  process.stdout.write(out.map((l) => `${l}\n`).join(''));
  if (failed) {
    process.stderr.write(`t2m convert: ${failed} of ${lines.length} lines failed (see their "diagnostics")\n`);
    process.exitCode = 1;
  }
}

/** A blank dataset line: it still gets its output line, so that output lines match input lines. */
function emptyLine(line: number, offset: number): Diagnostic {
  const at = { line, column: 1, offset };
  return { code: 'empty-line', severity: 'error', message: `line ${line} is empty: each line must hold one record`, range: { start: at, end: at } };
}

/** One JSONL record holding one IR object → `{dsl}` (one statement) or `{diagnostics}`. */
function irLineToDsl({ validateAndCheck, irsToText }: Pipeline, value: unknown, sourceMap: SourceMap, policy: Policy): { dsl: string } | { diagnostics: Diagnostic[] } {
  if (Array.isArray(value)) {
    const range = sourceMap.get('');
    const message = `this line holds a JSON array (${value.length} item${value.length === 1 ? '' : 's'}); --jsonl takes one IR object per line`;
    return { diagnostics: [{ code: 'expected-one-statement', severity: 'error', message, ...(range ? { range } : {}) }] };
  }
  const result = validateAndCheck([{ value, sourceMap }], { policy });
  if (hasErrors(result.diagnostics)) return { diagnostics: result.diagnostics };
  return { dsl: irsToText(result.irs).replace(/\n$/, '') };
}

/**
 * One JSONL record `{"dsl": "..."}` → its one IR or `{diagnostics}`. Ranges in the diagnostics
 * are positions in the "dsl" string.
 */
function dslLineToIr({ detectInput, textToIr }: Pipeline, value: unknown, policy: Policy): object {
  const dsl = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>).dsl : undefined;
  if (typeof dsl !== 'string') {
    const diagnostic: Diagnostic = { code: 'invalid-record', severity: 'error', message: 'each line must be an object {"dsl": "<script>"}' };
    return { diagnostics: [diagnostic] };
  }
  if (detectInput(dsl) !== 'dsl') {
    return { diagnostics: [{ code: 'invalid-record', severity: 'error', message: 'the "dsl" field holds JSON, not a DSL script' } satisfies Diagnostic] };
  }
  const result = textToIr(dsl, { policy });
  if (hasErrors(result.diagnostics)) return { diagnostics: result.diagnostics };
  if (result.statements !== 1) {
    // One IR per line: a second statement is pointed at; an empty script has nothing to point at.
    const range = plainRange(result.script?.statements[1]?.loc);
    const message = result.statements === 0
      ? 'this line has no statement; --jsonl expects one statement per line'
      : `this line has ${result.statements} statements; --jsonl expects one statement (one IR) per line`;
    return { diagnostics: [{ code: 'expected-one-statement', severity: 'error', message, ...(range ? { range } : {}) }] };
  }
  return result.irs[0];
}
