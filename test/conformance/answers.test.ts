/**
 * `t2m bench --plan --answers`: replies written elsewhere, scored as a live model's first reply
 * (SMA, ESR, EMR, no repair round): an answer right, wrong, missing, malformed, with references,
 * and in IR mode; the library and the CLI.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPlanReport, parseAnswers, runPlanBenchmark, unstatedWording, type PlanSample } from '../../src/agents/plan-bench.js';
import { parseSamples } from '../../src/conformance/index.js';
import { irsToText } from '../../src/pipeline.js';
import type { IR } from '../../src/ir/schema.js';
import { files, t2m } from '../cli/run-cli.js';

const FILE = resolve(import.meta.dirname, '../../fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl');
const all = parseSamples(readFileSync(FILE, 'utf8')).samples as PlanSample[];
const byId = new Map(all.map((s) => [s.id, s]));
const sample = (id: string) => byId.get(id)!;

/** Soft-deletes the record tagged 垃圾邮件 of the last 7 days (two assertions). */
const SPAM = 't2m-command-direct-single-delete-001';
const OTHER = 't2m-en-direct-single-delete-001';
const gold = (id: string) => irsToText(sample(id).schema_list as IR[]);

describe('parseAnswers', () => {
  it('reads DSL answers by id; blank lines are skipped', () => {
    const { answers, problems } = parseAnswers(`${JSON.stringify({ id: 'a', answer: 'DELETE ID "1" SOFT;' })}\n\n${JSON.stringify({ id: 'b', answer: '' })}\n`);
    expect(problems).toEqual([]);
    expect([...answers]).toEqual([['a', 'DELETE ID "1" SOFT;'], ['b', '']]);
  });

  it('reports every bad line with its number and a code, and keeps none of them', () => {
    const lines = [
      JSON.stringify({ id: SPAM, answer: gold(SPAM) }),
      '{"id": "x", "answer": ',
      '["not", "an", "object"]',
      JSON.stringify({ answer: 'DELETE ALL SOFT CONFIRM;' }),
      JSON.stringify({ id: OTHER }),
      JSON.stringify({ id: OTHER, answer: { schema_list: [] } }),
      JSON.stringify({ id: 'no-such-sample', answer: 'DELETE ALL SOFT CONFIRM;' }),
      JSON.stringify({ id: SPAM, answer: 'again' }),
    ];
    const { answers, problems } = parseAnswers(lines.join('\n'), { known: new Set(byId.keys()) });
    expect(problems.map((p) => [p.line, p.code])).toEqual([
      [2, 'json-syntax'], [3, 'invalid-answer'], [4, 'invalid-answer'], [5, 'invalid-answer'], [6, 'invalid-answer'], [7, 'invalid-answer'], [8, 'invalid-answer'],
    ]);
    expect(problems[4].message).toMatch(/must be the reply as text/);
    expect(problems[5].message).toMatch(/no-such-sample names no sample/);
    expect(problems[6].message).toMatch(/a second answer for .* \(the first is on line 1\)/);
    expect([...answers.keys()]).toEqual([SPAM]);
  });

  it('in IR mode takes the answer as text or as the JSON value itself', () => {
    const list = { schema_list: sample(SPAM).schema_list };
    const { answers, problems } = parseAnswers([JSON.stringify({ id: 'a', answer: JSON.stringify(list) }), JSON.stringify({ id: 'b', answer: list })].join('\n'), { mode: 'ir' });
    expect(problems).toEqual([]);
    expect(JSON.parse(answers.get('a')!)).toEqual(list);
    expect(JSON.parse(answers.get('b')!)).toEqual(list);
  });
});

describe('runPlanBenchmark with answers', () => {
  it('scores a right answer 1, a wrong one below, a missing one as not executed, with no repair round', async () => {
    const answers = new Map([
      [SPAM, gold(SPAM)],
      // Checks and runs, but labels instead of deleting.
      [OTHER, 'LABEL WHERE tags HAS "nothing-like-this" TAGS "x";'],
    ]);
    const missing = 't2m-en-direct-single-delete-002';
    const report = await runPlanBenchmark(all, { answers, ids: [SPAM, OTHER, missing] });
    const [right, wrong, none] = report.results;
    expect(report.results.map((r) => r.sample)).toEqual([SPAM, OTHER, missing]);
    expect(right).toMatchObject({ executed: true, sma_lev: 1, sma_cos: 1, attempts: 1, problems: [] });
    expect(right.assertions).toEqual({ total: 2, passed: 2 });
    expect(wrong.executed).toBe(true);
    expect(wrong.sma_lev).toBeLessThan(1);
    expect(wrong.assertions.passed).toBeLessThan(wrong.assertions.total);
    expect(none).toMatchObject({ executed: false, attempts: 0, dsl: '' });
    expect(none.problems[0]).toBe('no answer for this sample');
    expect(none.sma_lev).toBeLessThan(0.1);
    const o = report.overall;
    expect(o.samples).toBe(3);
    expect(o.esr).toBeCloseTo(2 / 3);
    expect(o.passed).toBe(1);
    expect(report.by_op.Delete.samples).toBe(3);
  });

  it('an answer with errors is not repaired: one answer, not executed, plan-unrepaired', async () => {
    const report = await runPlanBenchmark(all, { answers: new Map([[SPAM, 'DELET WHERE tags HAS "垃圾邮件" SOFT;']]), ids: [SPAM] });
    const [r] = report.results;
    expect(r.executed).toBe(false);
    expect(r.attempts).toBe(1);
    expect(r.problems.join('\n')).toMatch(/plan-unrepaired: .* after 1 answer/);
    expect(r.assertions.passed).toBeLessThan(r.assertions.total);
  });

  it('references resolve across the answer\'s statements', async () => {
    const answer = 'LET $spam = RETRIEVE WHERE tags HAS "垃圾邮件";\nDELETE IDS $spam SOFT;';
    const report = await runPlanBenchmark(all, { answers: new Map([[SPAM, answer]]), ids: [SPAM] });
    expect(report.results[0]).toMatchObject({ executed: true, problems: [] });
    expect(report.results[0].assertions).toEqual({ total: 2, passed: 2 });
  });

  it('IR mode: the gold schema_list scores 1', async () => {
    const answers = new Map([[SPAM, JSON.stringify({ schema_list: sample(SPAM).schema_list })]]);
    const report = await runPlanBenchmark(all, { answers, ids: [SPAM], mode: 'ir' });
    const o = report.overall;
    expect([o.sma_lev, o.sma_cos, o.esr, o.emr, o.passed]).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('t2m bench --plan --answers', () => {
  it('prints the report; --json gives the same object; --ids from a file', () => {
    const f = files({
      'a.jsonl': `${JSON.stringify({ id: SPAM, answer: gold(SPAM) })}\n`,
      'ids.txt': `${SPAM}\n${OTHER}\n`,
    });
    const text = t2m(['bench', FILE, '--plan', '--answers', f['a.jsonl'], '--ids', `${SPAM},${OTHER}`]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^overall +2 /m);
    expect(text.stdout).toContain(`${OTHER} [Delete] no answer for this sample`);
    const json = t2m(['bench', FILE, '--plan', '--answers', f['a.jsonl'], '--ids', `@${f['ids.txt']}`, '--json']);
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.overall).toMatchObject({ samples: 2, esr: 0.5, passed: 1 });
    expect(report.results.map((r: { sample: string }) => r.sample)).toEqual([SPAM, OTHER]);
  });

  it('--ir with the IR object as the answer', () => {
    const f = files({ 'ir.jsonl': `${JSON.stringify({ id: SPAM, answer: { schema_list: sample(SPAM).schema_list } })}\n` });
    const r = t2m(['bench', FILE, '--plan', '--ir', '--answers', f['ir.jsonl'], '--ids', SPAM, '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).overall).toMatchObject({ samples: 1, esr: 1, emr: 1, passed: 1 });
  });

  it('a malformed line is reported as file:line with its code, and nothing is scored', () => {
    const f = files({ 'bad.jsonl': `${JSON.stringify({ id: SPAM, answer: gold(SPAM) })}\n{"id": \n${JSON.stringify({ id: 'nope', answer: 'x' })}\n` });
    const r = t2m(['bench', FILE, '--plan', '--answers', f['bad.jsonl'], '--ids', SPAM]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${f['bad.jsonl']}:2: error json-syntax: not JSON`);
    expect(r.stderr).toContain(`${f['bad.jsonl']}:3: error invalid-answer: nope names no sample of the benchmark file`);
    expect(r.stderr).toContain('2 bad lines');
  });

  it('refuses --answers with a model, --ids naming no sample, and --answers without --plan', () => {
    const f = files({ 'a.jsonl': `${JSON.stringify({ id: SPAM, answer: gold(SPAM) })}\n` });
    const withModel = t2m(['bench', FILE, '--plan', '--answers', f['a.jsonl'], '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm']);
    expect(withModel.status).toBe(2);
    expect(withModel.stderr).toMatch(/--answers scores replies given in a file/);
    const badIds = t2m(['bench', FILE, '--plan', '--answers', f['a.jsonl'], '--ids', 'nope']);
    expect(badIds.status).toBe(2);
    expect(badIds.stderr).toMatch(/--ids: 1 id names no sample .*: nope/);
    const noPlan = t2m(['bench', FILE, '--answers', f['a.jsonl']]);
    expect(noPlan.status).toBe(2);
    expect(noPlan.stderr).toMatch(/--answers applies to --plan/);
  });
});

describe('unstated wording', () => {
  it('lists what the assertions look for that neither the request nor the store states', () => {
    // The gold's new text for the venue is its own sentence; the request names a "new conference room".
    expect(unstatedWording(sample('t2m-en-direct-single-update-063'))).toEqual(['New location for the upcoming event is the conference hall on the third floor.']);
    // Every word asked for is in the request or the store (LIKE is case-blind; `_` is any character).
    expect(unstatedWording(sample(SPAM))).toEqual([]);
    const spaced = { ...sample(SPAM), expected: { ...sample(SPAM).expected, assertions: [
      { name: 'a', select: { from: 'memory', where: ['text LIKE :k'] }, expect: { op: '>=', value: 1 }, params: { k: '%Spam_Filter%' } },
      { name: 'b', select: { from: 'memory', where: ['text LIKE :k'], params: { k: '%never said%' } }, expect: { op: '>=', value: 1 } },
    ] } } as PlanSample;
    expect(unstatedWording({ ...spaced, nl: { en: 'Check the spam filter, please.' } })).toEqual(['never said']);
    // A time compared with `=` that the request, the store and the clock do not give; ids are no wording.
    expect(unstatedWording(sample('t2m-en-indirect-single-encode-007'))).toEqual(['2025-10-21T11:15:00Z']);
    const atClock = { ...spaced, nl: { en: 'spam filter' }, expected: { ...spaced.expected, assertions: [
      { name: 't', select: { from: 'memory', where: ['id = :id', 'time = :t', 'weight >= :w'] }, expect: { op: '==', value: 1 }, params: { id: '99', t: spaced.expected.meta.eval_time_utc, w: '0.7' } },
    ] } } as PlanSample;
    expect(unstatedWording(atClock)).toEqual([]);
  });

  it('the report counts such samples and names the words beside a failed one', async () => {
    const id = 't2m-en-direct-single-update-063';
    const report = await runPlanBenchmark(all, { answers: new Map([[id, 'UPDATE ID 1 SET text = "Event moved to the new conference room, third floor";'], [SPAM, gold(SPAM)]]), ids: [SPAM, id] });
    expect(report.overall.unstated).toBe(1);
    expect(report.results.map((r) => r.unstated.length)).toEqual([0, 1]);
    const text = formatPlanReport(report);
    expect(text).toContain('unstated wording: 1 sample asserts words that neither the request nor the store states');
    expect(text).toContain(`${id} [Update] assertion field_updated_text: expected COUNT == 1, got 0 (unstated: "New location for the upcoming event is the conference hall on the third floor.")`);
  });
});
