/**
 * The `rrule` library, whichever way it was loaded: Node imports its CommonJS build (the classes
 * sit on the default export), bundlers its ES module build (named exports). Reading the default
 * through `Reflect.get` keeps bundlers from flagging a default export the ES build lacks.
 */
import * as rruleModule from 'rrule';

type RRuleModule = typeof rruleModule;
const loaded = (Reflect.get(rruleModule, 'default') as RRuleModule | undefined)?.RRule ? (Reflect.get(rruleModule, 'default') as RRuleModule) : rruleModule;

export const RRule: RRuleModule['RRule'] = loaded.RRule;
export const rrulestr: RRuleModule['rrulestr'] = loaded.rrulestr;

/** `UNTIL=2025-10-24T00:00:00Z` (or `UNTIL=2025-10-24`) as RFC 5545 writes it (`UNTIL=20251024T000000Z`). */
export function basicUntil(body: string): string {
  return body.replace(/(^|;)(UNTIL=)(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]00:?00)?)?(?=;|$)/i,
    (_m, lead: string, key: string, y: string, mo: string, d: string, h?: string, mi?: string, sec?: string, z?: string) =>
      `${lead}${key}${y}${mo}${d}${h === undefined ? '' : `T${h}${mi}${sec ?? '00'}${z ? 'Z' : ''}`}`);
}
