/** Time normalisation for lowering: every instant becomes UTC `YYYY-MM-DDTHH:MM:SSZ`. */
import { parse as parseIsoDuration } from 'tinyduration';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** `YYYY-MM-DDTHH:MM:SSZ` for a Date. */
export function formatUtc(date: Date): string {
  return date.toISOString().slice(0, 19) + 'Z';
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * `formatUtc(parseInstant(text))`, or null where that parse fails. Text already in the form
 * `YYYY-MM-DDTHH:MM:SSZ` (`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$`: most stored and generated
 * times) is checked and returned as it is, without building dates; anything else goes through the
 * parser.
 */
export function utcText(text: string): string | null {
  // The form read by character codes (no match array, no substrings): its separators where the
  // pattern has them, digits everywhere else (`digits` gives -1 for a character that is not one).
  if (text.length === 20 && text.charCodeAt(4) === 0x2d && text.charCodeAt(7) === 0x2d && text.charCodeAt(10) === 0x54
    && text.charCodeAt(13) === 0x3a && text.charCodeAt(16) === 0x3a && text.charCodeAt(19) === 0x5a) {
    const y = digits(text, 0, 4), mo = digits(text, 5, 2), d = digits(text, 8, 2);
    const h = digits(text, 11, 2), mi = digits(text, 14, 2), sec = digits(text, 17, 2);
    if (y >= 0 && mo >= 0 && d >= 0 && h >= 0 && mi >= 0 && sec >= 0) {
      const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
      const days = mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1];
      // Years before 1000 take the parser's path (Date.UTC reads 0–99 as 19xx, which it refuses).
      if (y >= 1000 && mo >= 1 && mo <= 12 && d >= 1 && d <= days && h <= 23 && mi <= 59 && sec <= 59) return text;
    }
  }
  const date = parseInstant(text);
  return date ? formatUtc(date) : null;
}

/** The number the `n` ASCII digits of `text` from `at` spell, or -1 when one is not a digit. */
function digits(text: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = text.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * Parses an ISO-8601 date or date-time; a date alone means midnight UTC and a time without an
 * offset is read as UTC. Returns null for anything else (including impossible dates).
 */
export function parseInstant(text: string): Date | null {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== +y || check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) {
    return null;
  }
  return new Date(ms - offsetMinutes * 60_000);
}


export interface DurationParts {
  readonly years: number;
  readonly months: number;
  readonly weeks: number;
  readonly days: number;
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
}

const SHORT_DURATION = /^(\d+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|d|days?|w|weeks?|mo|months?|y|years?)$/i;

/** ISO-8601 durations (`P90D`, `PT12H`, `P1Y2M`) and the short forms `90d`, `12h`, `3 weeks`. */
export function parseDuration(text: string): DurationParts | null {
  const t = text.trim();
  const zero = { years: 0, months: 0, weeks: 0, days: 0, hours: 0, minutes: 0, seconds: 0 };
  const short = SHORT_DURATION.exec(t);
  if (short) {
    const n = Number(short[1]);
    const u = short[2].toLowerCase();
    if (u === 'm' || u.startsWith('min')) return { ...zero, minutes: n };
    if (u.startsWith('s')) return { ...zero, seconds: n };
    if (u.startsWith('h')) return { ...zero, hours: n };
    if (u.startsWith('d')) return { ...zero, days: n };
    if (u.startsWith('w')) return { ...zero, weeks: n };
    if (u.startsWith('mo')) return { ...zero, months: n };
    return { ...zero, years: n };
  }
  if (!/^P/i.test(t)) return null;
  try {
    const p = parseIsoDuration(t.toUpperCase());
    if (p.negative) return null;
    return { ...zero, ...Object.fromEntries(Object.entries(p).filter(([k]) => k in zero)) } as DurationParts;
  } catch {
    return null;
  }
}

/** `date` shifted by `sign` × duration; months and years move on the calendar (UTC), clamping the day. */
export function addDuration(date: Date, d: DurationParts, sign: 1 | -1): Date {
  const out = new Date(date.getTime());
  const months = sign * (d.years * 12 + d.months);
  if (months) {
    const day = out.getUTCDate();
    out.setUTCDate(1);
    out.setUTCMonth(out.getUTCMonth() + months);
    const lastDay = new Date(Date.UTC(out.getUTCFullYear(), out.getUTCMonth() + 1, 0)).getUTCDate();
    out.setUTCDate(Math.min(day, lastDay));
  }
  const ms = (((d.weeks * 7 + d.days) * 24 + d.hours) * 60 + d.minutes) * 60_000 + d.seconds * 1000;
  return new Date(out.getTime() + sign * ms);
}

export function unitDuration(amount: number, unit: 'minutes' | 'hours' | 'days' | 'weeks' | 'months' | 'years'): DurationParts {
  const zero = { years: 0, months: 0, weeks: 0, days: 0, hours: 0, minutes: 0, seconds: 0 };
  return { ...zero, [unit]: amount };
}
