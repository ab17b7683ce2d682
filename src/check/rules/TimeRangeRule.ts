/**
 * Invariant: a time range is exactly one complete form — absolute `start` + `end` with start not
 * after end, or relative `relative` + `amount` + `unit`.
 * Spec: spec/checks.md#time-range
 */
import { swapValuesFix } from '../../diagnostics/fix.js';
import { timeRangePaths, valueAt } from '../paths.js';
import type { Rule, RuleContext } from '../rule.js';
import { OPS, type Op } from '../../language/index.js';
import { parseDateTime } from './DateTimeRule.js';

const ABSOLUTE = ['start', 'end'] as const;
const RELATIVE = ['relative', 'amount', 'unit'] as const;

/** The paths a time range may sit at, by op (one array per op, built once). */
const PATHS = new Map<Op, readonly string[]>(OPS.map((op) => [op, timeRangePaths(op)]));
function pathsOf(op: Op): readonly string[] {
  return PATHS.get(op) ?? timeRangePaths(op);
}

/** How many of `keys` are given in `tr`. */
function given(tr: Record<string, unknown>, keys: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < keys.length; i++) if (tr[keys[i]] !== undefined) n++;
  return n;
}

/** An absolute range whose start (a datetime) is after its end. */
function startsAfterEnd(tr: Record<string, unknown>): boolean {
  const start = parseDateTime(String(tr.start));
  const end = parseDateTime(String(tr.end));
  return typeof start === 'number' && typeof end === 'number' && start > end;
}

export const TimeRangeRule: Rule = {
  name: 'TimeRangeRule',
  codes: { 'time-range-exclusive': 'error', 'time-range-incomplete': 'error', 'time-range-order': 'error' },
  given: OPS.flatMap((op) => timeRangePaths(op).map((path) => `${op}:${path}`)),
  statement(ir, ctx) {
    const paths = pathsOf(ir.op);
    for (let p = 0; p < paths.length; p++) {
      const at = paths[p];
      const tr = valueAt(ir, at) as Record<string, unknown> | undefined;
      if (tr === null || typeof tr !== 'object') continue;
      // The usual range, complete in one form, is judged here, without arrays or closures.
      const absCount = given(tr, ABSOLUTE);
      const relCount = given(tr, RELATIVE);
      if (absCount === 0 && relCount === RELATIVE.length) continue;
      if (relCount === 0 && absCount === ABSOLUTE.length && !startsAfterEnd(tr)) continue;
      judge(ctx, at, tr);
    }
  },
};

/** Reports what is wrong with the time range `tr` at `at`, if anything (the usual range never gets here). */
function judge(ctx: RuleContext, at: string, tr: Record<string, unknown>): void {
  const abs = ABSOLUTE.filter((k) => tr[k] !== undefined);
  const rel = RELATIVE.filter((k) => tr[k] !== undefined);
  if (abs.length && rel.length) {
    ctx.report({
      code: 'time-range-exclusive',
      message: `a time range is either start+end or relative+amount+unit, not both ('${rel[0]}' given with '${abs[0]}')`,
      path: `${at}.${rel[0]}`,
      related: [{ message: `'${abs[0]}' given here`, path: `${at}.${abs[0]}` }],
    });
    return;
  }
  const form = abs.length ? ABSOLUTE : rel.length ? RELATIVE : undefined;
  if (!form) {
    ctx.report({ code: 'time-range-incomplete', message: 'a time range needs start+end or relative+amount+unit', path: at });
    return;
  }
  const missing = form.filter((k) => tr[k] === undefined);
  if (missing.length) {
    ctx.report({
      code: 'time-range-incomplete',
      message: `time range is missing ${missing.map((k) => `'${k}'`).join(' and ')} (needs ${form.join(' + ')})`,
      path: at,
    });
    return;
  }
  if (form === ABSOLUTE) {
    if (startsAfterEnd(tr)) {
      ctx.report({
        code: 'time-range-order',
        message: `time range starts (${String(tr.start)}) after it ends (${String(tr.end)})`,
        path: `${at}.end`,
        related: [{ message: 'start given here', path: `${at}.start` }],
        fix: swapValuesFix(ctx.sourceMap, { path: `${at}.start`, value: String(tr.start) }, { path: `${at}.end`, value: String(tr.end) }, 'swap start and end'),
      });
    }
  }
}
