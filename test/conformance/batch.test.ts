/**
 * `t2m bench --plan --requests`: the requests a live run sends, written for a batch run, and the
 * batch run's output read back by `--answers`. The exported body of each sample must be the very
 * body a live run posts to a model (here a local OpenAI-compatible server on 127.0.0.1).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIProvider } from '../../src/agents/openai.js';
import { formatPlanReport, parseAnswers, planRequests, runPlanBenchmark, sampleRequest, type PlanSample } from '../../src/agents/plan-bench.js';
import { parseSamples } from '../../src/conformance/index.js';
import { irsToText } from '../../src/pipeline.js';
import type { IR } from '../../src/ir/schema.js';
import { fakeServer, requestOf, type FakeServer } from '../agents/server.js';
import { files, t2m } from '../cli/run-cli.js';

const FILE = resolve(import.meta.dirname, '../../fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl');
const all = parseSamples(readFileSync(FILE, 'utf8')).samples as PlanSample[];
const byId = new Map(all.map((s) => [s.id, s]));
/** Samples with stores of their own (prerequisites), so the system prompts differ. */
const IDS = ['t2m-command-direct-single-delete-001', 't2m-en-direct-single-label-073', 't2m-en-direct-single-update-007'];
const gold = (id: string) => byId.get(id)!.schema_list as IR[];

let server: FakeServer;
beforeAll(async () => {
  const byRequest = new Map(IDS.map((id) => [sampleRequest(byId.get(id)!)!, id]));
  server = await fakeServer((body) => {
    const id = byRequest.get(requestOf(body));
    if (!id) return { status: 404, body: '{"error":{"message":"unknown request"}}' };
    return body.response_format ? JSON.stringify({ schema_list: gold(id) }) : irsToText(gold(id));
  });
});
afterAll(() => server?.close());

/** A Batch API output line answering `id` with `content`. */
const outputLine = (id: string, content: string) =>
  JSON.stringify({ id: `batch_req_${id}`, custom_id: id, response: { status_code: 200, request_id: 'r', body: { choices: [{ index: 0, message: { role: 'assistant', content } }] } }, error: null });

describe('planRequests', () => {
  for (const mode of ['dsl', 'ir'] as const) {
    it(`writes, per sample, the body a live run posts first (${mode})`, async () => {
      const before = server.requests.length;
      const live = await runPlanBenchmark(all, { ids: IDS, mode, provider: openAIProvider({ baseUrl: `${server.baseUrl}`, model: 'm1' }), temperature: 0 });
      expect(live.overall.passed).toBe(IDS.length);
      const posted = server.requests.slice(before);
      const lines = (await planRequests(all, { ids: IDS, mode, model: 'm1', temperature: 0 })).map((l) => JSON.parse(l));
      expect(lines.map((l) => l.custom_id)).toEqual(IDS);
      for (const [i, line] of lines.entries()) {
        expect(line).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
        expect(line.body).toEqual(posted[i]);
      }
      // Each prompt shows the sample's own store.
      expect(lines[2].body.messages[0].content).toContain('affected_systems');
      expect(lines[0].body.messages[0].content).not.toContain('affected_systems');
      expect(Boolean(lines[0].body.response_format)).toBe(mode === 'ir');
    });
  }
});

describe('parseAnswers on Batch API output', () => {
  it('takes choices[0].message.content by custom_id; a failed request is listed, not an error', () => {
    const text = [
      outputLine(IDS[0], 'DELETE ID 1;'),
      JSON.stringify({ id: 'b', custom_id: IDS[1], response: null, error: { code: 'server_error', message: 'overloaded' } }),
      JSON.stringify({ id: 'c', custom_id: IDS[2], response: { status_code: 429, body: { error: { message: 'slow down' } } }, error: null }),
      JSON.stringify({ id: 'd', custom_id: 't2m-en-direct-single-delete-002', response: { status_code: 200, body: { choices: [] } }, error: null }),
    ].join('\n');
    const { answers, problems, failed } = parseAnswers(text, { known: new Set(all.map((s) => s.id)) });
    expect(problems).toEqual([]);
    expect([...answers]).toEqual([[IDS[0], 'DELETE ID 1;']]);
    expect(failed).toEqual([
      { line: 2, id: IDS[1], why: 'the request failed: overloaded' },
      { line: 3, id: IDS[2], why: 'the request failed with status 429' },
      { line: 4, id: 't2m-en-direct-single-delete-002', why: 'the response has no choices[0].message.content' },
    ]);
  });

  it('a custom_id naming no sample, or none at all, is a bad line', () => {
    const { problems } = parseAnswers(`${outputLine('nope', 'x')}\n${JSON.stringify({ custom_id: 7 })}\n`, { known: new Set(IDS) });
    expect(problems.map((p) => [p.line, p.code, p.message])).toEqual([
      [1, 'invalid-answer', 'nope names no sample of the benchmark file'],
      [2, 'invalid-answer', '"custom_id" must be the sample\'s id, a non-empty string'],
    ]);
  });
});

describe('t2m bench --plan --requests, then --answers on the batch output', () => {
  it('round trip: requests for two samples, their gold replies scored 2/2; a failed one is not executed', () => {
    const f = files({ 'ids.txt': `${IDS[1]}\n${IDS[2]}\n` });
    const out = `${f['ids.txt']}.requests.jsonl`;
    const w = t2m(['bench', FILE, '--plan', '--requests', out, '--model', 'gpt-x', '--ir', '--ids', `@${f['ids.txt']}`]);
    expect(w.status).toBe(0);
    expect(w.stderr).toContain(`2 requests written to ${out}`);
    const requests = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(requests.map((r) => [r.custom_id, r.body.model, r.body.messages[1].content])).toEqual(
      [IDS[1], IDS[2]].map((id) => [id, 'gpt-x', sampleRequest(byId.get(id)!)]),
    );
    const output = files({
      'out.jsonl': `${requests.map((r) => outputLine(r.custom_id, JSON.stringify({ schema_list: gold(r.custom_id) }))).join('\n')}\n`,
      'one-failed.jsonl': `${outputLine(IDS[1], JSON.stringify({ schema_list: gold(IDS[1]) }))}\n${JSON.stringify({ custom_id: IDS[2], response: null, error: { message: 'expired' } })}\n`,
    });
    const scored = t2m(['bench', FILE, '--plan', '--ir', '--answers', output['out.jsonl'], '--ids', `@${f['ids.txt']}`, '--json']);
    expect(scored.status).toBe(0);
    expect(JSON.parse(scored.stdout).overall).toMatchObject({ samples: 2, esr: 1, passed: 2 });
    const partly = t2m(['bench', FILE, '--plan', '--ir', '--answers', output['one-failed.jsonl'], '--ids', `@${f['ids.txt']}`, '--json']);
    expect(partly.status).toBe(0);
    expect(partly.stderr).toContain(`${output['one-failed.jsonl']}:2: note: ${IDS[2]}: the request failed: expired; scored as not executed`);
    expect(JSON.parse(partly.stdout).overall).toMatchObject({ samples: 2, esr: 0.5, passed: 1 });
  });

  it('--requests - writes to standard output; DSL mode sends no response_format', () => {
    const r = t2m(['bench', FILE, '--plan', '--requests', '-', '--model', 'm', '--ids', IDS[0]]);
    expect(r.status).toBe(0);
    const [line, ...rest] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rest).toEqual([]);
    expect(line.custom_id).toBe(IDS[0]);
    expect(line.body.response_format).toBeUndefined();
    expect(line.body.messages[0].content).toMatch(/^# Text2Mem DSL — language card/);
  });

  it('refuses --requests without --model, with --answers, or without --plan', () => {
    const f = files({ 'a.jsonl': `${outputLine(IDS[0], 'DELETE ID 1;')}\n` });
    const noModel = t2m(['bench', FILE, '--plan', '--requests', '-']);
    expect([noModel.status, noModel.stdout]).toEqual([2, '']);
    expect(noModel.stderr).toMatch(/--requests needs --model/);
    const both = t2m(['bench', FILE, '--plan', '--requests', '-', '--model', 'm', '--answers', f['a.jsonl']]);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/one or the other/);
    const noPlan = t2m(['bench', FILE, '--requests', '-', '--model', 'm']);
    expect(noPlan.status).toBe(2);
    expect(noPlan.stderr).toMatch(/--requests applies to --plan/);
  });
});

describe('a batch run\'s files as a newcomer has them', () => {
  it('--answers twice: the output file and the error file; a sample on both is a bad line', () => {
    const f = files({
      'output.jsonl': `${outputLine(IDS[1], JSON.stringify({ schema_list: gold(IDS[1]) }))}\n`,
      'errors.jsonl': `${JSON.stringify({ id: 'batch_req_e', custom_id: IDS[2], response: { status_code: 400, body: { error: { message: 'bad' } } }, error: null })}\n`,
      'again.jsonl': `${outputLine(IDS[1], 'x')}\n`,
    });
    const both = t2m(['bench', FILE, '--plan', '--ir', '--answers', f['output.jsonl'], '--answers', f['errors.jsonl'], '--ids', `${IDS[1]},${IDS[2]}`, '--json']);
    expect(both.status).toBe(0);
    expect(both.stderr).toContain(`${f['errors.jsonl']}:1: note: ${IDS[2]}: the request failed with status 400; scored as not executed`);
    expect(JSON.parse(both.stdout).overall).toMatchObject({ samples: 2, esr: 0.5, passed: 1 });
    const twice = t2m(['bench', FILE, '--plan', '--ir', '--answers', f['output.jsonl'], '--answers', f['again.jsonl']]);
    expect([twice.status, twice.stdout]).toEqual([2, '']);
    expect(twice.stderr).toContain(`${f['again.jsonl']}:1: error invalid-answer: a second line for ${IDS[1]} (the first is ${f['output.jsonl']}:1)`);
  });

  it('--ids @ the batch input file takes its custom_ids; most samples without an answer, or answers in the other notation, get a note', () => {
    const input = t2m(['bench', FILE, '--plan', '--requests', '-', '--model', 'm', '--ids', `${IDS[0]},${IDS[2]}`]);
    const f = files({ 'input.jsonl': input.stdout, 'out.jsonl': `${outputLine(IDS[0], irsToText(gold(IDS[0])))}\n` });
    const scoped = t2m(['bench', FILE, '--plan', '--answers', f['out.jsonl'], '--ids', `@${f['input.jsonl']}`, '--json']);
    expect(scoped.status).toBe(0);
    expect(JSON.parse(scoped.stdout).results.map((r: { sample: string }) => r.sample)).toEqual([IDS[0], IDS[2]]);
    expect(scoped.stderr).not.toContain('note:');
    const unscoped = t2m(['bench', FILE, '--plan', '--answers', f['out.jsonl'], '--only', 'Delete']);
    expect(unscoped.status).toBe(0);
    expect(unscoped.stderr).toMatch(/note: \d+ of the \d+ samples scored have no answer and count as not executed \(--ids @answers.jsonl scores only the answered ones\)/);
    const wrongMode = t2m(['bench', FILE, '--plan', '--ir', '--answers', f['out.jsonl'], '--ids', IDS[0]]);
    expect(wrongMode.stderr).toContain('note: 1 of 1 answers do not look like JSON: DSL answers are scored without --ir');
  });

  it('the report shows — for EMR where no sample of an operation has assertions (ranking checks only)', async () => {
    const retrieve = all.find((s) => s.expected.ranking && !s.expected.assertions.length)!;
    const report = await runPlanBenchmark(all, { ids: [retrieve.id], answers: new Map([[retrieve.id, irsToText(gold(retrieve.id))]]) });
    expect(formatPlanReport(report)).toMatch(/^overall +1 +[\d.]+ +[\d.]+ +[\d.]+ +1\.0000 +— +1\/1 /m);
  });
});

