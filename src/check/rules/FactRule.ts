/**
 * Invariant: a fact is keyed by (subject, attribute) — an ATTRIBUTE comes with a SUBJECT, and the
 * fact-only clauses (VALID FROM, EPISODE, CONFIDENCE) come with an ATTRIBUTE; a read is either in
 * time (AS OF) or a HISTORY, not both. A schema declaration (`ATTRIBUTE a SCHEMA {…}`) has no subject.
 * Spec: spec/checks.md#typed-facts
 */
import type { Rule } from '../rule.js';

const FACT_ONLY = ['valid_from', 'episode', 'confidence'] as const;

export const FactRule: Rule = {
  name: 'FactRule',
  ops: new Set(['Encode', 'Retrieve', 'Summarize']),
  codes: { 'fact-needs-subject': 'error', 'fact-needs-attribute': 'error', 'as-of-with-history': 'error' },
  given: ['Encode:args.attribute', ...FACT_ONLY.map((k) => `Encode:args.${k}`), 'Retrieve:args.as_of', 'Summarize:args.as_of'],
  statement(ir, ctx) {
    const a: Record<string, unknown> = ir.args ?? {};
    if (ir.op === 'Encode') {
      const payload: Record<string, unknown> = (a.payload as Record<string, unknown> | undefined) ?? {};
      const subject = a.subject ?? payload.subject;
      if (a.attribute !== undefined && a.schema === undefined && (typeof subject !== 'string' || subject.trim() === '')) {
        ctx.report({ code: 'fact-needs-subject', message: 'a fact is keyed by (subject, attribute): add SUBJECT (e.g. SUBJECT mira)', path: 'args.attribute' });
      }
      if (a.attribute === undefined) {
        for (const key of FACT_ONLY) {
          if (a[key] === undefined) continue;
          ctx.report({ code: 'fact-needs-attribute', message: `${ctx.source === 'dsl' ? clause(key) : `args.${key}`} belongs to a fact: add ATTRIBUTE (and SUBJECT)`, path: `args.${key}` });
        }
      }
    }
    if ((ir.op === 'Retrieve' || ir.op === 'Summarize') && a.as_of !== undefined && a.history === true) {
      const range = ctx.source === 'dsl' ? ctx.sourceMap?.get('args.history') : undefined;
      // Removing HISTORY with the white space before it keeps the rest of the line as written.
      const start = range && range.start.offset > 0 ? { ...range.start, offset: range.start.offset - 1, column: range.start.column - 1 } : range?.start;
      ctx.report({
        code: 'as-of-with-history',
        message: 'AS OF reads one instant and HISTORY every version: use one of them',
        path: 'args.history',
        related: [{ message: 'AS OF given here', path: 'args.as_of' }],
        ...(range && start ? { fix: { message: 'remove HISTORY (keep AS OF)', edits: [{ range: { start, end: range.end }, newText: '' }] } } : {}),
      });
    }
  },
};

function clause(key: (typeof FACT_ONLY)[number]): string {
  return key === 'valid_from' ? 'VALID FROM' : key.toUpperCase();
}
