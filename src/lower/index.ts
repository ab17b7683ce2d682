/**
 * Lowering: IR → Operation. The only place values are normalised: times to UTC, relative ranges
 * and TTLs made concrete against the injected clock, ids parsed to numbers, defaults applied.
 * Bad values are returned as diagnostics (code + JSON path), never thrown.
 *
 * The rooms: ./lowerer.ts (the clock, diagnostics and value readers), ./target.ts (ids, filters,
 * search, time ranges), ./verbs.ts (one lowering per op, in the `LOWER_OP` table), ./encode.ts,
 * ./ignored.ts (keys the engine does not act on), ./defaults.ts, ./time.ts, ./operation.ts.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { IR } from '../ir/schema.js';
import { reportIgnored } from './ignored.js';
import { Lowerer } from './lowerer.js';
import type { EncodeOp, Operation } from './operation.js';
import { formatUtc } from './time.js';
import { DEFAULT_TENANT } from '../store/columns.js';
import { LOWER_OP, type OperationBase } from './verbs.js';
import { lowerPlainEncode } from './encode.js';

export type * from './operation.js';
export { formatUtc, parseDuration, parseInstant, addDuration } from './time.js';
export { ARCHIVE_WEIGHT, BASE_WEIGHT, DEFAULT_INCLUDE, DEFAULT_MAX_TOKENS, DEFAULT_WEIGHT_STEP, FACT_INCLUDE } from './defaults.js';
export { FILTER_KEYS, TARGET_KEYS, TIME_RANGE_KEYS } from './ignored.js';

export interface LowerContext {
  readonly now: Date;
  /** The acting actor; `meta.actor` of the IR wins when present. */
  readonly actor?: string;
  /** The run's tenant (default `default`); never taken from the IR. */
  readonly tenant?: string;
  /** The run's trace id, stored with what the statement writes. */
  readonly traceId?: string;
  /** The statement's index in its script. */
  readonly statement?: number;
  /** `now` as UTC text (`formatUtc(now)`), when the caller has it already (once per script). */
  readonly nowText?: string;
  /**
   * Deep-freeze the operation (default true). The engine, which executes the operation it just
   * lowered and hands it to nobody, passes false: freezing every object of every operation was
   * 1.5% of an Encode's time (spec/semantics.md "Performance").
   */
  readonly freeze?: boolean;
  /** Lower every statement by the general readers, the usual Encode too (`lowerPlainEncode` gives the same operation; tests compare the two). */
  readonly general?: boolean;
}

export type LowerResult =
  | { readonly ok: true; readonly operation: Operation; readonly warnings: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Lowers one validated IR against a clock. */
export function lowerIr(ir: IR, ctx: LowerContext): LowerResult {
  const meta = ir.meta ?? {};
  const actor = meta.actor ?? ctx.actor;
  const tenant = ctx.tenant ?? DEFAULT_TENANT;
  const traceId = ctx.traceId ?? '';
  const statement = ctx.statement ?? 0;
  const now = ctx.nowText ?? formatUtc(ctx.now);
  const dryRun = meta.dry_run === true;
  const confirmation = meta.confirmation === true;
  // The usual Encode, by the readers of its shape (./encode.ts `lowerPlainEncode`): nothing to
  // report. Its operation in one literal, with the keys in the order the general lowering gives.
  const values = ir.op === 'Encode' && ctx.general !== true ? lowerPlainEncode(ir) : undefined;
  if (values) {
    const op: EncodeOp = { kind: 'Encode', ir, actor, tenant, traceId, statement, now, dryRun, confirmation, values, skipEmbedding: false, embedding: undefined };
    return done(op, [], ctx);
  }
  const base: OperationBase = { ir, actor, tenant, traceId, statement, now, dryRun, confirmation };
  const l = new Lowerer(ctx.now);
  const op = lowerOp(l, ir, base);
  reportIgnored(l, ir);
  refuseLeadingBom(l, ir.args, 'args');
  if (l.errors.length) return { ok: false, diagnostics: l.errors };
  return done(op, l.warnings, ctx);
}

/** A lowered operation, deep-frozen unless the context says not to. */
function done(op: Operation, warnings: readonly Diagnostic[], ctx: LowerContext): LowerResult {
  if (ctx.freeze === false) return { ok: true, operation: op, warnings };
  // The IR is the caller's object: it is referenced, never frozen.
  for (const key in op) if (key !== 'ir') deepFreeze((op as unknown as Record<string, unknown>)[key]);
  return { ok: true, operation: Object.freeze(op), warnings };
}

/** The table's entry for the IR's op (TypeScript cannot correlate `LOWER_OP[ir.op]` with `ir` itself). */
function lowerOp(l: Lowerer, ir: IR, base: OperationBase): Operation {
  const lower = LOWER_OP[ir.op] as (l: Lowerer, ir: IR, base: OperationBase) => Operation;
  return lower(l, ir, base);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}

/** Whether some string in `value` starts with U+FEFF (the common answer, no, without spelling paths). */
function hasLeadingBom(value: unknown): boolean {
  if (typeof value === 'string') return value.charCodeAt(0) === 0xfeff;
  if (!value || typeof value !== 'object') return false;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop() as object;
    if (Array.isArray(v)) {
      for (const x of v) {
        if (typeof x === 'string') {
          if (x.charCodeAt(0) === 0xfeff) return true;
        } else if (x && typeof x === 'object') stack.push(x);
      }
      continue;
    }
    for (const k in v) {
      if (!Object.hasOwn(v, k)) continue;
      const x = (v as Record<string, unknown>)[k];
      // Strings are looked at where they are found, objects and arrays later: the stack holds only containers.
      if (typeof x === 'string') {
        if (x.charCodeAt(0) === 0xfeff) return true;
      } else if (x && typeof x === 'object') stack.push(x);
    }
  }
  return false;
}

/**
 * A stored string that starts with U+FEFF would come back without it: the store's UTF-8
 * decoding takes a leading U+FEFF for a byte order mark. Rather than change the text silently,
 * such a value in the args (what gets stored) is refused (`invalid-text`). Iterative: the IR's
 * depth is bounded by validation, but the walk need not rely on it.
 */
function refuseLeadingBom(l: Lowerer, value: unknown, path: string): void {
  if (!hasLeadingBom(value)) return;
  // Each entry is a value and the entry of its parent, with its key: paths are spelled only for a refusal.
  type Entry = { readonly v: unknown; readonly key: string; readonly parent: Entry | null };
  const pathOf = (e: Entry): string => (e.parent ? `${pathOf(e.parent)}.${e.key}` : e.key);
  const stack: Entry[] = [{ v: value, key: path, parent: null }];
  while (stack.length) {
    const e = stack.pop()!;
    const v = e.v;
    if (typeof v === 'string') {
      if (v.charCodeAt(0) === 0xfeff) l.error('invalid-text', 'this text starts with U+FEFF (a byte order mark), which the store would drop; remove it or put it after another character', pathOf(e));
    } else if (v && typeof v === 'object') {
      for (const k in v) if (Object.hasOwn(v, k)) stack.push({ v: (v as Record<string, unknown>)[k], key: k, parent: e });
    }
  }
}
