/**
 * Formatting for editors and the prettier plugin: the project's printer (`formatText`), never a
 * second formatter. A script with syntax errors is left as it is and the errors are returned.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { formatText } from '../pipeline.js';

export interface FormatResult {
  /** The canonical text; absent when the script has syntax errors. */
  readonly text?: string;
  readonly diagnostics: readonly Diagnostic[];
}

export function format(text: string): FormatResult {
  return formatText(text);
}
