/**
 * Invariant: a Promote reminder's `rrule` is an RFC 5545 recurrence rule with a valid FREQ and
 * valid parts, as read by the `rrule` library (e.g. `FREQ=WEEKLY;BYDAY=MO`).
 * Spec: spec/checks.md#invalid-rrule
 */
import { basicUntil, RRule } from '../../lower/rrule.js';
import { closest } from '../../diagnostics/suggest.js';
import { oneOffRule } from '../../language/index.js';
import type { Rule } from '../rule.js';


const FREQS = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY', 'SECONDLY'];

/** Why the text is not a valid recurrence rule, or undefined when it is one. */
export function rruleProblem(text: string): string | undefined {
  // An extended ISO-8601 UNTIL is read as RFC 5545 (rrule-until-normalised, a warning).
  const body = basicUntil(text.replace(/^RRULE:/i, ''));
  const freq = /(?:^|;)FREQ=([^;]*)/i.exec(body);
  if (!freq) {
    // A date-time where a rule goes: the one-off form is the bare date-time (src/language/remind.ts).
    const once = oneOffRule(text.trim());
    return once ? `one reminder at a time is written REMIND ${text.trim()} (unquoted; the IR rule '${once}')` : 'it needs a FREQ part (e.g. FREQ=DAILY)';
  }
  if (!FREQS.includes(freq[1].toUpperCase())) {
    const guess = closest(freq[1], FREQS, 2);
    return `unknown frequency '${freq[1]}'${guess ? `; did you mean '${guess}'?` : ` (expected one of ${FREQS.join(', ')})`}`;
  }
  let options: ReturnType<typeof RRule.parseString>;
  try {
    options = RRule.parseString(body);
  } catch (e) {
    return (e as Error).message;
  }
  if (Array.isArray(options.byweekday) && options.byweekday.some((d) => d == null)) return 'BYDAY names an unknown weekday (use MO, TU, WE, TH, FR, SA, SU)';
  for (const k of ['count', 'interval', 'byhour', 'byminute', 'bysecond', 'bymonth', 'bymonthday'] as const) {
    const v = options[k];
    const values = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
    if (values.some((n) => typeof n !== 'number' || !Number.isInteger(n))) return `${k.toUpperCase()} must be an integer`;
  }
  if (options.until instanceof Date && Number.isNaN(options.until.getTime())) return 'UNTIL is not a valid date';
  try {
    new RRule(options);
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}

export const RRuleRule: Rule = {
  name: 'RRuleRule',
  codes: { 'invalid-rrule': 'error', 'rrule-until-normalised': 'warning' },
  values: { paths: ['args.remind.rrule'] },
  value(value, path, ctx) {
    if (ctx.ir.op !== 'Promote' || path !== 'args.remind.rrule' || typeof value !== 'string') return;
    const problem = rruleProblem(value);
    if (problem) ctx.report({ code: 'invalid-rrule', message: `'${value}' is not a valid recurrence rule: ${problem}`, path });
    else {
      const body = value.replace(/^RRULE:/i, '');
      const read = basicUntil(body);
      if (read !== body) ctx.report({ code: 'rrule-until-normalised', message: `UNTIL in '${value}' is extended ISO-8601; it is read as RFC 5545 '${read}'`, path });
    }
  },
};
