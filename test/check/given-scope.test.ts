/**
 * The checker calls a rule's `statement` hook only on statements that give one of the fields its
 * `Rule.given` names for their op: these tests hold every gated rule to what it reports when
 * called on every statement, on the upstream IRs, on each of them relabelled as every op, and on
 * IRs with values (good and bad) put at each of the gates' paths and extra keys in each object.
 */
import { describe, expect, it } from 'vitest';
import { check, RULES, type Rule } from '../../src/check/index.js';
import { OPS, STAGE_OF } from '../../src/language/ops.js';
import type { IR } from '../../src/ir/schema.js';
import { validateIr } from '../../src/ir/validate.js';
import { corpusIrs } from '../ir-corpus.js';
import { irPaths, setAt } from '../support/mutate.js';

const strip = (ds: ReturnType<typeof check>) => ds.map((d) => `${d.statement} ${d.code} ${d.severity} ${d.path} ${d.message} ${JSON.stringify(d.related)} ${JSON.stringify(d.fix)}`);
/** The same rules with no gate: every statement hook called on every statement of its ops. */
const ungated: Rule[] = RULES.map((r) => ({ ...r, given: undefined }));
const gatedRules = RULES.filter((r) => r.given);

/** Values put at the gates' paths: ones the hooks pass and ones they report on. */
const VALUES: readonly unknown[] = [true, false, null, 0, 3, -1, 2, 0.5, '', ' ', 'x', 'turn', 'episode', 'read_only', '2025-01-01T00:00:00Z', {}, [], ['', 'x'], ['Update'], { $ref: 'a' }, [{ $ref: 'a' }, 'x'], { query: 'q' }, { has_tags: ['a'] }, { start: '2026-01-01T00:00:00Z', end: '2025-01-01T00:00:00Z' }, { weight_gte: 0.9, weight_lte: 0.1 }];
/** Keys put into each object of an IR (as in test/check/output-fingerprint). */
const EXTRA: ReadonlyArray<readonly [string, unknown]> = [
  ['status', 'done'], ['owner', 'eve'], ['utility', 0.5], ['lock_mode', 'nope'], ['weight_delta', 0.2], ['until', '2025-01-01T00:00:00Z'],
  ['url', 'https://x.example'], ['vector', [0.1]], ['_let', 'a'], ['start', '2026-01-01T00:00:00Z'], ['relative', 'last'], ['weight_gte', 0.9],
  ['has_tags', ['', 'x']], ['facets', {}], ['all', true], ['ids', [{ $ref: 'x' }, '7']], ['primary_id', { $ref: 'b' }], ['level', 'episode'], ['as_of', '2025-01-01T00:00:00Z'],
];

/** Statements that only several fields together make a rule report on. */
const TRIGGERS = [
  { stage: 'STO', op: 'Lock', target: { ids: ['1'] }, args: { mode: 'read_only', policy: { allow: ['Update'], deny: ['Update'] } } },
  { stage: 'RET', op: 'Retrieve', target: { filter: { weight_gte: 0.9, weight_lte: 0.1 } } },
] as unknown as IR[];

describe('statement hooks gated by Rule.given', () => {
  const corpus = corpusIrs().map(({ ir }) => validateIr(ir).ir!).filter(Boolean) as IR[];
  const byOp = [...new Map(corpus.map((ir) => [ir.op, ir])).values()];
  const paths = [...new Set(gatedRules.flatMap((r) => r.given!.map((e) => e.slice(e.indexOf(':') + 1))).filter((p) => p !== ''))];
  // Every op's sample statement relabelled as every op, and with each value at each gate path.
  const atGates: IR[] = [...TRIGGERS];
  for (const ir of byOp) {
    for (const op of OPS) atGates.push({ ...ir, op, stage: STAGE_OF[op] } as IR);
    // The hooks read validated shapes: a mutation counts as validation lets it through.
    for (const path of paths) {
      for (const v of VALUES) {
        const m = validateIr(setAt(ir, path.split('.'), v)).ir;
        if (m) atGates.push(m);
      }
    }
  }
  // The upstream IRs with an extra key in each object, as validation lets them through.
  const extra: IR[] = [];
  for (const ir of corpus.filter((_, i) => i % 24 === 0)) {
    for (const { path, leaf } of irPaths(ir)) {
      if (leaf || /^\d+$/.test(path[path.length - 1] ?? '')) continue;
      for (const [k, v] of EXTRA) {
        const m = validateIr(setAt(ir, [...path, k], v)).ir;
        if (m) extra.push(m);
      }
    }
  }

  it('every statement hook that can skip statements says so, and each gated rule reports somewhere here', () => {
    expect(gatedRules.map((r) => r.name).sort()).toEqual([
      'ConfirmationRule', 'ExclusiveArgsRule', 'ExperienceRule', 'FactRule', 'GovernedColumnRule', 'LockPolicyRule', 'MergeRule', 'RangeRule',
      'ReferenceRule', 'RequiredFieldsRule', 'TargetModeRule', 'TimeRangeRule', 'UnknownConditionRule', 'VacuousConditionRule', 'WriteLimitRule',
    ]);
    for (const rule of gatedRules) {
      const alone = { ...rule, value: undefined, values: undefined };
      expect(check([...atGates, ...extra], { rules: [alone] }).length, rule.name).toBeGreaterThan(0);
    }
  });

  it('report on the upstream IRs exactly what they report called on every statement', () => {
    const out = strip(check(corpus));
    expect(out.length).toBeGreaterThan(100);
    expect(out).toEqual(strip(check(corpus, { rules: ungated })));
  });

  it('report on IRs with values at the gates and extra keys exactly what they report called on every statement', () => {
    expect(atGates.length).toBeGreaterThan(3000);
    expect(extra.length).toBeGreaterThan(1000);
    for (const irs of [atGates, extra]) {
      const out = strip(check(irs));
      expect(out.length).toBeGreaterThan(1000);
      expect(out).toEqual(strip(check(irs, { rules: ungated })));
      expect(strip(check(irs, { policy: 'strict', source: 'dsl' }))).toEqual(strip(check(irs, { rules: ungated, policy: 'strict', source: 'dsl' })));
    }
  });

  it('each gated hook reports nothing on a statement whose gate is closed', () => {
    for (const rule of gatedRules) {
      const alone = { ...rule, value: undefined, values: undefined };
      // Called without its gate, the hook reports nothing where the gate would have skipped it.
      const closed = [...atGates, ...extra].filter((ir) => !opens(rule, ir));
      expect(closed.length, rule.name).toBeGreaterThan(0);
      expect(strip(check(closed, { rules: [{ ...alone, given: undefined }] })), rule.name).toEqual([]);
    }
  });

  it('a gated hook is called only on statements that give one of its fields for their op', () => {
    const seen: string[] = [];
    const rule: Rule = { name: 'G', codes: {}, given: ['Update:args.set', '*:target.all', 'Delete:'], statement: (ir) => void seen.push(`${ir.op} ${JSON.stringify(ir.target)}`) };
    const irs = [
      { stage: 'RET', op: 'Retrieve', target: { ids: ['1'] } },
      { stage: 'RET', op: 'Retrieve', target: { all: false } },
      { stage: 'STO', op: 'Update', target: { ids: ['2'] }, args: { set: { type: 'x' } } },
      { stage: 'STO', op: 'Update', target: { ids: ['3'] }, args: {} },
      { stage: 'STO', op: 'Delete', target: { ids: ['4'] } },
      { stage: 'STO', op: 'Expire', target: { ids: ['5'] }, args: { ttl: 'P1D' } },
    ] as unknown as IR[];
    check(irs, { rules: [rule] });
    expect(seen).toEqual(['Retrieve {"all":false}', 'Update {"ids":["2"]}', 'Delete {"ids":["4"]}']);
  });
});

/** Whether `rule`'s gate admits `ir` (what the checker decides, spelt out independently). */
function opens(rule: Rule, ir: IR): boolean {
  return rule.given!.some((entry) => {
    const colon = entry.indexOf(':');
    const op = entry.slice(0, colon);
    const path = entry.slice(colon + 1);
    if (op !== '*' && op !== ir.op) return false;
    if (path === '') return true;
    let v: unknown = ir;
    for (const k of path.split('.')) v = v === null || v === undefined ? undefined : (v as Record<string, unknown>)[k];
    return v !== undefined;
  });
}
