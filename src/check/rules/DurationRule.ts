/**
 * Invariant: every duration field (`ttl`, `older_than`) is a positive ISO-8601 duration such as
 * `P7D` or `PT1H30M`.
 * Spec: spec/checks.md#invalid-duration
 */
import { parse } from 'tinyduration';
import { fieldTable, tablePaths } from '../paths.js';
import type { Rule } from '../rule.js';

const DURATION_FIELDS = ['Expire:args.ttl', 'Delete:args.older_than', 'Update:args.set.ttl'];
export const isDurationField = fieldTable(DURATION_FIELDS);

/** Why the text is not a positive ISO-8601 duration, or undefined when it is one. */
export function durationProblem(text: string): string | undefined {
  let d: ReturnType<typeof parse>;
  try {
    d = parse(text);
  } catch {
    return /^\d+\s*[a-zA-Z]+$/.test(text) ? "an ISO-8601 duration starts with 'P' (e.g. P7D, PT12H)" : 'not an ISO-8601 duration';
  }
  if (d.negative) return 'a duration must be positive';
  const total = (d.years ?? 0) + (d.months ?? 0) + (d.weeks ?? 0) + (d.days ?? 0) + (d.hours ?? 0) + (d.minutes ?? 0) + (d.seconds ?? 0);
  return total > 0 ? undefined : 'a duration must be longer than zero';
}

export const DurationRule: Rule = {
  name: 'DurationRule',
  codes: { 'invalid-duration': 'error' },
  values: { paths: tablePaths(DURATION_FIELDS) },
  value(value, path, ctx) {
    if (typeof value !== 'string' || !isDurationField(ctx.ir.op, path)) return;
    const problem = durationProblem(value);
    if (problem) ctx.report({ code: 'invalid-duration', message: `'${value}' is not a valid duration: ${problem}`, path });
  },
};
