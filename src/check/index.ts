/**
 * The checker: cross-field invariants of validated IR (shape is zod's job, see src/ir/validate.ts).
 * All rules of src/check/rules run in one traversal per statement; diagnostics point at the most
 * specific IR path, resolved to a range through the statement's source map.
 */
import type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
import { joinPath, resolveRange, type SourceMap } from '../diagnostics/sourceMap.js';
import type { IR } from '../ir/schema.js';
import type { FieldWording } from '../ir/validate.js';
import type { InputLanguage, Report, Rule, RuleContext } from './rule.js';
import { RULES } from './rules/index.js';

export type Policy = 'default' | 'strict';

export interface CheckOptions {
  /** One source map per IR (same index), to give diagnostics ranges. */
  readonly sourceMaps?: ReadonlyArray<SourceMap | undefined>;
  /** `strict` turns warnings into errors. */
  readonly policy?: Policy;
  /** Index of the first IR in the script, when checking a slice of it. */
  readonly firstStatement?: number;
  readonly rules?: readonly Rule[];
  /** The input's language, for the wording of messages and fixes (default `ir`). */
  readonly source?: InputLanguage;
  /** How DSL input names IR fields (the front end's `dslName`); without it messages name IR paths. */
  readonly wording?: FieldWording;
}

export function check(irs: readonly IR[], options: CheckOptions = {}): Diagnostic[] {
  const rules = options.rules ?? RULES;
  const valueRules = rules.filter((r) => r.value);
  const out: Diagnostic[] = [];
  // One context, re-aimed at each statement (rules see every statement and every value of it).
  const state: { rule: Rule; statement: number; sourceMap: SourceMap | undefined } = { rule: rules[0], statement: 0, sourceMap: undefined };
  const ctx = {
    ir: irs[0],
    statement: 0,
    sourceMap: undefined as SourceMap | undefined,
    source: options.source ?? 'ir',
    wording: options.wording,
    script: irs,
    index: 0,
    report: (r: Report) => out.push(toDiagnostic(r, state.rule, state.statement, state.sourceMap)),
  } satisfies RuleContext;
  for (let i = 0; i < irs.length; i++) {
    const ir = irs[i];
    const statement = (options.firstStatement ?? 0) + i;
    const sourceMap = options.sourceMaps?.[i];
    ctx.ir = ir;
    ctx.statement = state.statement = statement;
    ctx.sourceMap = state.sourceMap = sourceMap;
    ctx.index = i;
    for (const rule of rules) {
      state.rule = rule;
      rule.statement?.(ir, ctx);
    }
    if (valueRules.length) visitValues(ir, '', valueRules, ctx, state, undefined);
  }
  return applyPolicy(out, options.policy ?? 'default');
}

/** Calls each value rule on `value` and on every value under it, with its dotted path (but those under `skip`). */
function visitValues(value: unknown, path: string, rules: readonly Rule[], ctx: RuleContext, state: { rule: Rule }, skip: ReadonlySet<string> | undefined): void {
  if (skip?.has(path)) return;
  for (const rule of rules) {
    state.rule = rule;
    rule.value!(value, path, ctx);
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (let k = 0; k < value.length; k++) visitValues(value[k], joinPath(path, k), rules, ctx, state, skip);
  } else {
    for (const k of Object.keys(value)) visitValues((value as Record<string, unknown>)[k], joinPath(path, k), rules, ctx, state, skip);
  }
}

export interface CheckValuesOptions {
  readonly sourceMap?: SourceMap;
  readonly policy?: Policy;
  /** The statement's index in the script. */
  readonly statement?: number;
  /** Paths validation rejected: these values and everything under them are not checked. */
  readonly skip?: readonly string[];
  readonly source?: InputLanguage;
  /** How DSL input names IR fields (the front end's `dslName`); without it messages name IR paths. */
  readonly wording?: FieldWording;
}

/**
 * The checks that still mean something for a statement whose shape is wrong: the value rules
 * (each judges one value by its path alone — datetimes, durations, ranges, recurrence rules) on
 * every value validation did not reject. The cross-field rules need the whole statement and wait
 * until it validates, so that one bad enum does not hide a bad duration next to it.
 */
export function checkValues(json: unknown, options: CheckValuesOptions = {}): Diagnostic[] {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return [];
  const statement = options.statement ?? 0;
  const skip = new Set(options.skip ?? []);
  const valueRules = RULES.filter((r) => r.value);
  const out: Diagnostic[] = [];
  const state = { rule: valueRules[0] };
  const ctx: RuleContext = {
    // Value rules read only `op` from the statement, and only to look up which paths they judge
    // (an `op` that is not a string, say an object with a `toString` key, looks up nothing).
    ir: (typeof (json as { op?: unknown }).op === 'string' ? json : { ...json, op: '' }) as IR,
    statement,
    sourceMap: options.sourceMap,
    source: options.source ?? 'ir',
    wording: options.wording,
    script: [json as IR],
    index: 0,
    report: (r) => out.push(toDiagnostic(r, state.rule, statement, options.sourceMap)),
  };
  visitValues(json, '', valueRules, ctx, state, skip);
  return applyPolicy(out, options.policy ?? 'default');
}

function toDiagnostic(r: Report, rule: Rule, statement: number, sourceMap: SourceMap | undefined): Diagnostic {
  const severity: Severity | undefined = r.severity ?? rule.codes[r.code];
  if (!severity) throw new Error(`${rule.name} reported '${r.code}', which it does not declare`);
  const range = resolveRange(sourceMap, r.path);
  const related = r.related?.map((x) => {
    const at = resolveRange(sourceMap, x.path);
    return at ? { message: x.message, range: at } : { message: `${x.message} (${x.path})` };
  });
  return {
    code: r.code,
    severity,
    message: r.message,
    ...(range ? { range } : {}),
    path: r.path,
    statement,
    ...(related?.length ? { related } : {}),
    ...(r.fix ? { fix: r.fix } : {}),
  };
}

/** Under the `strict` policy every warning is an error; `default` leaves severities alone. */
export function applyPolicy(diagnostics: Diagnostic[], policy: Policy): Diagnostic[] {
  if (policy !== 'strict') return diagnostics;
  return diagnostics.map((d) => (d.severity === 'warning' ? { ...d, severity: 'error' } : d));
}

/** Every code any rule can report, with its default severity (for docs and tests). */
export function ruleCodes(rules: readonly Rule[] = RULES): Map<string, { rule: string; severity: Severity }> {
  const m = new Map<string, { rule: string; severity: Severity }>();
  for (const r of rules) for (const [code, severity] of Object.entries(r.codes)) m.set(code, { rule: r.name, severity });
  return m;
}

export { RULES };
export type { InputLanguage, Rule, RuleContext, Report };
