/** Test helpers: run IR JSON text (or DSL, once parsed by the pipeline) through validate + check. */
import { check, type Policy } from '../../src/check/index.js';
import type { Diagnostic, Range } from '../../src/diagnostics/diagnostic.js';
import { LineIndex } from '../../src/diagnostics/position.js';
import { readJson } from '../../src/ir/json.js';
import { validateIr } from '../../src/ir/validate.js';
import { textToIr } from '../../src/pipeline.js';

/** Validate and check one JSON document (an IR object or an array of IRs), keeping positions. */
export function diagnoseJson(text: string, policy: Policy = 'default'): Diagnostic[] {
  const read = readJson(text);
  const out = [...read.diagnostics];
  read.items.forEach((item, i) => {
    const v = validateIr(item.value, item.sourceMap, i);
    out.push(...v.diagnostics);
    if (v.ir) out.push(...check([v.ir], { sourceMaps: [item.sourceMap], policy, firstStatement: i }));
  });
  return out;
}

/** A range as `line:col-line:col`, compact enough to read in assertions. */
export function showRange(r: Range | undefined): string {
  return r ? `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}` : '(no range)';
}

/** The range of the `nth` occurrence (0-based) of `needle` in `text`, as `showRange` prints it. */
export function at(text: string, needle: string, nth = 0): string {
  let offset = -1;
  for (let i = 0; i <= nth; i++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`'${needle}' occurs fewer than ${nth + 1} times in ${text}`);
  }
  const lines = new LineIndex(text);
  return showRange(lines.range(offset, offset + needle.length));
}

/** `[{code, range}]` of the diagnostics of a JSON IR text (severities via `expectSeverities`). */
export function expectJsonDiagnostics(text: string, policy: Policy = 'default'): Array<{ code: string; range: string }> {
  return diagnoseJson(text, policy).map((d) => ({ code: d.code, range: showRange(d.range) }));
}

/** One-line JSON of an IR, so columns equal offsets + 1 and `at` finds values easily. */
export const json = (ir: unknown): string => JSON.stringify(ir);

/** `[{code, range}]` of a DSL script run through the whole front end (parse → … → check). */
export function expectDiagnostics(src: string, policy: Policy = 'default'): Array<{ code: string; range: string }> {
  return textToIr(src, { policy }).diagnostics.map((d) => ({ code: d.code, range: showRange(d.range) }));
}
