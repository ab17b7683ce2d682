/**
 * Mutating IRs for checker tests (test/check/output-fingerprint, test/check/value-scope): every
 * path of a JSON value, and a copy with one value put at a path.
 */

/** Every path of `v` in depth-first order, objects and arrays before their members; `leaf` for the rest. */
export function irPaths(v: unknown, prefix: string[] = [], out: { path: string[]; leaf: boolean }[] = []): typeof out {
  if (v !== null && typeof v === 'object') {
    out.push({ path: prefix, leaf: false });
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (const [k, x] of entries) irPaths(x, [...prefix, k], out);
  } else out.push({ path: prefix, leaf: true });
  return out;
}

/** A deep copy of `root` with a copy of `value` at `path` (objects made on the way where missing). */
export function setAt(root: unknown, path: readonly string[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string, unknown>;
  let o = copy;
  for (const k of path.slice(0, -1)) {
    if (o[k] === null || typeof o[k] !== 'object') o[k] = {};
    o = o[k] as Record<string, unknown>;
  }
  o[path[path.length - 1]] = structuredClone(value);
  return copy;
}
