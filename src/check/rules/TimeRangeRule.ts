/**
 * Invariant: a time range is exactly one complete form — absolute `start` + `end` with start not
 * after end, or relative `relative` + `amount` + `unit`.
 * Spec: spec/checks.md#time-range
 */
import { swapValuesFix } from '../../diagnostics/fix.js';
import { timeRangePaths, valueAt } from '../paths.js';
import type { Rule } from '../rule.js';
import { parseDateTime } from './DateTimeRule.js';

const ABSOLUTE = ['start', 'end'] as const;
const RELATIVE = ['relative', 'amount', 'unit'] as const;

export const TimeRangeRule: Rule = {
  name: 'TimeRangeRule',
  codes: { 'time-range-exclusive': 'error', 'time-range-incomplete': 'error', 'time-range-order': 'error' },
  statement(ir, ctx) {
    for (const at of timeRangePaths(ir.op)) {
      const tr = valueAt(ir, at) as Record<string, unknown> | undefined;
      if (tr === null || typeof tr !== 'object') continue;
      const abs = ABSOLUTE.filter((k) => tr[k] !== undefined);
      const rel = RELATIVE.filter((k) => tr[k] !== undefined);
      if (abs.length && rel.length) {
        ctx.report({
          code: 'time-range-exclusive',
          message: `a time range is either start+end or relative+amount+unit, not both ('${rel[0]}' given with '${abs[0]}')`,
          path: `${at}.${rel[0]}`,
          related: [{ message: `'${abs[0]}' given here`, path: `${at}.${abs[0]}` }],
        });
        continue;
      }
      const form = abs.length ? ABSOLUTE : rel.length ? RELATIVE : undefined;
      if (!form) {
        ctx.report({ code: 'time-range-incomplete', message: 'a time range needs start+end or relative+amount+unit', path: at });
        continue;
      }
      const missing = form.filter((k) => tr[k] === undefined);
      if (missing.length) {
        ctx.report({
          code: 'time-range-incomplete',
          message: `time range is missing ${missing.map((k) => `'${k}'`).join(' and ')} (needs ${form.join(' + ')})`,
          path: at,
        });
        continue;
      }
      if (form === ABSOLUTE) {
        const start = parseDateTime(String(tr.start));
        const end = parseDateTime(String(tr.end));
        if (typeof start === 'number' && typeof end === 'number' && start > end) {
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
  },
};
