/**
 * A one-off reminder (an extension of the DSL, spec/syntax.md): `REMIND <date-time>` is written in
 * the IR as the RFC 5545 rule that fires once at that instant, `FREQ=DAILY;COUNT=1;DTSTART=…Z`,
 * an rrule the upstream field already holds; a rule of exactly that form prints back as
 * `REMIND <date-time>` (UTC), so the IR round-trips unchanged.
 */

const ONE_OFF = /^FREQ=DAILY;COUNT=1;DTSTART=(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/** The rule for one reminder at `dateTime` (an ISO-8601 date, or date-time with an offset), or undefined when it is neither. */
export function oneOffRule(dateTime: string): string | undefined {
  if (!DATE_TIME.test(dateTime)) return undefined;
  const t = new Date(dateTime);
  if (Number.isNaN(t.getTime())) return undefined;
  const basic = t.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
  return `FREQ=DAILY;COUNT=1;DTSTART=${basic}`;
}

/** The instant (UTC, `YYYY-MM-DDTHH:MM:SSZ`) of a one-off rule, or undefined for any other rule. */
export function oneOffTime(rule: string): string | undefined {
  const m = ONE_OFF.exec(rule);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : undefined;
}
