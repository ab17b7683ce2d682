/**
 * Renders diagnostics for people: `path:line:col: severity code message`, then the source
 * line(s) with a caret underline under the range, then the fix hint when there is one.
 */
import type { Diagnostic, Range } from './diagnostic.js';
import { LineIndex } from './position.js';
import stringWidth from 'string-width';

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

/** Source lines longer than this are cut to a window around the range. */
const MAX_LINE_WIDTH = 120;

/** Terminal columns a text takes (CJK and other East Asian wide characters take two). */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/**
 * The source lines around `range`, each prefixed with its number, with `^^^` under the range.
 * Carets line up in a terminal even after wide (e.g. Chinese) characters; very long lines (a
 * JSONL record) are shown as a window around the range.
 */
export function codeFrame(text: string | LineIndex, range: Range, contextLines = 1): string {
  const lines = typeof text === 'string' ? new LineIndex(text) : text;
  const first = Math.max(1, range.start.line - contextLines);
  // An end at column 1 of a later line means the range stops at the previous line break.
  const endLine = range.end.line > range.start.line && range.end.column === 1 ? range.end.line - 1 : range.end.line;
  const last = Math.min(lines.lineCount, Math.max(endLine, range.start.line));
  const gutterWidth = String(last).length;
  const out: string[] = [];
  for (let line = first; line <= last; line++) {
    const full = lines.lineText(line).replace(/\t/g, ' ');
    const marked = line >= range.start.line && line <= range.end.line;
    const from = marked && line === range.start.line ? range.start.column - 1 : 0;
    const to = marked && line === range.end.line ? range.end.column - 1 : full.length;
    // Cut long lines to a window that starts a little before the range.
    const windowStart = full.length > MAX_LINE_WIDTH ? Math.max(0, Math.min(from - 20, full.length - MAX_LINE_WIDTH)) : 0;
    const windowEnd = Math.min(full.length, windowStart + MAX_LINE_WIDTH);
    const head = windowStart > 0 ? '…' : '';
    const src = `${head}${full.slice(windowStart, windowEnd)}${windowEnd < full.length ? '…' : ''}`;
    out.push(`${marked ? '>' : ' '} ${String(line).padStart(gutterWidth)} | ${src}`);
    if (!marked) continue;
    const a = Math.max(from, windowStart);
    const b = Math.min(Math.max(to, a), windowEnd);
    const pad = displayWidth(head) + displayWidth(full.slice(windowStart, a));
    const width = Math.max(1, displayWidth(full.slice(a, b)));
    out.push(`  ${' '.repeat(gutterWidth)} | ${' '.repeat(pad)}${'^'.repeat(width)}`);
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
