/** Diagnostics for an editor: parse, convert, validate and check, exactly as the CLI's `t2m check`. */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { textToIr, type Policy } from '../pipeline.js';

export function getDiagnostics(text: string, policy: Policy = 'default'): Diagnostic[] {
  return textToIr(text, { policy }).diagnostics;
}
