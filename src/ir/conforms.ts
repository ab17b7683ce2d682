/**
 * The fast path of validation: a predicate, compiled once from the IR's zod schemas, that says a
 * JSON value is an IR `validateIr` accepts with no diagnostic at all. It allocates nothing and
 * walks the value once, where `validateIr` runs zod, which copies the value, and walks it three
 * more times. It never decides a value is wrong: when it answers false (or meets a zod construct it
 * does not know, which makes it answer false for every value) the caller runs `validateIr`, whose
 * diagnostics are then the only ones. So the diagnostics are `validateIr`'s whatever it answers
 * (test/ir/conforms.test.ts checks the two agree on the corpus and on mutated IRs).
 *
 * The same walk also vouches for the checker (`irConformance`): it applies the tests by which
 * value rules are scoped anywhere (`VOUCHED_TESTS`: a `$ref` key, an unsafe integer) to every
 * object and number it visits, so that the checker need not visit every value of an IR in which
 * none passes (src/check/index.ts, `CheckOptions.vouched`).
 */
import { z } from 'zod';
import { closest } from '../diagnostics/suggest.js';
import { MAX_IR_DEPTH, STAGES, hasRefKey, isUnsafeInteger } from '../language/index.js';
import { IR } from './schema.js';
import { isWellFormedText } from './validate.js';

/** Whether `value`, found `depth` levels down in the IR (the IR itself is 0), conforms. */
type Check = (value: unknown, depth: number) => boolean;

/**
 * The longest string value the walk under way admits (conformsToIr's `maxText`): a module
 * variable, so that the checks stay (value, depth) and the usual call (no bound) compares with
 * Infinity.
 */
let maxText = Infinity;
/** A string no longer than `maxText` (strings the schema names and strings of open values alike). */
const short = (v: string): boolean => v.length <= maxText;

/**
 * The tests of a value alone that scope value rules anywhere in a statement (`Rule.values.where`)
 * which this walk applies to every object (`hasRefKey`) and number (`isUnsafeInteger`) it visits.
 */
export const VOUCHED_TESTS: ReadonlySet<(value: unknown) => boolean> = new Set([hasRefKey, isUnsafeInteger]);

/**
 * Whether the walk under way has met a value some test of VOUCHED_TESTS passes (a module
 * variable, as `maxText`). A check that fails may have set it on the way (a union's option tried
 * first): that only costs the vouch, never makes a wrong one, since a walk that answers true has
 * visited every value of the IR.
 */
let picked = false;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The part of `validateIr`'s value inspection the schema does not express: every object and list
 * less than MAX_IR_DEPTH levels down, every number finite, no string or key with a lone surrogate,
 * nothing that is not JSON. The compiled checks apply it as they go (one walk): to the values the
 * schema types themselves, and through this function to the values it leaves open (`unknown`, the
 * unknown keys of a loose object).
 */
function plainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string': return short(value) && isWellFormedText(value);
    case 'number':
      if (isUnsafeInteger(value)) picked = true;
      return Number.isFinite(value);
    case 'boolean': case 'undefined': return true;
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_IR_DEPTH) return false;
      if (Array.isArray(value)) {
        for (const v of value) if (!plainJson(v, depth + 1)) return false;
        return true;
      }
      if (hasRefKey(value)) picked = true;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (!isWellFormedText(key) || !plainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default: return false;
  }
}

const NEVER: Check = () => false;

/**
 * The predicate of one zod schema, or NEVER for a construct it does not know. `nearMiss`: the
 * schema is reached through objects, lists and optionals only, where `validateIr` warns about an
 * unknown key that is a near miss of a known one; such a key makes the predicate false.
 */
function compile(schema: z.core.$ZodType, nearMiss: boolean, seen: Caches): Check {
  const cache = seen[nearMiss ? 1 : 0];
  const cached = cache.get(schema);
  if (cached) return cached;
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const checks = (def.checks as z.core.$ZodCheck[] | undefined) ?? [];
  // Checks it knows: an integer (zod's `int()` is a safe integer) and a regex on a string.
  let intOnly = false;
  let pattern: RegExp | undefined;
  for (const c of checks) {
    const cd = c._zod.def as { check: string; format?: string; pattern?: RegExp };
    if (cd.check === 'number_format' && cd.format === 'safeint') intOnly = true;
    else if (cd.check === 'string_format' && cd.format === 'regex' && cd.pattern instanceof RegExp) pattern = cd.pattern;
    else return NEVER;
  }
  switch (def.type) {
    case 'string': return pattern ? (v) => typeof v === 'string' && short(v) && isWellFormedText(v) && pattern.test(v) : (v) => typeof v === 'string' && short(v) && isWellFormedText(v);
    // A safe integer is not an unsafe one; any other number is looked at.
    case 'number': return intOnly ? (v) => Number.isSafeInteger(v) : (v) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) return false;
      if (isUnsafeInteger(v)) picked = true;
      return true;
    };
    case 'boolean': return (v) => typeof v === 'boolean';
    case 'null': return (v) => v === null;
    case 'unknown': return plainJson;
    case 'enum': return oneOf(new Set(Object.values(def.entries as Record<string, unknown>)));
    case 'literal': return oneOf(new Set(def.values as unknown[]));
    case 'optional': {
      const inner = compile(def.innerType as z.core.$ZodType, nearMiss, seen);
      return (v, depth) => v === undefined || inner(v, depth);
    }
    case 'array': {
      const element = compile(def.element as z.core.$ZodType, nearMiss, seen);
      return (v, depth) => {
        if (!Array.isArray(v) || depth >= MAX_IR_DEPTH) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i], depth + 1)) return false;
        return true;
      };
    }
    case 'union': {
      const options = (def.options as z.core.$ZodType[]).map((o) => compile(o, false, seen));
      return (v, depth) => {
        for (let i = 0; i < options.length; i++) if (options[i](v, depth)) return true;
        return false;
      };
    }
    case 'lazy': {
      // Recursive (JsonValue): compiled on first use, through the cache.
      let inner: Check | undefined;
      const self: Check = (v, depth) => (inner ??= compile((def.getter as () => z.core.$ZodType)(), false, seen))(v, depth);
      cache.set(schema, self);
      return self;
    }
    case 'record': {
      const keyType = (def.keyType as z.core.$ZodType)._zod.def;
      if (keyType.type !== 'string' || (keyType as { checks?: unknown[] }).checks?.length) return NEVER;
      const value = compile(def.valueType as z.core.$ZodType, false, seen);
      return (v, depth) => {
        if (!isRecord(v) || depth >= MAX_IR_DEPTH) return false;
        if (hasRefKey(v)) picked = true;
        for (const k in v) {
          if (!value(v[k], depth + 1)) return false;
          if (Object.hasOwn(v, k) && !isWellFormedText(k)) return false;
        }
        return true;
      };
    }
    case 'object': {
      const shape = def.shape as Record<string, z.core.$ZodType>;
      const catchall = (def.catchall as z.core.$ZodType | undefined)?._zod.def.type;
      // A loose object keeps unknown keys (catchall `unknown`); a strict one refuses them.
      if (catchall !== 'unknown' && catchall !== 'never') return NEVER;
      const loose = catchall === 'unknown';
      const known = Object.keys(shape);
      const knownSet = new Set(known);
      const fieldChecks: Check[] = [];
      // Whether an unknown key is a near miss of a known one, by key: the same few data keys
      // (`context`, `source`…) come back in every IR, and measuring each against every known key
      // was a tenth of this walk. Bounded: keys past the bound are measured each time.
      const nearMisses = new Map<string, boolean>();
      const isNearMiss = (k: string): boolean => {
        let near = nearMisses.get(k);
        if (near === undefined) {
          near = closest(k, known, 2) !== undefined;
          if (nearMisses.size < 4096 && k.length <= 64) nearMisses.set(k, near);
        }
        return near;
      };
      // An absent known key is read from the prototype, as zod reads it: an object whose
      // prototype is not Object.prototype (an assignment to `__proto__` gives it another), or a
      // schema with a key Object.prototype has (`toString`), is judged by every known key.
      // Otherwise only the keys given are judged (an IR gives a few of the many optional fields),
      // and the required ones (those whose check refuses `undefined`, found on first use) are counted.
      const inherited = known.some((k) => k in Object.prototype);
      let required: boolean[] | undefined;
      let requiredCount = 0;
      const self: Check = (v, depth) => {
        if (!isRecord(v) || depth >= MAX_IR_DEPTH) return false;
        if (hasRefKey(v)) picked = true;
        if (inherited || Object.getPrototypeOf(v) !== Object.prototype) {
          for (let i = 0; i < known.length; i++) if (!fieldChecks[i](v[known[i]], depth + 1)) return false;
          for (const k in v) {
            if (knownSet.has(k)) continue;
            if (!unknownKey(v, k, depth)) return false;
          }
          return true;
        }
        if (required === undefined) {
          required = fieldChecks.map((check) => !check(undefined, depth + 1));
          requiredCount = required.filter(Boolean).length;
        }
        let given = 0;
        // Inherited enumerable keys too, as zod reads them.
        for (const k in v) {
          const i = index.get(k);
          if (i === undefined) {
            if (!unknownKey(v, k, depth)) return false;
            continue;
          }
          if (!fieldChecks[i](v[k], depth + 1)) return false;
          if (required[i]) given++;
        }
        return given === requiredCount;
      };
      const unknownKey = (v: Record<string, unknown>, k: string, depth: number): boolean => {
        if (!loose) return false;
        if (nearMiss && isNearMiss(k)) return false;
        return !Object.hasOwn(v, k) || (isWellFormedText(k) && plainJson(v[k], depth + 1));
      };
      const index = new Map(known.map((k, i) => [k, i]));
      // Cached before its fields are compiled, so that a recursive schema refers to itself.
      cache.set(schema, self);
      for (const k of known) fieldChecks.push(compile(shape[k], nearMiss, seen));
      return self;
    }
    default:
      return NEVER;
  }
}

/** The check of an enum or a literal: one of `values` (an unsafe integer among them is looked at as any other). */
function oneOf(values: ReadonlySet<unknown>): Check {
  if ([...values].some(isUnsafeInteger)) {
    return (v) => {
      if (!values.has(v) || (typeof v === 'string' && !short(v))) return false;
      if (isUnsafeInteger(v)) picked = true;
      return true;
    };
  }
  return (v) => values.has(v) && (typeof v !== 'string' || short(v));
}

/** Compiled predicates by schema: [elsewhere, where near-miss keys are judged]. */
type Caches = readonly [Map<z.core.$ZodType, Check>, Map<z.core.$ZodType, Check>];
const caches: Caches = [new Map(), new Map()];
const OP_CHECKS: ReadonlyMap<unknown, Check> = new Map(IR.options.map((o): [unknown, Check] => [o.shape.op.value, compile(o, true, caches)]));
const STAGE_SET: ReadonlySet<unknown> = new Set(STAGES);

/**
 * True when `validateIr(json)` would accept `json` as it is, with no diagnostic: the schema's
 * shape, no slip it reads with a warning (no stage or an unknown one, `filter.tags`,
 * `target.time_range`, `target.limit`), no near-miss key, and JSON the store can hold; and, with `maxTextLength`,
 * no string value in it longer than that (the engine's text limit, checked in the same walk). False
 * says nothing: run `validateIr` (and measure the strings).
 */
export function conformsToIr(json: unknown, maxTextLength = Infinity): boolean {
  return irConformance(json, maxTextLength) !== 'no';
}

/**
 * conformsToIr's answer, and what its walk saw for the checker: `no` (run `validateIr`), `yes`
 * (it conforms), `vouched` (it conforms and no value of it passes a test of VOUCHED_TESTS: the
 * checker may skip the rules those tests scope, `CheckOptions.vouched`).
 */
export type Conformance = 'no' | 'yes' | 'vouched';

export function irConformance(json: unknown, maxTextLength = Infinity): Conformance {
  maxText = maxTextLength;
  if (!isRecord(json)) return 'no';
  const check = OP_CHECKS.get(json.op);
  if (!check || !STAGE_SET.has(json.stage)) return 'no';
  const target = json.target;
  if (isRecord(target)) {
    if (Object.hasOwn(target, 'time_range') || Object.hasOwn(target, 'limit')) return 'no';
    if (isRecord(target.filter) && Object.hasOwn(target.filter, 'tags')) return 'no';
  }
  picked = false;
  if (!check(json, 0)) return 'no';
  return picked ? 'yes' : 'vouched';
}
