/**
 * Limits of the input every reader enforces, so that hostile or runaway input is refused with a
 * diagnostic (`too-deep`) rather than a stack overflow. Documented in spec/syntax.md, "Limits".
 */

/** The deepest nesting of lists and objects a DSL script or a JSON IR may have. */
export const MAX_NESTING = 100;

/**
 * The deepest an IR value may be (validateIr, run): the literal limit plus room for the IR's own
 * levels above a DSL literal (`args.facets.…`, a dotted `SET a.b.c` path), so that whatever the
 * DSL reader accepts, validation accepts too.
 */
export const MAX_IR_DEPTH = MAX_NESTING + 10;

/**
 * An integer beyond 2^53 − 1 in size, which a JSON number read by JavaScript no longer holds
 * exactly (the checker's `unsafe-integer`; validation's fast path looks for it on its walk).
 */
export function isUnsafeInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);
}

/** The longest stored string a script may hold by default (UTF-16 units: 16 Mi), `t2m run --max-text`. */
export const DEFAULT_MAX_TEXT_LENGTH = 16 * 1024 * 1024;
