/**
 * Invariant: every datetime field of the IR is an ISO-8601 date and time with an explicit offset
 * (`Z` or `±HH:MM`), e.g. `2025-04-10T15:30:00+08:00`, and names a real calendar instant.
 * Spec: spec/checks.md#invalid-datetime
 */
import { fieldTable, tablePaths } from '../paths.js';
import type { Rule } from '../rule.js';

/** The datetime fields of the IR (free-form facet keys such as `facets.launch_date` are data, not checked). */
const DATETIME_FIELDS = [
  '*:target.filter.time_range.start',
  '*:target.filter.time_range.end',
  '*:target.filter.expire_before',
  '*:target.filter.expire_after',
  '*:meta.timestamp',
  'Encode:args.time',
  'Encode:args.expire_at',
  'Encode:args.next_auto_update_at',
  'Encode:args.facets.time',
  'Encode:args.payload.facets.time',
  'Update:args.set.time',
  'Update:args.set.expire_at',
  'Update:args.set.next_auto_update_at',
  'Update:args.set.facets.time',
  'Label:args.facets.time',
  'Promote:args.remind.until',
  'Lock:args.policy.expires',
  'Expire:args.until',
  'Delete:args.time_range.start',
  'Delete:args.time_range.end',
  'Encode:args.valid_from',
  'Retrieve:args.as_of',
  'Summarize:args.as_of',
  'Retrieve:args.known_at',
  'Summarize:args.known_at',
];
export const isDateTimeField = fieldTable(DATETIME_FIELDS);

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const digit = (text: string, i: number): number => {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
};
const two = (text: string, i: number): number => digit(text, i) * 10 + digit(text, i + 1);
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The usual spelling, `YYYY-MM-DDTHH:MM:SS` then `Z` or `±HH:MM`, read without the regex and its
 * match strings: the milliseconds when it is that and valid, else undefined (then `parseDateTime`
 * reads it, and says what is wrong).
 */
function usualDateTime(text: string): number | undefined {
  const n = text.length;
  if ((n !== 20 && n !== 25) || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  const year = two(text, 0) * 100 + two(text, 2);
  const month = two(text, 5);
  const day = two(text, 8);
  const h = two(text, 11);
  const mi = two(text, 14);
  const sec = two(text, 17);
  let offsetMinutes = 0;
  if (n === 20) {
    if (text.charCodeAt(19) !== 90) return undefined;
  } else {
    const sign = text.charCodeAt(19);
    if ((sign !== 43 && sign !== 45) || text.charCodeAt(22) !== 58) return undefined;
    const oh = two(text, 20);
    const om = two(text, 23);
    if (!(oh <= 18 && om <= 59)) return undefined;
    offsetMinutes = (sign === 45 ? -1 : 1) * (oh * 60 + om);
  }
  // NaN (a non-digit) fails every comparison.
  // Years below 100 go to the regex: Date.UTC reads them as 1900 + year, and so must the leap years.
  if (!(year >= 100 && month >= 1 && month <= 12 && day >= 1 && h <= 23 && mi <= 59 && sec <= 59)) return undefined;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS[month - 1] + (leap ? 1 : 0)) return undefined;
  return Date.UTC(year, month - 1, day, h, mi, sec, 0) - offsetMinutes * 60_000;
}

// The last two texts read and what they gave: a statement's time range is read by TimeRangeRule
// (start after end?) and then by this rule's value hook, the same two strings.
let lastText: string | undefined;
let lastResult: number | string = 0;
let priorText: string | undefined;
let priorResult: number | string = 0;

/** Milliseconds since the epoch, or why the text is not a valid datetime. */
export function parseDateTime(text: string): number | string {
  if (text === lastText) return lastResult;
  if (text === priorText) return priorResult;
  const usual = usualDateTime(text);
  const result = usual !== undefined ? usual : parseDateTimeText(text);
  priorText = lastText;
  priorResult = lastResult;
  lastText = text;
  lastResult = result;
  return result;
}

/** `parseDateTime` by the regex: any spelling, and what is wrong with it. */
export function parseDateTimeText(text: string): number | string {
  const m = DATETIME.exec(text);
  if (!m) {
    if (DATE_ONLY.test(text)) return 'a date needs a time and an offset';
    if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(text)) return "date and time must be separated by 'T'";
    return 'not an ISO-8601 datetime';
  }
  const [, y, mo, d, h, mi, s = '0', frac = '', zone, oh = '0', om = '0'] = m;
  if (!zone) return 'the time needs an offset (Z or ±HH:MM)';
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12) return `month ${mo} does not exist`;
  if (day < 1 || day > daysInMonth) return `day ${d} does not exist in ${y}-${mo}`;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return `${h}:${mi}:${s.padStart(2, '0')} is not a time of day`;
  if (Number(oh) > 18 || Number(om) > 59) return `offset ${zone} is out of range`;
  const offsetMinutes = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const millis = frac ? Math.round(Number(`0${frac}`) * 1000) : 0;
  return Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s), millis) - offsetMinutes * 60_000;
}

export const DateTimeRule: Rule = {
  name: 'DateTimeRule',
  codes: { 'invalid-datetime': 'error' },
  values: { paths: tablePaths(DATETIME_FIELDS) },
  value(value, path, ctx) {
    if (typeof value !== 'string' || !isDateTimeField(ctx.ir.op, path)) return;
    const parsed = parseDateTime(value);
    if (typeof parsed === 'string') {
      ctx.report({
        code: 'invalid-datetime',
        message: `'${value}' is not a valid datetime: ${parsed} (expected e.g. 2025-04-10T15:30:00+08:00)`,
        path,
      });
    }
  },
};
