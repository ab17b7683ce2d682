/** Shared knowledge of where in an IR particular kinds of values live. */
import type { Op } from '../ir/schema.js';
import type { RuleContext } from './rule.js';

/** Ops that change stored memories (stage STO), to which write safety rules apply. */
export function isWrite(op: Op): boolean {
  return op !== 'Encode' && op !== 'Retrieve' && op !== 'Summarize';
}

/** The paths of a statement's time ranges: the filter's, and Delete's own `args.time_range`. */
export function timeRangePaths(op: Op): string[] {
  return op === 'Delete' ? ['target.filter.time_range', 'args.time_range'] : ['target.filter.time_range'];
}

/** Matches `path` against a pattern of dotted segments where `*` stands for one segment. */
export function matchPath(pattern: string, path: string): boolean {
  const p = pattern.split('.');
  const s = path.split('.');
  return p.length === s.length && p.every((seg, i) => seg === '*' || seg === s[i]);
}

/** The paths of a field table's entries, whatever their op (a value rule's scope, see `Rule.values`). */
export function tablePaths(entries: readonly string[]): string[] {
  return [...new Set(entries.map((e) => e.slice(e.indexOf(':') + 1)))];
}

/** A field table: `Op:path` entries (or `*:path` for every op). */
export function fieldTable(entries: readonly string[]): (op: Op, path: string) => boolean {
  // Rules ask about every value of every statement: exact paths are one map lookup, and a path
  // is split only when a pattern with `*` could match it.
  const exact = new Map<string, Set<string>>();
  const wild: Array<{ op: string; segments: string[] }> = [];
  for (const e of entries) {
    const colon = e.indexOf(':');
    const op = e.slice(0, colon);
    const pattern = e.slice(colon + 1);
    if (pattern.includes('*')) wild.push({ op, segments: pattern.split('.') });
    else if (exact.has(pattern)) exact.get(pattern)!.add(op);
    else exact.set(pattern, new Set([op]));
  }
  return (op, path) => {
    const ops = exact.get(path);
    if (ops !== undefined && (ops.has(op) || ops.has('*'))) return true;
    let segments: string[] | undefined;
    for (const e of wild) {
      if (e.op !== '*' && e.op !== op) continue;
      segments ??= path.split('.');
      if (e.segments.length === segments.length && e.segments.every((seg, i) => seg === '*' || seg === segments![i])) return true;
    }
    return false;
  };
}

/** Dotted paths split once: rules ask `valueAt` about the same few paths for every statement. */
const SPLIT = new Map<string, readonly string[]>();

/** The value at a dotted path of a JSON value, or undefined. */
export function valueAt(root: unknown, path: string): unknown {
  if (path === '') return root;
  let v: unknown = root;
  let keys = SPLIT.get(path);
  if (keys === undefined) {
    keys = path.split('.');
    // Paths built from data (rare) would grow the table without bound: keep it to the constants.
    if (SPLIT.size < 1024) SPLIT.set(path, keys);
  }
  for (const k of keys) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/**
 * A field named for the person who wrote it: for DSL input the clause with its IR path
 * (`CONFIRM (meta.confirmation)`, worded by the front end's `ctx.wording`), for IR JSON the path alone.
 */
export function spell(ctx: Pick<RuleContext, 'ir' | 'source' | 'wording'>, path: string): string {
  const dsl = ctx.source === 'dsl' ? ctx.wording?.(ctx.ir.op, path) : undefined;
  return dsl ? `${dsl} (${path})` : path;
}
