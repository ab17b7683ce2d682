/**
 * The engine's resource limits (`RunOptions.limits`, `t2m run --max-*`): how many statements a
 * script may have, how long a stored string may be, and how many rows one read returns. Each has
 * a documented default (spec/semantics.md, "Limits"); going over the first two refuses the script
 * with `limit-exceeded` before anything runs, a read over the third returns the first rows with a
 * `truncated` warning.
 */
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { DEFAULT_MAX_TEXT_LENGTH } from '../language/limits.js';

export interface Limits {
  /** Statements per script (default 100,000). */
  readonly maxStatements?: number;
  /** UTF-16 units in any one string of a statement's args (default 16,777,216: 16 Mi). */
  readonly maxTextLength?: number;
  /** Rows one Retrieve returns (default 10,000); the rest are left out with a `truncated` warning. */
  readonly maxRows?: number;
}

export const DEFAULT_LIMITS: Required<Limits> = { maxStatements: 100_000, maxTextLength: DEFAULT_MAX_TEXT_LENGTH, maxRows: 10_000 };

function limitOf(limits: Limits, key: keyof Limits): number {
  const v = limits[key];
  return typeof v === 'number' && v >= 0 ? v : DEFAULT_LIMITS[key];
}

export function resolveLimits(limits: Limits | undefined): Required<Limits> {
  // The usual call (no limits given): one object, no closure per run.
  if (limits === undefined) return { maxStatements: DEFAULT_LIMITS.maxStatements, maxTextLength: DEFAULT_LIMITS.maxTextLength, maxRows: DEFAULT_LIMITS.maxRows };
  return { maxStatements: limitOf(limits, 'maxStatements'), maxTextLength: limitOf(limits, 'maxTextLength'), maxRows: limitOf(limits, 'maxRows') };
}

/** The script has more statements than allowed. */
export function tooManyStatements(irs: readonly unknown[], limits: Required<Limits>): Diagnostic | undefined {
  if (irs.length <= limits.maxStatements) return undefined;
  return diagnostic('limit-exceeded', `the script has ${irs.length} statements, over the limit of ${limits.maxStatements} (RunOptions.limits.maxStatements, t2m run --max-statements)`);
}

/**
 * The script's size against the limits, before validation: too many statements, or a string in
 * some statement's args longer than allowed (each reported at its path, the first few only).
 * `within[i]` true says statement i has no string over the text limit (validation's fast path
 * measured them on its walk, `conformsToIr(ir, maxTextLength)`): it is not walked again.
 */
export function checkLimits(irs: readonly unknown[], limits: Required<Limits>, within?: readonly boolean[]): Diagnostic[] {
  const tooMany = tooManyStatements(irs, limits);
  if (tooMany) return [tooMany];
  const out: Diagnostic[] = [];
  for (let statement = 0; statement < irs.length; statement++) {
    if (within !== undefined && within[statement] === true) continue;
    const ir = irs[statement];
    const args = ir && typeof ir === 'object' ? (ir as Record<string, unknown>).args : undefined;
    if (longestString(args) > limits.maxTextLength) overLimit(args, statement, limits, out);
  }
  return out;
}

// Each entry is a value and the entry of its parent, with its key: paths are spelled only for a refusal.
type Entry = { readonly v: unknown; readonly key: string; readonly parent: Entry | null };
const pathOf = (e: Entry): string => (e.parent ? `${pathOf(e.parent)}.${e.key}` : e.key);

/** The strings of a statement's args over the text limit, each at its path (the first few of the script). */
function overLimit(args: unknown, statement: number, limits: Required<Limits>, out: Diagnostic[]): void {
  const stack: Entry[] = [{ v: args, key: 'args', parent: null }];
  while (stack.length && out.length < 10) {
    const e = stack.pop()!;
    const v = e.v;
    if (typeof v === 'string') {
      if (v.length > limits.maxTextLength) {
        out.push(diagnostic('limit-exceeded', `this text is ${v.length} characters long, over the limit of ${limits.maxTextLength} (RunOptions.limits.maxTextLength, t2m run --max-text)`, { path: pathOf(e), statement }));
      }
    } else if (v && typeof v === 'object') {
      // Depth is validation's business (too-deep); the walk itself needs no recursion.
      for (const k in v) if (Object.hasOwn(v, k)) stack.push({ v: (v as Record<string, unknown>)[k], key: k, parent: e });
    }
  }
}

const STACK: unknown[] = [];

/** The length of the longest string in `value` (0 when none): the common case, within the limit, without spelling paths. */
function longestString(value: unknown): number {
  let longest = 0;
  // One stack for every call (emptied as it goes): the usual statement allocates nothing here.
  const stack = STACK;
  stack.push(value);
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.length > longest) longest = v.length;
    } else if (v && typeof v === 'object') {
      for (const k in v) if (Object.hasOwn(v, k)) stack.push((v as Record<string, unknown>)[k]);
    }
  }
  return longest;
}
