/**
 * The one place that chains the front-end stages (see ARCHITECTURE.md):
 * DSL text → parse → astToIr → validateIr → check → `CheckedScript`, and back: IR → irsToScript
 * → print. IR JSON (an object, an array or JSONL) enters at validateIr with positions kept by the
 * JSON reader, so both inputs get the same diagnostics with line:column ranges. The engine runs
 * only a `CheckedScript`, which only this module makes: validation and the checker run once.
 */
import { endOffset, startOffset } from './diagnostics/sourceRange.js';
import { applyPolicy, check, checkValues, type InputLanguage, type Policy } from './check/index.js';
import { type Diagnostic, hasErrors, type Range } from './diagnostics/diagnostic.js';
import { LineIndex } from './diagnostics/position.js';
import type { SourceMap } from './diagnostics/sourceMap.js';
import { astToIr, dslName, irsToScript } from './convert/index.js';
import { type JsonItem, readJson, readJsonl } from './ir/json.js';
import type { IR } from './ir/schema.js';
import { irConformance } from './ir/conforms.js';
import { validateIr } from './ir/validate.js';
import { DEFAULT_MAX_TEXT_LENGTH } from './language/limits.js';
import { print } from './convert/index.js';
import { parse } from './syntax/index.js';
import type { Script } from './syntax/ast.js';

export type { Policy };

declare const checkedBrand: unique symbol;

/**
 * A script that validation and the checker accepted (under `policy`): the only input the engine
 * runs. Only `validateAndCheck` (through `textToIr`, `readInput` or `checkIrs`) makes one.
 */
export interface CheckedScript {
  readonly [checkedBrand]: true;
  readonly irs: readonly IR[];
  readonly sourceMaps: readonly (SourceMap | undefined)[];
  /** The warnings validation and the checker had (located); errors refuse instead. */
  readonly warnings: readonly Diagnostic[];
  readonly policy: Policy;
  /** Per statement, whether validation's walk found no string longer than `limit` (the engine's text limit then need not measure it again). */
  readonly within: { readonly limit: number; readonly flags: readonly boolean[] };
}

function seal(script: Omit<CheckedScript, typeof checkedBrand>): CheckedScript {
  const sealed = Object.freeze(script) as CheckedScript;
  SEALED.add(sealed);
  return sealed;
}

/** True for a value `checkIrs`/`readInput` made (a frozen CheckedScript), not for plain IRs. */
export function isCheckedScript(x: unknown): x is CheckedScript {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && SEALED.has(x);
}
const SEALED = new WeakSet<object>();

export interface FrontEndOptions {
  readonly policy?: Policy;
  /** Strings longer than this are measured by the engine's limits, not vouched for by validation (default: the engine's default text limit). */
  readonly maxTextLength?: number;
}

export interface FrontEndResult {
  /** The syntax tree (DSL input only; partial when there are syntax errors). */
  readonly script?: Script;
  /**
   * The statements that validated, in script order, with their source maps at the same index.
   * When `diagnostics` has errors this may be missing statements.
   */
  readonly irs: IR[];
  readonly sourceMaps: SourceMap[];
  readonly diagnostics: Diagnostic[];
  /** How many statements the input holds, valid or not (those that could not be read included). */
  readonly statements: number;
  /** The script the engine runs, when there is no error. */
  readonly checked?: CheckedScript;
}

/** Syntax errors that stand for a statement the parser could not read at all (no verb). */
const UNREAD_STATEMENT = new Set(['unknown-verb', 'expected-statement']);

/**
 * DSL text → IR: parse, convert, validate and check. With syntax errors the script is not
 * valid, but the statements the errors do not touch are still converted and checked so that
 * one typo does not hide every other problem.
 */
export function textToIr(text: string, options: FrontEndOptions = {}): FrontEndResult {
  const parsed = parse(text);
  const converted = astToIr(parsed.script);
  const spoiled = new Set<number>();
  for (const d of parsed.diagnostics) {
    const owner = d.severity === 'error' ? statementOfSyntaxError(d, parsed.script, text) : undefined;
    if (owner !== undefined) spoiled.add(owner);
  }
  const kept = converted.irs.map((_, i) => i).filter((i) => !spoiled.has(i));
  const items = kept.map((i) => ({ value: converted.irs[i], sourceMap: converted.sourceMaps[i] ?? new Map<string, Range>(), statement: i }));
  const result = validateAndCheck(items, options, 'dsl');
  const conversion = (converted.diagnostics ?? []).filter((d) => d.statement === undefined || !spoiled.has(d.statement));
  const diagnostics = [...parsed.diagnostics, ...conversion, ...result.diagnostics];
  diagnostics.sort(byPosition);
  const statements = parsed.script.statements.length + parsed.diagnostics.filter((d) => UNREAD_STATEMENT.has(d.code)).length;
  return { script: parsed.script, ...result, diagnostics, statements, checked: checkedOf(result, diagnostics, options) };
}

/**
 * The statement a syntax error spoils: the last one starting at or before it, unless that one
 * was closed by its `;` before the error (then the error starts text that is no statement of the
 * tree, like a misspelt verb, and spoils none). A missing `;` spoils none either: the parser read
 * both statements whole. An error without a range is at the end of the text.
 */
function statementOfSyntaxError(d: Diagnostic, script: Script, text: string): number | undefined {
  if (d.code === 'missing-semicolon') return undefined;
  const offset = d.range?.start.offset ?? text.length;
  // The last statement starting at or before it (statements are in source order): a binary
  // search, so that thousands of errors over thousands of statements stay linear.
  const statements = script.statements;
  let lo = 0;
  let hi = statements.length - 1;
  let owner: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (startOffset(statements[mid].loc) <= offset) {
      owner = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (owner === undefined) return undefined;
  const end = endOffset(script.statements[owner].loc);
  const closed = text[end - 1] === ';';
  return closed && offset >= end ? undefined : owner;
}

function byPosition(a: Diagnostic, b: Diagnostic): number {
  return (a.range?.start.offset ?? Infinity) - (b.range?.start.offset ?? Infinity) || (a.statement ?? -1) - (b.statement ?? -1);
}

/**
 * Validate and check IR values that carry source maps (from DSL or from JSON text). `source`
 * says which the person wrote, so that messages and fixes speak it (DSL clauses or IR paths).
 */
export function validateAndCheck(
  items: ReadonlyArray<Pick<JsonItem, 'value' | 'sourceMap'> & { readonly statement?: number }>,
  options: FrontEndOptions = {},
  source: InputLanguage = 'ir',
): { irs: IR[]; sourceMaps: SourceMap[]; diagnostics: Diagnostic[]; within: CheckedScript['within'] } {
  const irs: IR[] = [];
  const sourceMaps: SourceMap[] = [];
  const diagnostics: Diagnostic[] = [];
  const statements: number[] = [];
  // Per IR, whether validation's walk vouched for it to the checker (CheckOptions.vouched).
  const vouched: boolean[] = [];
  // Per IR, whether that walk found no string over the text limit (the engine's limits then skip it).
  const within: boolean[] = [];
  const maxText = options.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH;
  items.forEach((item, i) => {
    const statement = item.statement ?? i;
    // The usual case, an IR validation has nothing to say about, is decided without zod.
    const conformance = irConformance(item.value, maxText);
    if (conformance !== 'no') {
      irs.push(item.value as IR);
      sourceMaps.push(item.sourceMap);
      statements.push(statement);
      vouched.push(conformance === 'vouched');
      within.push(true);
      return;
    }
    const wording = source === 'dsl' ? dslName : undefined;
    const v = validateIr(item.value, item.sourceMap, statement, wording);
    diagnostics.push(...v.diagnostics);
    if (!v.ir) {
      // Nested past the limit: nothing more is read of it.
      if (v.diagnostics.some((d) => d.code === 'too-deep')) return;
      // The shape is wrong: still judge the values it did not reject (see checkValues).
      const skip = v.diagnostics.flatMap((d) => (d.severity === 'error' && d.path !== undefined ? [d.path] : []));
      diagnostics.push(...checkValues(item.value, { sourceMap: item.sourceMap, statement, skip, source, wording }));
      return;
    }
    irs.push(v.ir);
    sourceMaps.push(item.sourceMap);
    statements.push(statement);
    vouched.push(false);
    within.push(false);
  });
  // check() numbers statements by position among the valid ones; map them back to the script's.
  const checked = check(irs, { sourceMaps, source, wording: source === 'dsl' ? dslName : undefined, vouched }).map((d) => (d.statement === undefined ? d : { ...d, statement: statements[d.statement] }));
  diagnostics.push(...checked);
  diagnostics.sort(byStatementAndOffset);
  return { irs, sourceMaps, diagnostics: applyPolicy(diagnostics, options.policy ?? 'default'), within: { limit: maxText, flags: within } };
}

function checkedOf(result: ReturnType<typeof validateAndCheck>, diagnostics: readonly Diagnostic[], options: FrontEndOptions): CheckedScript | undefined {
  if (hasErrors(diagnostics)) return undefined;
  return seal({ irs: result.irs, sourceMaps: result.sourceMaps, warnings: diagnostics, policy: options.policy ?? 'default', within: result.within });
}

/**
 * IR values (from any caller: the engine's `run`, the benchmark, an agent) → a `CheckedScript`,
 * or the diagnostics that refuse them. `sourceMaps[i]`, when given, locates statement i's
 * diagnostics.
 */
export function checkIrs(
  irs: readonly unknown[],
  options: FrontEndOptions & { readonly sourceMaps?: readonly (SourceMap | undefined)[] } = {},
): { ok: true; script: CheckedScript } | { ok: false; diagnostics: Diagnostic[] } {
  const maps = options.sourceMaps;
  const maxText = options.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH;
  const policy = options.policy ?? 'default';
  // The usual script, every statement of which validation's walk accepts, goes straight to the
  // checker (one loop, no per-statement objects: the benchmark runs thousands of one-statement scripts).
  const vouched = new Array<boolean>(irs.length);
  let conforming = true;
  for (let i = 0; i < irs.length && conforming; i++) {
    const c = irConformance(irs[i], maxText);
    conforming = c !== 'no';
    vouched[i] = c === 'vouched';
  }
  if (conforming) {
    const valid = irs as readonly IR[];
    const diagnostics = check(valid, { sourceMaps: maps, policy, vouched });
    if (diagnostics.length > 1) diagnostics.sort(byStatementAndOffset);
    if (hasErrors(diagnostics)) return { ok: false, diagnostics };
    return { ok: true, script: seal({ irs: valid, sourceMaps: maps ?? [], warnings: diagnostics, policy, within: { limit: maxText, flags: new Array<boolean>(irs.length).fill(true) } }) };
  }
  const items = irs.map((value, i) => ({ value, sourceMap: maps?.[i] as SourceMap }));
  const result = validateAndCheck(items, options);
  if (hasErrors(result.diagnostics) || result.irs.length !== irs.length) return { ok: false, diagnostics: result.diagnostics };
  return { ok: true, script: seal({ irs: result.irs, sourceMaps: maps ?? [], warnings: result.diagnostics, policy: options.policy ?? 'default', within: result.within }) };
}

function byStatementAndOffset(a: Diagnostic, b: Diagnostic): number {
  return (a.statement ?? -1) - (b.statement ?? -1) || (a.range?.start.offset ?? 0) - (b.range?.start.offset ?? 0);
}

/** IR → canonical DSL text. */
export function irsToText(irs: readonly IR[]): string {
  return print(irsToScript(irs));
}

/**
 * Canonical formatting of DSL text (number literals kept as written); on syntax errors the text
 * is left alone and the errors returned.
 */
export function formatText(text: string): { text?: string; diagnostics: Diagnostic[] } {
  const parsed = parse(text);
  if (hasErrors(parsed.diagnostics)) return { diagnostics: parsed.diagnostics };
  return { text: print(parsed.script, { source: text }), diagnostics: parsed.diagnostics };
}

// ---------------------------------------------------------------- input detection

export type InputKind = 'dsl' | 'json-object' | 'json-array' | 'jsonl';

/**
 * What a text holds: JSON starts with `{` or `[` (a DSL script starts with a verb or a `#`
 * comment). Text starting with `{` that is not one JSON document but whose first line is a whole
 * JSON object is JSONL (even when a later line is broken, so that line gets its own diagnostic).
 */
export function detectInput(text: string): InputKind {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) return 'json-array';
  if (!trimmed.startsWith('{')) return 'dsl';
  // A document whose first line is a whole object and that has more lines cannot be one JSON value.
  const lines = text.split('\n').filter((l) => l.trim());
  return lines.length > 1 && isJsonObject(lines[0]) ? 'jsonl' : 'json-object';
}

function isJsonObject(line: string): boolean {
  try {
    const v = JSON.parse(line);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

export interface InputResult extends FrontEndResult {
  readonly kind: InputKind;
}

/** Any input (DSL, a JSON IR object, a JSON array of IRs, JSONL) → checked IR with diagnostics. */
export function readInput(text: string, options: FrontEndOptions = {}): InputResult {
  const kind = detectInput(text);
  if (kind === 'dsl') return { kind, ...textToIr(text, options) };
  const lines = new LineIndex(text);
  const read = kind === 'jsonl' ? readJsonl(text, lines) : readJson(text, lines);
  if (kind !== 'jsonl' && hasErrors(read.diagnostics)) return { kind, irs: [], sourceMaps: [], diagnostics: read.diagnostics, statements: read.records };
  const result = validateAndCheck(read.items, options);
  const diagnostics = [...read.diagnostics, ...result.diagnostics];
  return { kind, ...result, diagnostics, statements: read.records, checked: checkedOf(result, diagnostics, options) };
}
