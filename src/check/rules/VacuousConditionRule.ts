/**
 * Invariant: every target condition as written selects something narrower than "everything".
 * An empty or blank tag (`tags HAS ""`), an empty facets object (`facets = {}`) or a blank search
 * query would otherwise be dropped, and the filter would select every record without the
 * CONFIRM that `ALL` needs. Lowering refuses the same conditions (the engine never turns a
 * written filter into no filter).
 * Spec: spec/checks.md#empty-condition
 */
import type { Rule, RuleContext } from '../rule.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const blank = (v: unknown) => typeof v === 'string' && v.trim() === '';

/** Reports each empty or blank tag of a tag condition (`key`: has_tags, not_tags). */
function blankTags(tags: unknown, key: string, ctx: RuleContext): void {
  if (!Array.isArray(tags)) return;
  for (let i = 0; i < tags.length; i++) {
    if (!(i in tags)) continue;
    if (blank(tags[i])) ctx.report({ code: 'empty-condition', message: `an empty or blank tag in \`${key}\` selects nothing as written; name a tag or drop the condition`, path: `target.filter.${key}.${i}` });
  }
}

/** Reports a blank text condition (`key`: type, subject, location, topic). */
function blankText(value: unknown, key: string, ctx: RuleContext): void {
  if (blank(value)) ctx.report({ code: 'empty-condition', message: `an empty \`${key}\` condition; name a value or drop the condition`, path: `target.filter.${key}` });
}

export const VacuousConditionRule: Rule = {
  name: 'VacuousConditionRule',
  codes: { 'empty-condition': 'error' },
  given: ['*:target.filter', '*:target.search'],
  statement(ir, ctx) {
    const target: unknown = ir.target;
    if (!isObject(target)) return;
    const filter = target.filter;
    if (isObject(filter)) {
      // The keys the filter lists (inherited enumerable ones too, as a read by name finds them),
      // not a read of each key this rule knows: a filter gives few of them, and reading an absent
      // key of an object made by a spread (`{ ...f, limit: 10 }`) looks it up in the runtime each
      // time (V8 keeps no "absent" answer for such objects), which was a third of checking one.
      let hasTags: unknown, notTags: unknown, facets: unknown, type: unknown, subject: unknown, location: unknown, topic: unknown;
      for (const key in filter) {
        switch (key) {
          case 'has_tags': hasTags = filter[key]; break;
          case 'not_tags': notTags = filter[key]; break;
          case 'facets': facets = filter[key]; break;
          case 'type': type = filter[key]; break;
          case 'subject': subject = filter[key]; break;
          case 'location': location = filter[key]; break;
          case 'topic': topic = filter[key]; break;
        }
      }
      // Reported in this order whatever the keys' order.
      blankTags(hasTags, 'has_tags', ctx);
      blankTags(notTags, 'not_tags', ctx);
      if (isObject(facets) && Object.keys(facets).length === 0) {
        ctx.report({ code: 'empty-condition', message: 'an empty facets condition `facets = {}` names no facet; name one or drop the condition', path: 'target.filter.facets' });
      }
      blankText(type, 'type', ctx);
      blankText(subject, 'subject', ctx);
      blankText(location, 'location', ctx);
      blankText(topic, 'topic', ctx);
    }
    const search = target.search;
    if (isObject(search) && isObject(search.intent)) {
      const { query, context } = search.intent;
      if (blank(query) && (context === undefined || blank(context))) {
        ctx.report({ code: 'empty-condition', message: 'a blank search query matches nothing as written; give the search text', path: 'target.search.intent.query' });
      }
    }
  },
};
