/**
 * The one diagnostic type of the toolchain. Parser, converter, checker, engine, CLI and editor
 * services all report user mistakes as Diagnostics; exceptions are for broken internal invariants.
 */
import { CODES, type Code, type Severity } from './codes.js';

export type { Code, Severity };

/** A point in source text. `line` and `column` are 1-based, `offset` is a 0-based UTF-16 index. */
export interface Position {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** A half-open span of source text: `start` inclusive, `end` exclusive. */
export interface Range {
  readonly start: Position;
  readonly end: Position;
}


export interface TextEdit {
  readonly range: Range;
  readonly newText: string;
}

/** A fix that can be applied mechanically (e.g. replace a misspelt keyword). */
export interface Fix {
  readonly message: string;
  readonly edits: readonly TextEdit[];
}

export interface RelatedInformation {
  readonly message: string;
  readonly range?: Range;
}

export interface Diagnostic {
  /** Stable kebab-case code, e.g. `unexpected-token`, `target-exclusive`: one of the registry (./codes.ts). */
  readonly code: Code;
  readonly severity: Severity;
  readonly message: string;
  /**
   * Where the problem is. Absent only when the input has no source text positions
   * (e.g. an IR object built in memory); IR parsed from JSON text carries positions.
   */
  readonly range?: Range;
  /** JSON path inside the statement's IR (e.g. `target.filter.limit`), when the problem is in the IR. */
  readonly path?: string;
  /** Index of the statement (0-based) in the script, when the problem belongs to one. */
  readonly statement?: number;
  readonly related?: readonly RelatedInformation[];
  readonly fix?: Fix;
}

/** A diagnostic with its code's default severity (unless `extra` gives one). */
export function diagnostic(code: Code, message: string, extra: Partial<Omit<Diagnostic, 'code' | 'message'>> = {}): Diagnostic {
  return { code, severity: CODES[code].severity, message, ...extra };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** The diagnostic with `f` applied to every message it shows (its own, its notes', its fix's): how a message that quotes stored text is made safe to print. */
export function mapMessages(d: Diagnostic, f: (message: string) => string): Diagnostic {
  return {
    ...d,
    message: f(d.message),
    ...(d.related ? { related: d.related.map((r) => ({ ...r, message: f(r.message) })) } : {}),
    ...(d.fix ? { fix: { ...d.fix, message: f(d.fix.message) } } : {}),
  };
}
