/**
 * The checker: cross-field invariants of validated IR (shape is zod's job, see src/ir/validate.ts).
 * All rules of src/check/rules run in one traversal per statement; diagnostics point at the most
 * specific IR path, resolved to a range through the statement's source map.
 */
import type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
import { resolveRange, type SourceMap } from '../diagnostics/sourceMap.js';
import { VOUCHED_TESTS } from '../ir/conforms.js';
import type { IR, Op } from '../ir/schema.js';
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
  /**
   * One flag per IR (same index): true says validation's walk vouched for it (`irConformance`
   * answered `vouched`: no value of it passes a test of VOUCHED_TESTS), so the rules scoped by
   * those tests have nothing to report there and the checker walks only the paths the other
   * value rules name. Without it (or false) every value is walked: the default, for IRs from
   * anywhere.
   */
  readonly vouched?: readonly boolean[];
}

/**
 * One statement's context, re-aimed at each statement and rule as the checker goes (a class, so
 * that a check makes one object and no closure).
 */
class Checking implements RuleContext {
  statement = 0;
  sourceMap: SourceMap | undefined = undefined;
  index = 0;
  constructor(
    public ir: IR,
    public rule: Rule,
    readonly out: Diagnostic[],
    readonly script: readonly IR[],
    readonly source: InputLanguage,
    readonly wording: FieldWording | undefined,
  ) {}
  report(r: Report): void {
    this.out.push(toDiagnostic(r, this.rule, this.statement, this.sourceMap));
  }
}

export function check(irs: readonly IR[], options: CheckOptions = {}): Diagnostic[] {
  const rules = options.rules ?? RULES;
  const plan = planOf(rules);
  const out: Diagnostic[] = [];
  // One context, re-aimed at each statement (rules see every statement and every value of it).
  const ctx = new Checking(irs[0], rules[0], out, irs, options.source ?? 'ir', options.wording);
  for (let i = 0; i < irs.length; i++) {
    const ir = irs[i];
    ctx.ir = ir;
    ctx.statement = (options.firstStatement ?? 0) + i;
    ctx.sourceMap = options.sourceMaps?.[i];
    ctx.index = i;
    const { hooks, gates } = statementRules(plan, ir.op);
    for (let r = 0; r < hooks.length; r++) {
      // A hook whose fields this statement does not give has nothing to report (`Rule.given`).
      const gate = gates[r];
      if (gate !== undefined && !anyGiven(ir, gate)) continue;
      const rule = hooks[r];
      ctx.rule = rule;
      rule.statement!(ir, ctx);
    }
    if (plan.rules.length) {
      const view = options.vouched?.[i] === true ? plan.lean : plan.full;
      walk(ir, view.root, [], 0, view, ctx, ctx, undefined);
    }
  }
  return applyPolicy(out, options.policy ?? 'default');
}

/**
 * Where the value rules look: a trie of the path segments their scopes name. Each node lists the
 * rules to call on a value there, in the rules' order: those scoped to it, those scoped by a test
 * of the value (with the test), those with no scope; `off` lists the latter two, for the values
 * off the trie (most of them: texts, tags, facets).
 */
interface Trie {
  readonly rules: Set<Rule>;
  readonly next: Map<string, Trie>;
  calls: Calls;
  /**
   * The dotted path of the values at this place, made once (a constant string, whose hash the
   * rules' tables keep), or undefined when a segment on the way is `*`.
   */
  readonly path: string | undefined;
}
/** The calls at a place, by the `typeof` of the value there (a test scoped to one `typeOf` is left out of the others). */
interface Calls {
  readonly object: readonly Call[];
  readonly number: readonly Call[];
  readonly other: readonly Call[];
}
interface Call {
  readonly rule: Rule;
  readonly where: ((value: unknown) => boolean) | undefined;
}
/** The value rules' calls, laid on the trie of their paths (`root`) and off it (`off`). */
interface View {
  readonly root: Trie;
  readonly off: Calls;
  /** No rule is called off the trie: the walk leaves the values there alone. */
  readonly offIdle: boolean;
}
interface Plan {
  /** The value rules. */
  readonly rules: readonly Rule[];
  /** Every value rule. */
  readonly full: View;
  /**
   * The value rules but those scoped by a test of VOUCHED_TESTS, for a statement validation's
   * walk vouched for (`CheckOptions.vouched`): as no value of it passes one, those report nothing.
   */
  readonly lean: View;
  /** All the rules, in order. */
  readonly all: readonly Rule[];
  /** By op: the rules whose statement hook runs on it (statementRules), made when first asked for. */
  readonly byOp: Map<unknown, StatementHooks>;
}

/** The paths of a `Rule.given` for one op, split; undefined when the hook runs on every statement of the op. */
type Gate = readonly (readonly string[])[] | undefined;
interface StatementHooks {
  readonly hooks: readonly Rule[];
  /** Each hook's gate (same index). */
  readonly gates: readonly Gate[];
}

/**
 * The rules, in order, whose statement hook the checker calls on a statement of `op`: those with
 * a hook, unscoped or scoped to include the op (`Rule.ops`) and, when the rule says what it looks
 * at (`Rule.given`), with some path for the op; each with the paths of which the statement must
 * give one. One list per op, so a statement looks at only the rules it may need; an op no IR has
 * (a caller's unvalidated one) is not kept.
 */
function statementRules(plan: Plan, op: unknown): StatementHooks {
  const known = plan.byOp.get(op);
  if (known !== undefined) return known;
  const hooks: Rule[] = [];
  const gates: Gate[] = [];
  for (const rule of plan.all) {
    if (rule.statement === undefined || (rule.ops !== undefined && !rule.ops.has(op as Op))) continue;
    if (rule.given === undefined) {
      hooks.push(rule);
      gates.push(undefined);
      continue;
    }
    const paths: string[] = [];
    for (const entry of rule.given) {
      const colon = entry.indexOf(':');
      const at = entry.slice(0, colon);
      if (at === '*' || at === op) paths.push(entry.slice(colon + 1));
    }
    if (paths.length === 0) continue;
    hooks.push(rule);
    gates.push(paths.includes('') ? undefined : paths.map((p) => p.split('.')));
  }
  const found: StatementHooks = { hooks, gates };
  if (typeof op === 'string' && plan.byOp.size < 64) plan.byOp.set(op, found);
  return found;
}

/**
 * Whether `ir` gives a value (not undefined) at one of the paths of `gate`, read as the hooks read
 * them (`ir.target?.search`: a string's `search` is String.prototype's).
 */
function anyGiven(ir: unknown, gate: readonly (readonly string[])[]): boolean {
  for (let p = 0; p < gate.length; p++) {
    const keys = gate[p];
    let v = ir;
    for (let k = 0; k < keys.length && v !== undefined; k++) v = v === null ? undefined : (v as Record<string, unknown>)[keys[k]];
    if (v !== undefined) return true;
  }
  return false;
}
const PLANS = new WeakMap<readonly Rule[], Plan>();

function planOf(all: readonly Rule[]): Plan {
  const cached = PLANS.get(all);
  if (cached) return cached;
  const rules = all.filter((r) => r.value);
  const vouchedFor = (rule: Rule): boolean => rule.values !== undefined && 'where' in rule.values && VOUCHED_TESTS.has(rule.values.where);
  const plan: Plan = { rules, full: viewOf(rules), lean: viewOf(rules.filter((r) => !vouchedFor(r))), all, byOp: new Map() };
  PLANS.set(all, plan);
  return plan;
}

/** The view of `rules` (value rules, in order): their trie and calls. */
function viewOf(rules: readonly Rule[]): View {
  const none: Calls = { object: [], number: [], other: [] };
  const root: Trie = { rules: new Set(), next: new Map(), calls: none, path: '' };
  for (const rule of rules) {
    const scope = rule.values;
    if (!scope || !('paths' in scope)) continue;
    for (const path of scope.paths) {
      let node = root;
      for (const segment of path === '' ? [] : path.split('.')) {
        let child = node.next.get(segment);
        if (!child) {
          const path = node.path === undefined || segment === '*' ? undefined : node.path === '' ? segment : `${node.path}.${segment}`;
          node.next.set(segment, (child = { rules: new Set(), next: new Map(), calls: none, path }));
        }
        node = child;
      }
      node.rules.add(rule);
    }
  }
  const callsOf = (node: Trie | undefined, type: 'object' | 'number' | undefined): Call[] => rules.flatMap((rule): Call[] => {
    const scope = rule.values;
    if (scope === undefined) return [{ rule, where: undefined }];
    if ('where' in scope) return scope.typeOf === undefined || scope.typeOf === type ? [{ rule, where: scope.where }] : [];
    return node?.rules.has(rule) ? [{ rule, where: undefined }] : [];
  });
  const callsAt = (node: Trie | undefined): Calls => ({ object: callsOf(node, 'object'), number: callsOf(node, 'number'), other: callsOf(node, undefined) });
  const fill = (node: Trie): void => {
    node.calls = callsAt(node);
    for (const child of node.next.values()) fill(child);
  };
  fill(root);
  const off = callsAt(undefined);
  return { root, off, offIdle: off.object.length + off.number.length + off.other.length === 0 };
}

/** The dotted path of the value `keys[0..depth)` leads to. */
function pathOf(keys: ReadonlyArray<string | number>, depth: number): string {
  let path = depth > 0 ? String(keys[0]) : '';
  for (let d = 1; d < depth; d++) path += `.${keys[d]}`;
  return path;
}

/**
 * Calls each value rule of `view` whose scope admits it on `value` and every value under it (but
 * those under `skip`), in the rules' order, with its dotted path: `keys[0..depth)` is how the
 * walk got to `value`, and `node` the scopes' trie there. When no rule is called off the trie
 * (`offIdle`), only the values on it are visited. The path is built only when a rule is
 * called on the value (or to look it up in `skip`): most values (texts, tags, facets) are judged
 * by no rule, and building a path for each was a quarter of checking.
 */
function walk(value: unknown, node: Trie | undefined, keys: Array<string | number>, depth: number, view: View, ctx: RuleContext, state: { rule: Rule }, skip: ReadonlySet<string> | undefined): void {
  let path: string | undefined;
  if (skip !== undefined && skip.size > 0 && skip.has((path = pathOf(keys, depth)))) return;
  const at = node === undefined ? view.off : node.calls;
  const type = typeof value;
  const calls = type === 'object' ? at.object : type === 'number' ? at.number : at.other;
  for (let i = 0; i < calls.length; i++) {
    const { rule, where } = calls[i];
    if (where !== undefined && !where(value)) continue;
    state.rule = rule;
    // A place on the trie reached by its own keys has its path made already (none reached by a `*` has).
    rule.value!(value, (path ??= node?.path ?? pathOf(keys, depth)), ctx);
  }
  if (value === null || typeof value !== 'object') return;
  const next = node !== undefined && node.next.size > 0 ? node.next : undefined;
  if (next === undefined && view.offIdle) return;
  const star = next?.get('*');
  if (Array.isArray(value)) {
    for (let k = 0; k < value.length; k++) {
      const v = value[k];
      const child = next && (next.get(String(k)) ?? star);
      if ((child === undefined && view.offIdle) || idle(v, child, view)) continue;
      keys[depth] = k;
      walk(v, child, keys, depth + 1, view, ctx, state, skip);
    }
  } else {
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      const v = (value as Record<string, unknown>)[k];
      const child = next && (next.get(k) ?? star);
      if ((child === undefined && view.offIdle) || idle(v, child, view)) continue;
      keys[depth] = k;
      walk(v, child, keys, depth + 1, view, ctx, state, skip);
    }
  }
}

/**
 * A leaf (neither an object nor a number) no rule is called on at its place: most strings (texts,
 * tags), which the walk then does not enter (entering it would call nothing and go no deeper).
 */
function idle(value: unknown, node: Trie | undefined, view: View): boolean {
  const type = typeof value;
  return type !== 'object' && type !== 'number' && (node === undefined ? view.off : node.calls).other.length === 0;
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
  const plan = planOf(RULES);
  const out: Diagnostic[] = [];
  const state = { rule: plan.rules[0] };
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
  walk(json, plan.full.root, [], 0, plan.full, ctx, state, skip);
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
  // Keys added in this order (not spread in: a spread inside a literal takes V8's slow path).
  const d: { -readonly [K in keyof Diagnostic]: Diagnostic[K] } = { code: r.code, severity, message: r.message };
  if (range) d.range = range;
  d.path = r.path;
  d.statement = statement;
  if (related?.length) d.related = related;
  if (r.fix) d.fix = r.fix;
  return d;
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
