/**
 * Invariant: a governed column reached through an escape (`SET`/`WITH` keys beyond the verb's
 * clauses) is validated exactly as its clause is, and a column that no clause may write is
 * refused. Lock's `lock_mode` is Lock's mode (same enum), Encode's `lock_mode`,
 * `expire_action`/`on_expire` are those enums, `lock_expires` a date-time; an Update `set` or an
 * Encode arg naming a column the engine keeps itself (owner, deletion, lineage, timestamps) or a
 * column only LOCK or EXPIRE may write, or the utility only feedback (PROMOTE … REWARD) writes, is an error.
 * Spec: spec/checks.md#governed-column
 */
import { ON_EXPIRE } from '../../ir/schema.js';
import { ENGINE_COLUMNS as ENGINE, FEEDBACK_COLUMNS, LOCK_OR_EXPIRE_COLUMNS } from '../../language/index.js';
import type { Rule, RuleContext } from '../rule.js';

const LOCK_MODE_VALUES = ['read_only', 'append_only', 'custom'];
/** Columns the engine keeps itself: no clause writes them (the vocabulary's list). */
export const ENGINE_COLUMNS: readonly string[] = ENGINE;
/** Columns only LOCK (lock_*) and EXPIRE (expire_action, expire_reason) write; Update may not. */
const LOCK_OR_EXPIRE_ONLY: readonly string[] = LOCK_OR_EXPIRE_COLUMNS;
/** The learned utility (experience memory): only feedback, `PROMOTE … REWARD r`, writes it (audited, undoable). */
export const FEEDBACK_ONLY: readonly string[] = FEEDBACK_COLUMNS;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `args[key]`, when given, is a string among `values` (a function, not a closure per statement: this runs for every one). */
function enumCheck(args: Record<string, unknown>, ctx: RuleContext, key: string, values: readonly string[], what: string): void {
  const v = args[key];
  if (v === undefined) return;
  if (typeof v !== 'string') ctx.report({ code: 'invalid-type', message: `\`${key}\` must be a string (${what})`, path: `args.${key}` });
  else if (!values.includes(v)) ctx.report({ code: 'invalid-enum', message: `\`${key}\` must be one of ${values.join(', ')} (${what}), got '${v}'`, path: `args.${key}` });
}

/** Every key of an Encode's args this rule reads: an Encode with none of them (the usual one) is done in one pass over its keys. */
const ENCODE_KEYS: ReadonlySet<string> = new Set(['lock_mode', 'lock_expires', 'expire_action', 'on_expire', ...ENGINE_COLUMNS, ...FEEDBACK_ONLY]);

/** Whether `args` (a plain object: inherited keys are then Object.prototype's, none of these) gives none of ENCODE_KEYS. */
function plainWithout(args: Record<string, unknown>): boolean {
  if (Object.getPrototypeOf(args) !== Object.prototype) return false;
  for (const key in args) if (ENCODE_KEYS.has(key)) return false;
  return true;
}

export const GovernedColumnRule: Rule = {
  name: 'GovernedColumnRule',
  ops: new Set(['Lock', 'Encode', 'Update']),
  codes: { 'governed-column': 'error', 'invalid-enum': 'error', 'invalid-type': 'error' },
  // An Encode's args are looked at key by key by the hook itself (ENCODE_KEYS is long).
  given: ['Lock:args.lock_mode', 'Lock:args.lock_expires', 'Encode:', 'Update:args.set'],
  statement(ir, ctx) {
    const args: unknown = ir.args;
    if (!isObject(args)) return;
    if (ir.op === 'Encode' && plainWithout(args)) return;
    if (ir.op === 'Lock' || ir.op === 'Encode') {
      enumCheck(args, ctx, 'lock_mode', LOCK_MODE_VALUES, 'the lock mode');
      const expires = args.lock_expires;
      if (expires !== undefined && typeof expires !== 'string') ctx.report({ code: 'invalid-type', message: '`lock_expires` must be a date-time string', path: 'args.lock_expires' });
    }
    if (ir.op === 'Encode') {
      enumCheck(args, ctx, 'expire_action', ON_EXPIRE, 'the expiry action');
      enumCheck(args, ctx, 'on_expire', ON_EXPIRE, 'the expiry action');
      for (const key of ENGINE_COLUMNS) {
        if (args[key] !== undefined) ctx.report({ code: 'governed-column', message: `\`${key}\` is kept by the engine (the owner is the caller's actor); no statement may set it`, path: `args.${key}` });
      }
      for (const key of FEEDBACK_ONLY) {
        if (args[key] !== undefined) ctx.report({ code: 'governed-column', message: `\`${key}\` is learned from feedback: only PROMOTE … REWARD writes it`, path: `args.${key}` });
      }
    }
    if (ir.op === 'Update' && isObject(args.set)) {
      for (const key of Object.keys(args.set)) {
        if (ENGINE_COLUMNS.includes(key) || key === 'embedding') {
          ctx.report({ code: 'governed-column', message: `\`${key}\` is kept by the engine; UPDATE may not set it`, path: `args.set.${key}` });
        } else if (FEEDBACK_ONLY.includes(key)) {
          ctx.report({ code: 'governed-column', message: `\`${key}\` is learned from feedback: only PROMOTE … REWARD writes it (UPDATE may not)`, path: `args.set.${key}` });
        } else if (LOCK_OR_EXPIRE_ONLY.includes(key)) {
          const verb = key.startsWith('lock') ? 'LOCK' : 'EXPIRE';
          ctx.report({ code: 'governed-column', message: `\`${key}\` is a governed column only ${verb} writes; use ${verb} instead of UPDATE SET`, path: `args.set.${key}` });
        }
      }
    }
  },
};
