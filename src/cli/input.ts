/** Reading command inputs (a file or `-` for stdin) and reporting diagnostics for the CLI. */
import { readFileSync } from 'node:fs';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

/** The text of `file` (`-` is stdin), or undefined after reporting why it cannot be read (exit code 2). */
export function readSource(command: string, file: string): string | undefined {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
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
  stream.write(`${formatDiagnostics(diagnostics, { path: displayName(file), text })}\n`);
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
