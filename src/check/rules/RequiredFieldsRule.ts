/**
 * Invariant: each op carries the arguments it cannot run without — Encode a payload with text,
 * url or structured content; Update a non-empty `set`; Label tags or facets; Promote one of
 * weight, weight_delta, remind or reward (and a reminder its rrule); Demote one of archive, weight or
 * weight_delta; Expire ttl or until; a search intent its query or vector (a turn-level RETRIEVE:
 * or its CONTEXT, the state).
 * Spec: spec/checks.md#missing-field
 */
import type { IR } from '../../ir/schema.js';
import { spell, valueAt } from '../paths.js';
import type { Rule, RuleContext } from '../rule.js';

/** Where a group of alternatives lives and which of them must be present (at least one). */
const NEEDS: ReadonlyArray<{ readonly op?: IR['op']; readonly at: string; readonly anyOf: readonly string[]; readonly what: string }> = [
  { op: 'Encode', at: 'args.payload', anyOf: ['text', 'url', 'structured'], what: 'Encode needs content' },
  { op: 'Label', at: 'args', anyOf: ['tags', 'facets'], what: 'Label needs something to attach' },
  { op: 'Promote', at: 'args', anyOf: ['weight', 'weight_delta', 'remind', 'reward'], what: 'Promote needs to know how' },
  { op: 'Demote', at: 'args', anyOf: ['archive', 'weight', 'weight_delta'], what: 'Demote needs to know how' },
  { op: 'Expire', at: 'args', anyOf: ['ttl', 'until'], what: 'Expire needs a horizon' },
];

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Whether one of `keys` is given in `obj`. */
function anyGiven(obj: Record<string, unknown>, keys: readonly string[]): boolean {
  for (let i = 0; i < keys.length; i++) if (obj[keys[i]] !== undefined) return true;
  return false;
}

/** Reports that none of `need`'s alternatives is given (at its object, when there is one). */
function missingOneOf(ctx: RuleContext, need: (typeof NEEDS)[number], hasObject: boolean): void {
  const where = need.at.split('.').pop();
  missing(
    ctx,
    hasObject ? need.at : '',
    ctx.source === 'dsl'
      ? `${need.what}: give one of ${need.anyOf.map((k) => spell(ctx, `${need.at}.${k}`)).join(', ')}`
      : `${need.what}: give one of ${need.anyOf.join(', ')} in ${where}`,
  );
}

function missing(ctx: RuleContext, path: string, message: string): void {
  ctx.report({ code: 'missing-field', message, path });
}

export const RequiredFieldsRule: Rule = {
  name: 'RequiredFieldsRule',
  codes: { 'missing-field': 'error' },
  // A need is missed where its fields are absent: its op's every statement is looked at.
  given: [...NEEDS.map((n) => `${n.op}:`), 'Update:', '*:target.search.intent'],
  statement(ir, ctx) {
    // Indexed loops and no closure over the loop's variables (a context per need): the usual
    // statement, which has what it needs, allocates nothing.
    for (let n = 0; n < NEEDS.length; n++) {
      const need = NEEDS[n];
      if (need.op !== ir.op) continue;
      // A schema declaration (`ENCODE ATTRIBUTE a SCHEMA { … }`) stores no content.
      if (ir.op === 'Encode' && ir.args?.schema !== undefined) continue;
      const obj = valueAt(ir, need.at);
      if (isObject(obj) && anyGiven(obj, need.anyOf)) continue;
      missingOneOf(ctx, need, isObject(obj));
    }
    if (ir.op === 'Update') {
      const set = ir.args?.set;
      if (!isObject(set)) missing(ctx, ir.args ? 'args' : '', `Update needs a set of fields to change (${ctx.source === 'dsl' ? 'SET k = v: args.set' : 'args.set'})`);
      else if (Object.keys(set).length === 0) missing(ctx, 'args.set', 'Update has an empty set: name at least one field to change');
    }
    if (ir.op === 'Promote' && ir.args?.remind && ir.args.remind.rrule === undefined) {
      // One word, two meanings: PROMOTE's UNTIL ends a reminder; an expiry time is EXPIRE's UNTIL.
      const untilOnly = ir.args.remind.until !== undefined;
      const dsl = ctx.source === 'dsl';
      missing(
        ctx,
        'args.remind',
        untilOnly
          ? dsl
            ? 'UNTIL in PROMOTE ends a reminder, which needs its rule: REMIND "FREQ=WEEKLY;BYDAY=MO" UNTIL t. To make memories expire at a time, write EXPIRE … UNTIL t'
            : 'args.remind.until ends a reminder, which needs its rrule (e.g. FREQ=WEEKLY;BYDAY=MO); an expiry time is Expire\'s args.until'
          : 'a reminder needs an rrule (e.g. FREQ=WEEKLY;BYDAY=MO)',
      );
    }
    const intent = ir.target?.search?.intent;
    // A retrieval at a level may search by the current state alone: `search CONTEXT "<state>" … LEVEL turn`
    // (at LEVEL episode the ExperienceRule flags it: context-without-turn).
    const stateSearch = ir.op === 'Retrieve' && ir.args?.level !== undefined && typeof intent?.context === 'string';
    if (intent && intent.query === undefined && intent.vector === undefined && !stateSearch) {
      missing(ctx, 'target.search.intent', ctx.source === 'dsl' ? 'a search needs a query (search "…") or a VECTOR' : 'a search needs a query or a vector');
    }
  },
};
