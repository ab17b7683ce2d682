/** Reading command inputs (a file or `-` for stdin) and reporting diagnostics for the CLI. */
import { readFileSync } from 'node:fs';
import { type Diagnostic, mapMessages } from '../diagnostics/diagnostic.js';
import { escapeControls, oneLine } from '../diagnostics/escape.js';

/** The default for `--max-input`: the largest input file a command reads (bytes). */
export const DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * The text of `file` (`-` is stdin), or undefined after reporting why it cannot be read (exit code 2):
 * it is missing, larger than `maxBytes`, or not UTF-8. Invalid bytes (such as a lone surrogate
 * written as CESU-8) are refused with `invalid-text` and their line:column, not read as U+FFFD;
 * a leading byte order mark is the file's encoding signature and is not part of the text.
 */
export function readSource(command: string, file: string, maxBytes = DEFAULT_MAX_INPUT_BYTES): string | undefined {
  try {
    const bytes = readFileSync(file === '-' ? 0 : file);
    if (bytes.length > maxBytes) {
      process.stderr.write(`t2m ${command}: ${displayName(file)} is ${bytes.length} bytes, over the limit of ${maxBytes} (--max-input)\n`);
      process.exitCode = 2;
      return undefined;
    }
    const text = decodeUtf8(bytes);
    if (typeof text === 'string') return text;
    const { line, column } = positionOfByte(bytes, text.badByte);
    process.stderr.write(`${displayName(file)}:${line}:${column}: error invalid-text: not valid UTF-8 (byte 0x${bytes[text.badByte].toString(16).toUpperCase()} at byte offset ${text.badByte}); the file is not read, rather than read with U+FFFD in place of what was written\n`);
    process.exitCode = 2;
    return undefined;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory' : err.message;
    process.stderr.write(`t2m ${command}: cannot read ${file}: ${why}\n`);
    process.exitCode = 2;
    return undefined;
  }
}

/**
 * Print diagnostics with code frames; the name shown for stdin is `<stdin>`. The code-frame module
 * is loaded on first use: its terminal-width tables (string-width, an Intl.Segmenter) cost tens of
 * milliseconds at start-up, which a clean `t2m check` need not pay.
 */
export async function printDiagnostics(stream: NodeJS.WriteStream, diagnostics: readonly Diagnostic[], file: string, text: string): Promise<void> {
  if (!diagnostics.length) return;
  const { formatDiagnostics } = await import('../diagnostics/codeFrame.js');
  stream.write(`${terminalDiagnostics(formatDiagnostics, diagnostics, { path: displayName(file), text })}\n`);
}

/**
 * Diagnostics formatted for a terminal: a message may quote the store (a lock's reason), so each
 * is kept to one line and no control character reaches the terminal raw (src/diagnostics/escape.ts).
 */
export function terminalDiagnostics(
  format: typeof import('../diagnostics/codeFrame.js').formatDiagnostics, diagnostics: readonly Diagnostic[], options: { path?: string; text?: string },
): string {
  return escapeControls(format(diagnostics.map((d) => mapMessages(d, oneLine)), options));
}

export function displayName(file: string): string {
  return file === '-' ? '<stdin>' : file;
}

/** `2 errors, 1 warning` */
export function countSummary(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

/** Raise the process exit code to at least `code` (several files: the worst outcome wins). */
export function raiseExitCode(code: number): void {
  process.exitCode = Math.max(Number(process.exitCode ?? 0), code);
}

/** Strict UTF-8 decoding (a leading BOM dropped), or the offset of the first byte that is not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | { badByte: number } {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { badByte: firstInvalidUtf8(bytes) };
  }
}

/** The offset of the first byte of the first ill-formed UTF-8 sequence (Unicode table 3-7). */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) { i++; continue; }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) { n = 2; if (c === 0xe0) lo = 0xa0; if (c === 0xed) hi = 0x9f; }
    else if (c >= 0xf0 && c <= 0xf4) { n = 3; if (c === 0xf0) lo = 0x90; if (c === 0xf4) hi = 0x8f; }
    else return i;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return b.length;
}

/** The 1-based line and column (in UTF-16 units of the valid text before it) of byte `offset`. */
function positionOfByte(bytes: Uint8Array, offset: number): { line: number; column: number } {
  const before = bytes.subarray(0, offset);
  const lineStart = before.lastIndexOf(10) + 1;
  let line = 1;
  for (let i = 0; i < lineStart; i++) if (before[i] === 10) line++;
  return { line, column: new TextDecoder().decode(before.subarray(lineStart)).length + 1 };
}
