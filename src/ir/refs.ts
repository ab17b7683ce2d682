/** Facts of an IR statement about its references (the `_let` / `{"$ref"}` extension, spec/checks.md#references). */
import { REF_ARGS, isRef } from '../language/index.js';
import type { IR } from './schema.js';

export type Refs = ReadonlyArray<{ readonly path: string; readonly name: string }>;
const NO_REFS: Refs = Object.freeze([]);

/**
 * The references of a statement where ids go, with their IR paths. A statement with none (the
 * usual one: the checker and the run loop ask of every statement) gets one shared empty list.
 */
export function refsOf(ir: IR): Refs {
  const ids: unknown = ir.target?.ids;
  const arg = REF_ARGS[ir.op];
  const single: unknown = arg !== undefined ? (ir.args as Record<string, unknown> | undefined)?.[arg] : undefined;
  if (ids === undefined && (single === null || typeof single !== 'object')) return NO_REFS;
  const out: Array<{ path: string; name: string }> = [];
  if (isRef(ids)) out.push({ path: 'target.ids', name: ids.$ref });
  else if (Array.isArray(ids)) ids.forEach((id, i) => { if (isRef(id)) out.push({ path: `target.ids.${i}`, name: id.$ref }); });
  if (isRef(single)) out.push({ path: `args.${arg}`, name: single.$ref });
  return out.length ? out : NO_REFS;
}

