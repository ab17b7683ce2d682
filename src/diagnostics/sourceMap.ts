/**
 * Source maps tie a statement's IR back to source text: the key is a dotted JSON path into the
 * statement's IR (`""` for the whole statement, `"target.filter.limit"`, `"args.tags.1"`), the
 * value is the range it came from. A key `"<path>#key"` may also map the span of the field's
 * name itself (JSON keys, DSL keywords), so a misspelt field can be fixed in place.
 */
import type { Range } from './diagnostic.js';

export type SourceMap = Map<string, Range>;

/** The dotted path of `child` under `parent` (`""` is the root). */
export function joinPath(parent: string, child: string | number): string {
  return parent === '' ? String(child) : `${parent}.${child}`;
}

/** The parent of a dotted path; the parent of a top-level key is `""`. */
export function parentPath(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
}

/** The range of `path`, or of its nearest mapped ancestor; undefined when nothing is mapped. */
export function resolveRange(map: SourceMap | undefined, path: string): Range | undefined {
  if (!map) return undefined;
  let p = path;
  for (;;) {
    const r = map.get(p);
    if (r) return r;
    if (p === '') return undefined;
    p = parentPath(p);
  }
}

/** The range of a field's name when the source map holds it (see `#key` above). */
export function resolveKeyRange(map: SourceMap | undefined, path: string): Range | undefined {
  return map?.get(`${path}#key`);
}

/** The part of `map` under `prefix` (e.g. one element `"2"` of an array), re-keyed relative to it. */
export function subSourceMap(map: SourceMap, prefix: string): SourceMap {
  const out: SourceMap = new Map();
  for (const [key, range] of map) {
    if (key === prefix) out.set('', range);
    else if (key.startsWith(`${prefix}.`)) out.set(key.slice(prefix.length + 1), range);
    else if (key.startsWith(`${prefix}#`)) continue;
  }
  return out;
}
