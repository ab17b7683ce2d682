/**
 * Validation of untrusted JSON against the IR's zod schema, with zod's issues turned into
 * Diagnostics: a stable code, a message naming what was expected, a range resolved through the
 * statement's source map, and a "did you mean" fix for a misspelt verb, enum value or field.
 *
 * Unknown keys in the loose parts of the IR are real data and stay allowed; only an unknown key
 * that is a near miss of a known field of the same object is flagged (`unknown-field` warning).
 */
import * as z from 'zod';
import type { Code, Diagnostic, Fix } from '../diagnostics/diagnostic.js';
import { renameKeyFix, replaceValueFix } from '../diagnostics/fix.js';
import { resolveKeyRange, resolveRange, type SourceMap } from '../diagnostics/sourceMap.js';
import { closest } from '../diagnostics/suggest.js';
import { ENUMS, MAX_IR_DEPTH, STAGE_OF, STAGES, VERB_OF_OP } from '../language/index.js';
import { IR, OPS, type Op } from './schema.js';

export interface ValidateResult {
  /** The typed IR, present when the JSON has the IR's shape (warnings may still be reported). */
  readonly ir?: IR;
  readonly diagnostics: Diagnostic[];
}

type Path = ReadonlyArray<PropertyKey>;
type Issue = z.core.$ZodIssue;

/** The zod schema of each op's instruction, taken from the discriminated union itself. */
const SCHEMA_OF_OP: ReadonlyMap<string, z.ZodObject> = new Map(IR.options.map((o): [string, z.ZodObject] => [o.shape.op.value, o]));

/** The schema inside any `.optional()` wrappers. */
function unwrapOptional(schema: z.core.$ZodType): z.core.$ZodType {
  return schema instanceof z.ZodOptional ? unwrapOptional(schema.unwrap()) : schema;
}

/**
 * How the language the person wrote names the IR field at `path` of an `op` statement, when it
 * has a name for it (the DSL's clause: `ORDER BY`). Given by the front end; validation and the
 * checker speak IR paths only.
 */
export type FieldWording = (op: Op, path: string) => string | undefined;

/**
 * Validate one statement's JSON; `sourceMap` and `statement` locate the diagnostics, `wording`
 * (given for DSL input) names fields as the person wrote them (e.g. `ORDER BY`), else IR paths.
 * A valid result's `ir` is the caller's own object, not a copy: mutating it after validation
 * changes the validated value.
 */
export function validateIr(json: unknown, sourceMap?: SourceMap, statement?: number, wording?: FieldWording): ValidateResult {
  const out = new Reporter(json, sourceMap, statement, wording);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    out.report('invalid-type', `an instruction must be an object, got ${describe(json)}`, []);
    return { diagnostics: out.diagnostics };
  }
  // Depth and text first: the rest of validation (and every later stage) walks the value
  // recursively and stores its text, so a value nested past the limit or holding a lone
  // surrogate stops here.
  if (!inspectValue(out, json)) return { diagnostics: out.diagnostics };
  const op = (json as Record<string, unknown>).op;
  const schema = typeof op === 'string' ? SCHEMA_OF_OP.get(op) : undefined;
  if (!schema) {
    reportBadOp(out, op);
    return { diagnostics: out.diagnostics };
  }
  // Recurring slips whose meaning is plain are read with a warning (errors under --strict).
  const read = readSlips(out, json as Record<string, unknown>, op as Op);
  const parsed = IR.safeParse(read);
  if (!parsed.success) for (const issue of parsed.error.issues) reportIssue(out, issue, []);
  nearMissKeys(out, schema, read, []);
  // The IR is the value itself, not zod's copy: the schema has no defaults or transforms, so the
  // two are equal, but the copy orders keys by the schema and the round trip keeps them as written.
  // A statement with a slip read differently is a new value (the caller's is left as written).
  return parsed.success ? { ir: read as IR, diagnostics: out.diagnostics } : { diagnostics: out.diagnostics };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The slips benchmark data makes whose meaning is plain, read as meant with a warning
 * (spec/checks.md#stage-inferred, #misplaced-field): no `stage` or an unknown one (the op's stage);
 * `target.filter.tags` (`has_tags`); `target.time_range` beside the filter (inside it). Returns the
 * value itself when there is none, else a copy with them read.
 */
function readSlips(out: Reporter, json: Record<string, unknown>, op: Op): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  const own = () => (copy ??= structuredClone(json));
  const stage = json.stage;
  if (stage === undefined || (typeof stage === 'string' && !(STAGES as readonly string[]).includes(stage))) {
    const meant = STAGE_OF[op];
    out.report('stage-inferred', stage === undefined ? `no stage: ${op} runs at its stage ${meant}` : `unknown stage '${stage}': ${op} runs at its stage ${meant}`, ['stage'], {
      severity: 'warning',
      fix: typeof stage === 'string' ? out.replaceValue(['stage'], stage, meant) : undefined,
    });
    own().stage = meant;
  }
  const target = json.target;
  if (!isObject(target)) return copy ?? json;
  const filter = target.filter;
  if (isObject(filter) && Object.hasOwn(filter, 'tags') && !Object.hasOwn(filter, 'has_tags')) {
    out.report('misplaced-field', "'target.filter.tags' is read as 'target.filter.has_tags' (the filter's tag condition)", ['target', 'filter', 'tags'], {
      severity: 'warning',
      fix: out.replaceKey(['target', 'filter', 'tags'], 'tags', 'has_tags'),
      atKey: true,
    });
    const f = own().target as Record<string, Record<string, unknown>>;
    const { tags, ...rest } = f.filter;
    f.filter = { ...rest, has_tags: tags };
  }
  if (Object.hasOwn(target, 'time_range') && !(isObject(filter) && Object.hasOwn(filter, 'time_range'))) {
    out.report('misplaced-field', "'target.time_range' sits beside the filter; it is read as 'target.filter.time_range'", ['target', 'time_range'], { severity: 'warning', atKey: true });
    const t = own().target as Record<string, unknown>;
    const { time_range, ...rest } = t;
    own().target = { ...rest, filter: { ...(isObject(rest.filter) ? rest.filter : {}), time_range } };
  }
  // A limit beside the filter or the search bounds that selection (ignored, the read would be unbounded).
  const selection = isObject(target.search) ? 'search' : isObject(filter) ? 'filter' : undefined;
  if (selection && Object.hasOwn(target, 'limit') && !Object.hasOwn(target[selection] as object, 'limit')) {
    out.report('misplaced-field', `'target.limit' sits beside the ${selection}; it is read as 'target.${selection}.limit'`, ['target', 'limit'], { severity: 'warning', atKey: true });
    const t = own().target as Record<string, unknown>;
    const { limit, ...rest } = t;
    own().target = { ...rest, [selection]: { ...(rest[selection] as object), limit } };
  }
  return copy ?? json;
}

/** A string with a lone surrogate: UTF-8 (and so the store) cannot hold it; it would come back as U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const nativeWellFormed = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function';
export function isWellFormedText(text: string): boolean {
  return nativeWellFormed ? (text as string & { isWellFormed(): boolean }).isWellFormed() : !LONE_SURROGATE.test(text);
}

/** The most `invalid-text` diagnostics one statement gets. */
const MAX_TEXT_REPORTS = 10;

/**
 * Walks the value without recursion: reports the first place nested deeper than MAX_IR_DEPTH
 * (`too-deep`), strings or keys with lone surrogates (`invalid-text`) and values JSON does not
 * have (NaN, ±Infinity, a bigint or function in an IR built in memory: `invalid-value`). False
 * when the value must not go further.
 */
function inspectValue(out: Reporter, json: unknown): boolean {
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value: json, path: [] }];
  let reports = 0;
  const badText = (what: string, path: PropertyKey[]) => {
    if (reports++ < MAX_TEXT_REPORTS) {
      out.report('invalid-text', `${what} holds a lone surrogate (half of a UTF-16 pair), which no UTF-8 text can hold; it would be stored as U+FFFD`, path);
    }
  };
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (!isWellFormedText(value)) badText(path.length ? out.name(path) : 'the instruction', path);
      continue;
    }
    if ((typeof value === 'number' && !Number.isFinite(value)) || typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') {
      // Not JSON: it would be stored as null (or not at all), so it is refused rather than changed.
      out.report('invalid-value', `${path.length ? out.name(path) : 'the instruction'} is ${typeof value === 'number' ? String(value) : `a ${typeof value}`}, which is not a JSON value`, path);
      reports++;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= MAX_IR_DEPTH) {
      out.report('too-deep', `lists and objects nest deeper than ${MAX_IR_DEPTH} levels here`, path);
      return false;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
    } else {
      const keys = Object.keys(value);
      for (let k = keys.length - 1; k >= 0; k--) {
        const key = keys[k];
        if (!isWellFormedText(key)) badText(`the key ${JSON.stringify(key)}`, [...path, key]);
        stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
      }
    }
  }
  return reports === 0;
}

function reportBadOp(out: Reporter, op: unknown): void {
  if (op === undefined) {
    out.report('missing-field', `missing required field 'op' (one of ${OPS.join(', ')})`, ['op']);
  } else if (typeof op !== 'string') {
    out.report('invalid-type', `'op' must be a string, got ${describe(op)}`, ['op']);
  } else {
    const guess = closest(op, OPS, 3);
    out.report('unknown-op', `unknown op '${op}'${guess ? `; did you mean '${guess}'?` : ` (expected one of ${OPS.join(', ')})`}`, ['op'], {
      fix: guess ? out.replaceValue(['op'], op, guess) : undefined,
    });
  }
}

function reportIssue(out: Reporter, issue: Issue, prefix: Path): void {
  const path = [...prefix, ...issue.path];
  switch (issue.code) {
    case 'invalid_type': {
      const value = out.valueAt(path);
      const field = path.length ? out.name(path) : 'the instruction';
      if (value === undefined) out.report('missing-field', `missing required field ${field}`, path);
      else out.report('invalid-type', `${field} must be ${article(issue.expected)}, got ${describe(value)}`, path);
      return;
    }
    case 'invalid_value': {
      const value = out.valueAt(path);
      const allowed = issue.values.map(String);
      const field = out.name(path);
      if (typeof value !== 'string') {
        out.report('invalid-enum', `${field} must be one of ${allowed.join(', ')}, got ${describe(value)}`, path);
        return;
      }
      const guess = closest(value, allowed, 3);
      const owner = out.otherOpsEnum(path, value);
      out.report(
        'invalid-enum',
        owner
          ? `'${value}' is ${owner.by}'s ${field}, not ${owner.self}'s: ${owner.self} takes ${allowed.join(', ')}${guess ? `; did you mean '${guess}'?` : ''}`
          : `'${value}' is not a valid ${field}${guess ? `; did you mean '${guess}'?` : ` (expected one of ${allowed.join(', ')})`}`,
        path,
        { fix: guess ? out.replaceValue(path, value, guess) : undefined },
      );
      return;
    }
    case 'unrecognized_keys': {
      const known = out.knownKeysOfStrict(path);
      for (const key of issue.keys) {
        const guess = closest(key, known, 2);
        const keyPath = [...path, key];
        out.report(
          'unknown-field',
          `unknown field '${key}'${path.length ? ` in '${path.join('.')}'` : ''}${guess ? `; did you mean '${guess}'?` : ` (allowed: ${known.join(', ')})`}`,
          keyPath,
          { fix: guess ? out.replaceKey(keyPath, key, guess) : undefined, atKey: true },
        );
      }
      return;
    }
    case 'invalid_union': {
      // Follow the alternative that got furthest into the value; otherwise name all alternatives.
      const deepest = issue.errors.flat().filter((e) => e.path.length > 0);
      if (deepest.length) {
        const best = deepest.reduce((a, b) => (b.path.length > a.path.length ? b : a));
        reportIssue(out, best, path);
        return;
      }
      const expected = [...new Set(issue.errors.flat().map((e) => (e.code === 'invalid_type' ? article(e.expected) : 'valid')))];
      out.report('invalid-type', `'${path.join('.')}' must be ${expected.join(' or ')}, got ${describe(out.valueAt(path))}`, path);
      return;
    }
    default:
      out.report('invalid-value', `'${path.join('.')}': ${issue.message}`, path);
  }
}

/** Warn about unknown keys of loose objects that are near misses of a known key there. */
function nearMissKeys(out: Reporter, schema: z.core.$ZodType, value: unknown, path: Path): void {
  const inner = unwrapOptional(schema);
  if (inner instanceof z.ZodArray) {
    if (Array.isArray(value)) value.forEach((v, i) => nearMissKeys(out, inner.element, v, [...path, i]));
    return;
  }
  if (!(inner instanceof z.ZodObject) || value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const shape: Record<string, z.core.$ZodType> = inner.shape;
  const known = Object.keys(shape);
  // A loose object (`z.looseObject`) keeps unknown keys: its catchall is `unknown`.
  const loose = inner.def.catchall instanceof z.ZodUnknown;
  for (const [key, v] of Object.entries(value)) {
    if (Object.hasOwn(shape, key)) nearMissKeys(out, shape[key], v, [...path, key]);
    else if (loose) {
      const guess = closest(key, known, 2);
      if (!guess || guess === key) continue;
      const keyPath = [...path, key];
      out.report('unknown-field', `unknown field '${key}'; did you mean '${guess}'?`, keyPath, {
        severity: 'warning',
        fix: out.replaceKey(keyPath, key, guess),
        atKey: true,
      });
    }
  }
}

class Reporter {
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    private readonly json: unknown,
    private readonly sourceMap: SourceMap | undefined,
    private readonly statement: number | undefined,
    private readonly wording?: FieldWording,
  ) {}

  /** A field as the person wrote it: `ORDER BY (target.search.overrides.order_by)` for DSL, `'path'` for IR. */
  name(path: Path): string {
    const dotted = path.map(String).join('.');
    const op = (this.json as Record<string, unknown>).op;
    const dsl = this.wording && typeof op === 'string' && SCHEMA_OF_OP.has(op) ? this.wording(op as Op, dotted) : undefined;
    return dsl ? `${dsl} (${dotted})` : `'${dotted}'`;
  }

  /**
   * One word, several meanings: the field (`args.mode`) takes other values in other verbs, and
   * `value` is one of them (`MODE add` in LOCK is LABEL's). Names the verbs as the person wrote them.
   */
  otherOpsEnum(path: Path, value: string): { self: string; by: string } | undefined {
    const dotted = path.map(String).join('.');
    const op = (this.json as Record<string, unknown>).op as Op;
    const verb = (o: Op) => (this.wording ? VERB_OF_OP[o] : o);
    for (const e of Object.values(ENUMS)) {
      const ops: readonly Op[] | undefined = e.ops;
      if (ops && !ops.includes(op) && e.paths.includes(dotted) && (e.values as readonly string[]).includes(value)) return { self: verb(op), by: ops.map(verb).join('/') };
    }
    return undefined;
  }

  /** `atKey` points the range at the field's name (when mapped) rather than at its value. */
  report(code: Code, message: string, path: Path, extra: { severity?: Diagnostic['severity']; fix?: Fix; atKey?: boolean } = {}): void {
    const dotted = path.map(String).join('.');
    const range = (extra.atKey ? resolveKeyRange(this.sourceMap, dotted) : undefined) ?? resolveRange(this.sourceMap, dotted);
    this.diagnostics.push({
      code,
      severity: extra.severity ?? 'error',
      message,
      ...(range ? { range } : {}),
      path: dotted,
      ...(this.statement !== undefined ? { statement: this.statement } : {}),
      ...(extra.fix ? { fix: extra.fix } : {}),
    });
  }

  valueAt(path: Path): unknown {
    let v: unknown = this.json;
    for (const k of path) {
      if (v === null || typeof v !== 'object') return undefined;
      v = (v as Record<PropertyKey, unknown>)[k as string];
    }
    return v;
  }

  /** Known keys of the strict object at `path` (the instruction itself or `meta`). */
  knownKeysOfStrict(path: Path): string[] {
    const op = (this.json as Record<string, unknown>).op as Op;
    let schema: z.core.$ZodType | undefined = SCHEMA_OF_OP.get(op);
    for (const k of path) {
      const inner = schema && unwrapOptional(schema);
      const shape = inner instanceof z.ZodObject ? (inner.shape as Record<string, z.core.$ZodType>) : undefined;
      // Own keys only: a user key such as `constructor` names no field of the schema.
      schema = shape && Object.hasOwn(shape, String(k)) ? shape[String(k)] : undefined;
    }
    const inner = schema && unwrapOptional(schema);
    return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
  }

  replaceValue(path: Path, oldValue: string, newValue: string): Fix | undefined {
    return replaceValueFix(this.sourceMap, path.map(String).join('.'), oldValue, newValue);
  }

  replaceKey(path: Path, oldKey: string, newKey: string): Fix | undefined {
    return renameKeyFix(this.sourceMap, path.map(String).join('.'), oldKey, newKey);
  }
}

/** How a JSON value is named in messages. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value === 'number' ? 'the number' : 'the boolean'} ${String(value)}`;
}

function article(expected: string): string {
  if (expected === 'array') return 'a list';
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

