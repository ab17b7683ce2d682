/**
 * Renders diagnostics for people: `path:line:col: severity code message`, then the source
 * line(s) with a caret underline under the range, then the fix hint when there is one.
 */
import type { Diagnostic, Range } from './diagnostic.ts';
import { LineIndex } from './position.ts';

export interface FormatOptions {
  /** File name shown in the heading (e.g. `notes.t2m`, `-` for stdin). */
  readonly path?: string;
  /** The source text the ranges point into; without it no code frame is drawn. */
  readonly text?: string;
  /** Reuse a line index when formatting many diagnostics of one text. */
  readonly lines?: LineIndex;
  /** Lines of context shown above the range. */
  readonly contextLines?: number;
}

/** The source lines around `range`, each prefixed with its number, with `^^^` under the range. */
export function codeFrame(text: string | LineIndex, range: Range, contextLines = 1): string {
  const lines = typeof text === 'string' ? new LineIndex(text) : text;
  const first = Math.max(1, range.start.line - contextLines);
  const last = Math.min(lines.lineCount, Math.max(range.end.line, range.start.line));
  // An end at column 1 of a later line means the range stops at the previous line break.
  const lastMarked = range.end.line > range.start.line && range.end.column === 1 ? range.end.line - 1 : last;
  const gutterWidth = String(Math.min(last, lastMarked)).length;
  const out: string[] = [];
  for (let line = first; line <= Math.min(last, lastMarked); line++) {
    const src = lines.lineText(line).replace(/\t/g, ' ');
    const marked = line >= range.start.line && line <= range.end.line;
    out.push(`${marked ? '>' : ' '} ${String(line).padStart(gutterWidth)} | ${src}`);
    if (!marked) continue;
    const from = line === range.start.line ? range.start.column - 1 : 0;
    const to = line === range.end.line ? range.end.column - 1 : src.length;
    const width = Math.max(1, to - from);
    out.push(`  ${' '.repeat(gutterWidth)} | ${' '.repeat(from)}${'^'.repeat(width)}`);
  }
  return out.join('\n');
}

/** One heading line: `path:line:col: severity code message` (location parts dropped when unknown). */
export function formatHeading(d: Diagnostic, path?: string): string {
  const where = [path, d.range ? `${d.range.start.line}:${d.range.start.column}` : undefined].filter(Boolean).join(':');
  const stmt = !d.range && d.statement !== undefined ? ` (statement ${d.statement + 1}${d.path ? `, ${d.path}` : ''})` : '';
  return `${where ? `${where}: ` : ''}${d.severity} ${d.code} ${d.message}${stmt}`;
}

/** A diagnostic as a heading, code frame and fix hint, ready to print. */
export function formatDiagnostic(d: Diagnostic, options: FormatOptions = {}): string {
  const parts = [formatHeading(d, options.path)];
  const lines = options.lines ?? (options.text !== undefined ? new LineIndex(options.text) : undefined);
  if (lines && d.range) parts.push(codeFrame(lines, d.range, options.contextLines ?? 1));
  for (const r of d.related ?? []) {
    parts.push(`  note: ${r.message}${r.range ? ` (${r.range.start.line}:${r.range.start.column})` : ''}`);
  }
  if (d.fix) parts.push(`  fix: ${d.fix.message}`);
  return parts.join('\n');
}

/** Many diagnostics of one text, separated by blank lines. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], options: FormatOptions = {}): string {
  const lines = options.lines ?? (options.text !== undefined ? new LineIndex(options.text) : undefined);
  return diagnostics.map((d) => formatDiagnostic(d, { ...options, lines })).join('\n\n');
}
