/**
 * Slips of the upstream benchmark data that its statements are read past, here rather than in
 * the language: the engine treats a user's IR as written.
 */

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The Encode args key `" facets"` (a near miss of `facets`, in a few benchmark statements). */
const SPACED_FACETS = ' facets';

/**
 * A benchmark statement as its authors meant it: an Encode's `args[" facets"]` is read as
 * facets (merged under `args.facets`, which wins). Any other statement is returned as it is.
 */
export function asIntended(ir: unknown): unknown {
  if (!isPlainObject(ir) || ir.op !== 'Encode' || !isPlainObject(ir.args) || !Object.hasOwn(ir.args, SPACED_FACETS)) return ir;
  const { [SPACED_FACETS]: spaced, ...args } = ir.args;
  if (isPlainObject(spaced) && (args.facets === undefined || isPlainObject(args.facets))) args.facets = { ...spaced, ...(args.facets as Record<string, unknown> | undefined) };
  return { ...ir, args };
}
