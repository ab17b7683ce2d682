/**
 * The checker calls a rule's `statement` hook only on the ops its `Rule.ops` admits: these tests
 * hold every op-scoped rule to what it reports when called on every statement, on the upstream
 * IRs and on each of them relabelled as every op.
 */
import { describe, expect, it } from 'vitest';
import { check, RULES, type Rule } from '../../src/check/index.js';
import { OPS, STAGE_OF } from '../../src/language/ops.js';
import type { IR } from '../../src/ir/schema.js';
import { validateIr } from '../../src/ir/validate.js';
import { corpusIrs } from '../ir-corpus.js';

const strip = (ds: ReturnType<typeof check>) => ds.map((d) => `${d.statement} ${d.code} ${d.path} ${d.message}`);
/** The same rules with no op scope: every statement hook called on every statement, as before scopes. */
const unscoped: Rule[] = RULES.map((r) => ({ ...r, ops: undefined }));

/** Statements each op-scoped rule reports on (most codes of each; the upstream IRs have few of them). */
const TRIGGERS = [
  { stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['a'] } }, args: { pick: 3 } },
  { stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['a'] } }, args: { level: 'episode' } },
  { stage: 'STO', op: 'Promote', target: { ids: ['1'] }, args: { reward: 2 } },
  { stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, episode_id: '3' } },
  { stage: 'STO', op: 'Split', target: { ids: ['1'] }, args: { strategy: 'by_sentences', level: 'episode' } },
  { stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, attribute: 'city' } },
  { stage: 'RET', op: 'Retrieve', target: { filter: { subject: 'mira' } }, args: { as_of: '2025-01-01T00:00:00Z', history: true } },
  { stage: 'RET', op: 'Summarize', target: { filter: { subject: 'mira' } }, args: { as_of: '2025-01-01T00:00:00Z', history: true } },
  { stage: 'STO', op: 'Update', target: { ids: ['1'] }, args: { set: { owner: 'x', utility: 1, lock_mode: 'read_only' } } },
  { stage: 'ENC', op: 'Encode', args: { payload: { text: 'x' }, lock_mode: 'nope', owner: 'x' } },
  { stage: 'STO', op: 'Lock', target: { ids: ['1'] }, args: { mode: 'read_only', lock_mode: 'nope', policy: { allow: ['Update'], deny: ['Update'] } } },
  { stage: 'STO', op: 'Merge', target: { ids: ['1'] }, args: { primary_id: '2' } },
  { stage: 'STO', op: 'Delete', target: { filter: { has_tags: ['a'] } }, args: {} },
  { stage: 'STO', op: 'Update', target: { filter: { has_tags: ['a'] } }, args: { set: { type: 'x' } } },
] as unknown as IR[];

describe('statement hooks scoped by Rule.ops', () => {
  const irs = [...(corpusIrs().map(({ ir }) => validateIr(ir).ir!).filter(Boolean) as IR[]), ...TRIGGERS];
  const scopedRules = RULES.filter((r) => r.ops);

  it('each scoped rule reports on some trigger (so a scope that left out an op would show)', () => {
    for (const rule of scopedRules) {
      expect(check(TRIGGERS, { rules: [{ ...rule, ops: undefined }] }).length, rule.name).toBeGreaterThan(0);
    }
    const codes = new Set(check(TRIGGERS).map((d) => d.code));
    for (const code of ['level-mismatch', 'level-needs-search', 'reward-out-of-range', 'fact-needs-subject', 'as-of-with-history', 'governed-column', 'invalid-enum', 'policy-conflict', 'merge-needs-two', 'write-without-limit']) {
      expect(codes.has(code as never), code).toBe(true);
    }
  });

  it('some rules are scoped, each to some ops but not all', () => {
    expect(scopedRules.map((r) => r.name).sort()).toEqual(['ExperienceRule', 'FactRule', 'GovernedColumnRule', 'LockPolicyRule', 'MergeRule', 'WriteLimitRule']);
    for (const r of scopedRules) expect(r.ops!.size, r.name).toBeLessThan(OPS.length);
  });

  it('report on the upstream IRs exactly what they report called on every statement', () => {
    const out = strip(check(irs));
    expect(out.length).toBeGreaterThan(100);
    expect(out).toEqual(strip(check(irs, { rules: unscoped })));
  });

  it('report nothing, called on a statement of an op outside their scope (every upstream IR as every op)', () => {
    const relabelled: IR[] = [];
    for (const ir of irs) for (const op of OPS) relabelled.push({ ...ir, op, stage: STAGE_OF[op] } as IR);
    for (const rule of scopedRules) {
      const outside = relabelled.filter((ir) => !rule.ops!.has(ir.op));
      const everywhere = { ...rule, ops: undefined, value: undefined, values: undefined };
      expect(strip(check(outside, { rules: [everywhere] })), rule.name).toEqual([]);
    }
    // And with every rule, scoped or not, the relabelled IRs give the same diagnostics.
    expect(strip(check(relabelled))).toEqual(strip(check(relabelled, { rules: unscoped })));
  });

  it('a scoped hook is called on its ops only', () => {
    const seen: string[] = [];
    const rule: Rule = { name: 'O', codes: {}, ops: new Set(['Update']), statement: (ir) => void seen.push(ir.op) };
    const irs = [
      { stage: 'RET', op: 'Retrieve', target: { ids: ['1'] } },
      { stage: 'STO', op: 'Update', target: { ids: ['1'] }, args: { set: { type: 'x' } } },
    ] as unknown as IR[];
    check(irs, { rules: [rule] });
    expect(seen).toEqual(['Update']);
  });
});
