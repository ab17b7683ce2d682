/** Building mechanical fixes against a statement's source map. */
import type { Fix, Range } from './diagnostic.ts';
import { resolveKeyRange, type SourceMap } from './sourceMap.ts';

/**
 * The text replacing `oldText` at `range`, keeping the source's quoting: a bare word (a DSL
 * keyword or identifier) or a JSON string literal. Undefined when the range is not exactly the
 * old text, since an edit there could damage the source.
 */
export function replacementText(range: Range, oldText: string, newText: string): string | undefined {
  const length = range.end.offset - range.start.offset;
  if (length === oldText.length) return newText;
  if (length === JSON.stringify(oldText).length) return JSON.stringify(newText);
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
