/**
 * Invariant: experience-memory clauses fit their level — a REWARD is in [0, 1]; a
 * `RETRIEVE … LEVEL` searches (its candidate stage is the search); `OF` and `EXPAND` need
 * `LEVEL turn`, `PICK` and a selector need `LEVEL`, a SPLIT makes turns only; a search `CONTEXT`
 * (a turn's state) in an episode retrieval is flagged; `PICK` keeps no more than `K` candidates.
 * Spec: spec/checks.md#experience-memory
 */
import type { Fix } from '../../diagnostics/diagnostic.js';
import { spell, valueAt } from '../paths.js';
import type { Rule, RuleContext } from '../rule.js';

/** A fix putting a number at its nearest bound, when the map holds exactly its span. */
function clampFix(ctx: RuleContext, path: string, bound: number): Fix | undefined {
  const range = ctx.sourceMap?.get(path);
  if (!range) return undefined;
  return { message: `use ${bound}`, edits: [{ range, newText: String(bound) }] };
}

/** The clauses of a two-stage retrieval (a constant: a RETRIEVE without LEVEL looks at them all). */
const TWO_STAGE_KEYS = ['pick', 'selector', 'expand', 'episode_id', 'positive_only', 'include_current', 'threshold'] as const;

export const ExperienceRule: Rule = {
  name: 'ExperienceRule',
  ops: new Set(['Promote', 'Encode', 'Split', 'Retrieve']),
  codes: { 'reward-out-of-range': 'error', 'level-needs-search': 'error', 'level-mismatch': 'error', 'context-without-turn': 'warning', 'pick-over-k': 'warning' },
  given: ['Promote:args.reward', 'Encode:args.episode_id', 'Split:args.level', 'Retrieve:args.level', ...TWO_STAGE_KEYS.map((k) => `Retrieve:args.${k}`)],
  statement(ir, ctx) {
    const args = (ir.args ?? {}) as Record<string, unknown>;
    const level = args.level;
    if (ir.op === 'Promote' && typeof args.reward === 'number' && !(args.reward >= 0 && args.reward <= 1)) {
      const bound = args.reward < 0 ? 0 : 1;
      ctx.report({
        code: 'reward-out-of-range',
        message: `a reward is an outcome in [0, 1] (0 failure, 1 success), got ${args.reward}`,
        path: 'args.reward',
        fix: clampFix(ctx, 'args.reward', bound),
      });
    }
    if (ir.op === 'Encode' && args.episode_id !== undefined && level !== 'turn') {
      ctx.report({ code: 'level-mismatch', message: `${spell(ctx, 'args.episode_id')} names a turn's episode: the record needs ${ctx.source === 'dsl' ? 'LEVEL turn' : 'args.level = "turn"'}`, path: 'args.episode_id' });
    }
    if (ir.op === 'Split' && level === 'episode') {
      ctx.report({ code: 'level-mismatch', message: 'SPLIT makes the pieces turns of the source episode: the level is `turn`', path: 'args.level', fix: clampLevel(ctx) });
    }
    if (ir.op !== 'Retrieve') return;
    if (level === undefined) {
      for (let i = 0; i < TWO_STAGE_KEYS.length; i++) {
        const key = TWO_STAGE_KEYS[i];
        if (args[key] !== undefined) ctx.report({ code: 'level-mismatch', message: `${spell(ctx, `args.${key}`)} belongs to a two-stage retrieval: add ${ctx.source === 'dsl' ? 'LEVEL episode or LEVEL turn' : 'args.level'}`, path: `args.${key}` });
      }
      return;
    }
    if (args.expand !== undefined && level !== 'turn') {
      ctx.report({ code: 'level-mismatch', message: `${spell(ctx, 'args.expand')} adds each selected turn's episode: it needs ${ctx.source === 'dsl' ? 'LEVEL turn' : 'args.level = "turn"'}`, path: 'args.expand' });
    }
    const search = ir.target?.search;
    if (!search) {
      ctx.report({ code: 'level-needs-search', message: `a retrieval at a level ranks candidates by similarity first: its target is a search (${ctx.source === 'dsl' ? level === 'turn' ? 'WHERE search CONTEXT "<state>"' : 'WHERE search "<request>"' : 'target.search'})`, path: ir.target ? 'target' : 'args.level' });
      return;
    }
    if (level === 'episode' && search.intent?.context !== undefined) {
      ctx.report({
        code: 'context-without-turn',
        message: `CONTEXT is the state a turn is retrieved by; an episode is found by the task's request (search "…")${search.intent.query === undefined ? ', so this CONTEXT is the query' : ', so this CONTEXT is not used'}; for a turn write LEVEL turn`,
        path: 'target.search.intent.context',
        // With no query, the CONTEXT is a state: the statement means a turn retrieval.
        ...(search.intent.query === undefined ? { fix: clampLevel(ctx) } : {}),
      });
    }
    const k = valueAt(ir, 'target.search.overrides.k') ?? valueAt(ir, 'target.search.limit');
    const pick = args.pick;
    if (typeof pick === 'number' && typeof k === 'number' && pick > k) {
      ctx.report({ code: 'pick-over-k', message: `PICK ${pick} keeps more than the ${k} candidates the search gives; at most ${k} come back`, path: 'args.pick', fix: clampFix(ctx, 'args.pick', k) });
    }
  },
};

function clampLevel(ctx: RuleContext): Fix | undefined {
  const range = ctx.sourceMap?.get('args.level');
  return range && range.end.offset - range.start.offset === 'episode'.length ? { message: "use 'turn'", edits: [{ range, newText: 'turn' }] } : undefined;
}
