/**
 * Reads IR JSON text while keeping positions, so IR files get line:column diagnostics like DSL
 * scripts: a JSON object (one instruction), a JSON array of instructions, a plan object
 * `{"schema_list": [...]}`, or JSONL (one per line). Each instruction comes with a SourceMap from its JSON paths to source ranges, including
 * `<path>#key` entries for the spans of property names.
 */
import { type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { LineIndex } from '../diagnostics/position.js';
import { joinPath, type SourceMap } from '../diagnostics/sourceMap.js';
import { MAX_NESTING } from '../language/index.js';

export type JsonLayout = 'object' | 'array' | 'jsonl';

export interface JsonItem {
  readonly value: unknown;
  readonly sourceMap: SourceMap;
  /** 1-based line where the item starts (the line number of a JSONL record). */
  readonly line: number;
}

export interface JsonRead {
  readonly layout: JsonLayout;
  readonly items: JsonItem[];
  /** JSON syntax errors (`json-syntax`), with positions. Items of broken records are left out. */
  readonly diagnostics: Diagnostic[];
  /** How many instructions the text holds, broken ones included (as far as a broken text shows). */
  readonly records: number;
}

const PARSE_OPTIONS = { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false };

/**
 * The offset of the bracket that opens level MAX_NESTING + 1 of the JSON text `text[from, to)`,
 * if any: checked before parsing, as the JSON parser and everything after it recurse.
 */
function tooDeepAt(text: string, from = 0, to = text.length): number | undefined {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string (a broken one runs to the end; the parser reports it).
      for (i++; i < to; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) {
      if (++depth > MAX_NESTING) return i;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return undefined;
}

function tooDeepDiagnostic(offset: number, lines: LineIndex): Diagnostic {
  return { code: 'too-deep', severity: 'error', message: `JSON lists and objects nest deeper than ${MAX_NESTING} levels here; the instruction is not read`, range: lines.range(offset, offset + 1) };
}

/** Read one JSON document holding an instruction object or an array of them. */
export function readJson(text: string, lines = new LineIndex(text)): JsonRead {
  const deep = tooDeepAt(text);
  if (deep !== undefined) return { layout: text.trimStart().startsWith('[') ? 'array' : 'object', items: [], diagnostics: [tooDeepDiagnostic(deep, lines)], records: 1 };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  const diagnostics = syntaxDiagnostics(errors, lines, 0);
  if (!root || errors.length) {
    const layout = root?.type === 'array' ? 'array' : 'object';
    return { layout, items: [], diagnostics, records: layout === 'array' ? (root?.children?.length ?? 0) : 1 };
  }
  if (root.type === 'array') {
    const children = root.children ?? [];
    return {
      layout: 'array',
      items: children.map((n) => ({ value: nodeValue(n), sourceMap: mapNode(n, lines, 0), line: lines.position(n.offset).line })),
      diagnostics,
      records: children.length,
    };
  }
  const list = planList(root);
  if (list) {
    const children = list.children ?? [];
    return {
      layout: 'array',
      items: children.map((n) => ({ value: nodeValue(n), sourceMap: mapNode(n, lines, 0), line: lines.position(n.offset).line })),
      diagnostics,
      records: children.length,
    };
  }
  return { layout: 'object', items: [{ value: nodeValue(root), sourceMap: mapNode(root, lines, 0), line: 1 }], diagnostics, records: 1 };
}

/**
 * The array of `{"schema_list": [...]}` — the upstream benchmark's plan wrapper and the planner's
 * IR answer format — when `root` is that wrapper (an object with an array `schema_list` and no `op`).
 */
function planList(root: Node): Node | undefined {
  if (root.type !== 'object') return undefined;
  let list: Node | undefined;
  for (const prop of root.children ?? []) {
    const [key, value] = prop.children ?? [];
    if (key?.value === 'op') return undefined;
    if (key?.value === 'schema_list' && value?.type === 'array') list = value;
  }
  return list;
}

export interface JsonlRecord {
  /** 1-based line number of the record. */
  readonly line: number;
  /** The record, absent when its line is not valid JSON. */
  readonly item?: JsonItem;
  readonly diagnostics: Diagnostic[];
}

/** Read JSONL record by record: every non-blank line is one JSON value; a broken line never stops the rest. */
export function readJsonlRecords(text: string, lines = new LineIndex(text)): JsonlRecord[] {
  const records: JsonlRecord[] = [];
  let offset = 0;
  for (const raw of text.split('\n')) {
    const lineStart = offset;
    offset += raw.length + 1;
    if (!raw.trim()) continue;
    const line = lines.position(lineStart).line;
    const deep = tooDeepAt(raw);
    if (deep !== undefined) {
      records.push({ line, diagnostics: [tooDeepDiagnostic(lineStart + deep, lines)] });
      continue;
    }
    const errors: ParseError[] = [];
    const root = parseTree(raw, errors, PARSE_OPTIONS);
    if (!root || errors.length) records.push({ line, diagnostics: syntaxDiagnostics(errors, lines, lineStart) });
    else records.push({ line, item: { value: nodeValue(root), sourceMap: mapNode(root, lines, lineStart), line }, diagnostics: [] });
  }
  return records;
}

/** Read JSONL as one batch: the items of the valid lines, and the syntax errors of the others. */
export function readJsonl(text: string, lines = new LineIndex(text)): JsonRead {
  const records = readJsonlRecords(text, lines);
  return {
    layout: 'jsonl',
    items: records.flatMap((r) => (r.item ? [r.item] : [])),
    diagnostics: records.flatMap((r) => r.diagnostics),
    records: records.length,
  };
}

/**
 * One diagnostic per place: where the text breaks off, the parser also reports every brace it
 * was still waiting for, all at that same offset; the first error there is the one that says why.
 */
function syntaxDiagnostics(errors: readonly ParseError[], lines: LineIndex, base: number): Diagnostic[] {
  const seen = new Set<number>();
  return errors.flatMap((e) => {
    if (seen.has(e.offset)) return [];
    seen.add(e.offset);
    return [syntaxDiagnostic(e, lines, base)];
  });
}

function syntaxDiagnostic(e: ParseError, lines: LineIndex, base: number): Diagnostic {
  const start = base + e.offset;
  return {
    code: 'json-syntax',
    severity: 'error',
    message: `invalid JSON: ${describeParseError(printParseErrorCode(e.error))}`,
    range: lines.range(start, start + Math.max(1, e.length)),
  };
}

function describeParseError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The JSON value of a node (jsonc-parser's getNodeValue, but keeping `__proto__` keys as data). */
function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const prop of node.children ?? []) {
        const [key, value] = prop.children ?? [];
        if (key && value) Object.defineProperty(o, key.value as string, { value: nodeValue(value), enumerable: true, writable: true, configurable: true });
      }
      return o;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

/** Paths → ranges for every value (and property name, as `<path>#key`) under `node`. */
function mapNode(node: Node, lines: LineIndex, base: number): SourceMap {
  const map: SourceMap = new Map();
  const visit = (n: Node, path: string): void => {
    map.set(path, lines.range(base + n.offset, base + n.offset + n.length));
    if (n.type === 'object') {
      for (const prop of n.children ?? []) {
        const [key, value] = prop.children ?? [];
        if (!key || !value) continue;
        const p = joinPath(path, key.value as string);
        map.set(`${p}#key`, lines.range(base + key.offset, base + key.offset + key.length));
        visit(value, p);
      }
    } else if (n.type === 'array') {
      (n.children ?? []).forEach((c, i) => visit(c, joinPath(path, i)));
    }
  };
  visit(node, '');
  return map;
}
