/**
 * Source maps tie a statement's IR back to source text: the key is a dotted JSON path into the
 * statement's IR (`""` for the whole statement, `"target.filter.limit"`, `"args.tags.1"`), the
 * value is the range it came from. A key `"<path>#key"` may also map the span of the field's
 * name itself (JSON keys, DSL keywords), so a misspelt field can be fixed in place.
 */
import type { Range } from './diagnostic.js';
import { SourceRange, plainRange } from './sourceRange.js';

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

/**
 * A source map built only when it is first read: the DSL front end hands one out per statement
 * and builds its entries (from the statement's AST) the first time anything asks for a range,
 * so the happy path, which asks for none, builds none. It is a `Map` in every respect (reads,
 * iteration, size, writes all build it first); `materialize` turns any source map into a plain,
 * already-built `Map` for code that copies maps without calling their methods (`structuredClone`,
 * `postMessage`).
 */
export class LazySourceMap extends Map<string, Range> {
  /** Writes the entries into the map it is given (this map: no second map to copy from). */
  private pending: ((into: Map<string, Range>) => void) | undefined;
  /**
   * Entries built from the AST hold its ranges (`SourceRange`, positions computed when read);
   * each is replaced by plain data when read (`get`), all of them before any iteration, so what
   * comes out is plain. A statement with a warning reads one or two of its entries.
   */
  private lazyRanges = false;

  constructor(build: (into: Map<string, Range>) => void) {
    super();
    this.pending = build;
  }

  /** Whether the entries have been built yet (for tests). */
  get built(): boolean {
    return this.pending === undefined;
  }

  private force(): void {
    const build = this.pending;
    if (build === undefined) return;
    this.pending = undefined;
    // The builder's reads and writes go through this map's methods, which build nothing now.
    build(this);
    this.lazyRanges = true;
  }

  /** Built, with every range plain (before iteration). */
  private forcePlain(): void {
    this.force();
    if (!this.lazyRanges) return;
    this.lazyRanges = false;
    // Setting a key again keeps its place.
    for (const [k, v] of super.entries()) if (v instanceof SourceRange) super.set(k, plainRange(v));
  }

  override get(key: string): Range | undefined {
    this.force();
    const v = super.get(key);
    if (!(v instanceof SourceRange)) return v;
    const plain = plainRange(v);
    super.set(key, plain);
    return plain;
  }
  override has(key: string): boolean {
    this.force();
    return super.has(key);
  }
  override set(key: string, value: Range): this {
    this.force();
    return super.set(key, value);
  }
  override delete(key: string): boolean {
    this.force();
    return super.delete(key);
  }
  override clear(): void {
    this.pending = undefined;
    super.clear();
  }
  override get size(): number {
    this.force();
    return super.size;
  }
  override forEach(fn: (value: Range, key: string, map: Map<string, Range>) => void, thisArg?: unknown): void {
    this.forcePlain();
    super.forEach(fn, thisArg);
  }
  override entries(): MapIterator<[string, Range]> {
    this.forcePlain();
    return super.entries();
  }
  override keys(): MapIterator<string> {
    this.force();
    return super.keys();
  }
  override values(): MapIterator<Range> {
    this.forcePlain();
    return super.values();
  }
  override [Symbol.iterator](): MapIterator<[string, Range]> {
    this.forcePlain();
    return super[Symbol.iterator]();
  }
}

/** A plain `Map` with the same entries (built now if `map` is lazy), safe to structured-clone. */
export function materialize(map: SourceMap): SourceMap {
  return map instanceof LazySourceMap ? new Map(map) : map;
}
