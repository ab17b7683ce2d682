/**
 * Invariant: every target condition as written selects something narrower than "everything".
 * An empty or blank tag (`tags HAS ""`), an empty facets object (`facets = {}`) or a blank search
 * query would otherwise be dropped, and the filter would select every record without the
 * CONFIRM that `ALL` needs. Lowering refuses the same conditions (the engine never turns a
 * written filter into no filter).
 * Spec: spec/checks.md#empty-condition
 */
import type { Rule } from '../rule.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const blank = (v: unknown) => typeof v === 'string' && v.trim() === '';
const TAG_KEYS = ['has_tags', 'not_tags'] as const;
const TEXT_KEYS = ['type', 'subject', 'location', 'topic'] as const;

export const VacuousConditionRule: Rule = {
  name: 'VacuousConditionRule',
  codes: { 'empty-condition': 'error' },
  given: ['*:target.filter', '*:target.search'],
  statement(ir, ctx) {
    const target: unknown = ir.target;
    if (!isObject(target)) return;
    const filter = target.filter;
    if (isObject(filter)) {
      // Indexed loops over constant lists: no array or closure per statement.
      for (let k = 0; k < TAG_KEYS.length; k++) {
        const key = TAG_KEYS[k];
        const tags = filter[key];
        if (!Array.isArray(tags)) continue;
        for (let i = 0; i < tags.length; i++) {
          if (!(i in tags)) continue;
          if (blank(tags[i])) ctx.report({ code: 'empty-condition', message: `an empty or blank tag in \`${key}\` selects nothing as written; name a tag or drop the condition`, path: `target.filter.${key}.${i}` });
        }
      }
      if (isObject(filter.facets) && Object.keys(filter.facets).length === 0) {
        ctx.report({ code: 'empty-condition', message: 'an empty facets condition `facets = {}` names no facet; name one or drop the condition', path: 'target.filter.facets' });
      }
      for (let k = 0; k < TEXT_KEYS.length; k++) {
        const key = TEXT_KEYS[k];
        if (blank(filter[key])) ctx.report({ code: 'empty-condition', message: `an empty \`${key}\` condition; name a value or drop the condition`, path: `target.filter.${key}` });
      }
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
