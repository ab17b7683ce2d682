/** Building mechanical fixes against a statement's source map. */
import type { Fix, Range } from './diagnostic.js';
import { resolveKeyRange, type SourceMap } from './sourceMap.js';

/**
 * The text replacing `oldText` at `range`, keeping the source's quoting: a bare word (a DSL
 * keyword or identifier) or a JSON string literal. Undefined when the range is not exactly the
 * old text, since an edit there could damage the source.
 */
export function replacementText(range: Range, oldText: string, newText: string, bare = false): string | undefined {
  const length = range.end.offset - range.start.offset;
  if (length === oldText.length) return newText;
  if (!bare && length === JSON.stringify(oldText).length) return JSON.stringify(newText);
  return undefined;
}

/** A fix replacing the string value at `path`, when the map holds exactly its span. */
export function replaceValueFix(map: SourceMap | undefined, path: string, oldValue: string, newValue: string): Fix | undefined {
  const range = map?.get(path);
  const newText = range && replacementText(range, oldValue, newValue);
  return range && newText !== undefined
    ? { message: `replace '${oldValue}' with '${newValue}'`, edits: [{ range, newText }] }
    : undefined;
}

/** A fix renaming the field at `path`, when the map holds the span of its name (`<path>#key`). */
export function renameKeyFix(map: SourceMap | undefined, path: string, oldKey: string, newKey: string): Fix | undefined {
  const range = resolveKeyRange(map, path);
  const newText = range && replacementText(range, oldKey, newKey);
  return range && newText !== undefined ? { message: `rename '${oldKey}' to '${newKey}'`, edits: [{ range, newText }] } : undefined;
}

/** A fix swapping two string or number values (e.g. a time range's start and end). */
export function swapValuesFix(map: SourceMap | undefined, a: { path: string; value: string | number }, b: { path: string; value: string | number }, message: string): Fix | undefined {
  const ra = map?.get(a.path);
  const rb = map?.get(b.path);
  if (!ra || !rb) return undefined;
  const na = replacementText(ra, String(a.value), String(b.value), typeof a.value === 'number');
  const nb = replacementText(rb, String(b.value), String(a.value), typeof b.value === 'number');
  return na === undefined || nb === undefined ? undefined : { message, edits: [{ range: ra, newText: na }, { range: rb, newText: nb }] };
}
