/**
 * The keys lowering reads, per object of the IR, and the report of the others: the IR keeps keys
 * it does not know (the round trip preserves them), but the engine cannot act on them, so each
 * is reported (`ignored-arg`) and never dropped silently; an unknown target condition on a write
 * is an error (`unknown-condition`). The checker's UnknownConditionRule reads the same lists.
 */
import type { IR, Op } from '../ir/schema.js';
import { isPlainObject, type Lowerer } from './lowerer.js';

/**
 * The args each verb acts on (Encode keeps other keys as facets instead). `reason` of Promote,
 * Demote and Delete is kept in the audit log's copy of the IR.
 */
const USED_ARGS: Readonly<Record<Exclude<Op, 'Encode'>, readonly string[]>> = {
  Update: ['set'],
  Label: ['tags', 'facets', 'mode'],
  Promote: ['weight', 'weight_delta', 'remind', 'reason', 'reward'],
  Demote: ['archive', 'weight', 'weight_delta', 'reason'],
  Merge: ['strategy', 'primary_id', 'soft_delete_children', 'skip_reembedding'],
  Split: ['strategy', 'params', 'inherit_all', 'keep_source', 'level'],
  Lock: ['mode', 'lock_mode', 'reason', 'policy', 'lock_expires'],
  Expire: ['ttl', 'until', 'on_expire', 'reason'],
  Delete: ['older_than', 'time_range', 'soft', 'reason', 'expire_reason'],
  Retrieve: ['include', 'as_of', 'history', 'level', 'pick', 'selector', 'expand', 'known_at'],
  Summarize: ['focus', 'max_tokens', 'as_of', 'known_at'],
};
export const TARGET_KEYS = ['ids', 'filter', 'search', 'all', 'time_from', 'time_to'];
export const FILTER_KEYS = ['time_range', 'has_tags', 'not_tags', 'type', 'subject', 'location', 'topic', 'attribute', 'weight_gte', 'weight_lte', 'expire_before', 'expire_after', 'limit', 'facets'];
const SEARCH_KEYS = ['intent', 'overrides', 'limit'];
const INTENT_KEYS = ['query', 'context'];
const OVERRIDE_KEYS = ['k', 'limit', 'alpha', 'order_by'];
export const TIME_RANGE_KEYS = ['start', 'end', 'relative', 'amount', 'unit'];
const POLICY_KEYS = ['allow', 'deny', 'reviewers', 'expires'];

export function reportIgnored(l: Lowerer, ir: IR): void {
  // An Encode has no target and its args are read by ./encode.ts: nothing to report here.
  if (ir.op === 'Encode' && ir.target === undefined) return;
  const t = ir.target;
  unused(l, ir, t, TARGET_KEYS, 'target', true);
  unused(l, ir, t?.filter, FILTER_KEYS, 'target.filter', true);
  unused(l, ir, t?.filter?.time_range, TIME_RANGE_KEYS, 'target.filter.time_range', true);
  unused(l, ir, t?.search, SEARCH_KEYS, 'target.search');
  unused(l, ir, t?.search?.intent, INTENT_KEYS, 'target.search.intent');
  unused(l, ir, t?.search?.overrides, OVERRIDE_KEYS, 'target.search.overrides');
  if (ir.op === 'Encode') return;
  unused(l, ir, ir.args, USED_ARGS[ir.op], 'args');
  if (ir.op === 'Lock') unused(l, ir, ir.args?.policy, POLICY_KEYS, 'args.policy');
  if (ir.op === 'Delete') unused(l, ir, ir.args?.time_range, TIME_RANGE_KEYS, 'args.time_range');
  if (ir.op === 'Promote') unused(l, ir, ir.args?.remind, ['rrule', 'until'], 'args.remind');
}

/** Reports the keys of `obj` (at `path`) that are not in `known`: ignored with a warning, or, for a write's condition, refused. */
function unused(l: Lowerer, ir: IR, obj: unknown, known: readonly string[], path: string, condition = false): void {
  if (!isPlainObject(obj)) return;
  for (const key in obj) {
    if (!Object.hasOwn(obj, key) || known.includes(key)) continue;
    // A condition the engine cannot apply would make a write select more records than asked.
    if (condition && ir.op !== 'Retrieve' && ir.op !== 'Summarize') {
      l.error('unknown-condition', `${ir.op} refused: the engine cannot apply ${path}.${key}, so the write would select more records than asked (a facet condition is written facets.${key})`, `${path}.${key}`);
    } else l.warn('ignored-arg', `${ir.op} ignores '${key}': the engine does not use ${path}.${key}`, `${path}.${key}`);
  }
}
