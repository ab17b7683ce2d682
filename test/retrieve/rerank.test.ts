/**
 * The reranking hook (spec/retrieval.md "Reranking"): any function, or a /v1/rerank server (a
 * local one on 127.0.0.1 speaking llama.cpp's and Jina's protocol), reorders a search's first
 * results; every failure keeps the first stage's order with a warning; the reranker sees only the
 * caller's tenant's records; `t2m run --rerank-url` and `--explain` show it.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, Session, type RunResult, type StatementResult } from '../../src/engine/index.js';
import { functionReranker, httpReranker, parseRerank, DEFAULT_RERANK_TOP } from '../../src/retrieve/rerank.js';
import { encode, freshStore, NOW, op } from '../engine/harness.js';
import { openPostgresStore } from '../../src/dialect/postgres/store.js';
import { serverScore, startRerankServer, type RerankServer } from './rerank-server.js';

let srv: RerankServer;
beforeAll(async () => {
  srv = await startRerankServer();
});
afterAll(() => srv.close());

/** Twelve records about budgets; the ones mentioning "review" most are the shortest or the longest, so first stage and reranker disagree. */
const TEXTS = [
  'budget review review review of the quarterly budget with the whole finance team and the auditors present',
  'budget plan',
  'budget review',
  'budget notes for march',
  'a budget meeting about the review of vendor payments and the review of travel costs',
  'budget budget budget',
  'the budget review was moved to friday',
  'budget for the offsite',
  'review of the hiring plan',
  'annual budget approval by the board',
  'budget spreadsheet shared',
  'budget',
];
const QUERY = 'budget review';
const retrieve = (limit = 5) => op('Retrieve', { search: { intent: { query: QUERY }, limit } }, { include: ['id', 'text'] });

async function corpus() {
  const store = await freshStore();
  const r = run(store, TEXTS.map((t) => encode(t)), { now: NOW });
  expect(r.ok).toBe(true);
  return store;
}

const ids = (r: RunResult, i = 0): number[] => [...(r.results[i] as StatementResult).ids];
const textOf = (id: number) => TEXTS[id - 1];
/** The order the server's model gives `ids` (ties in the given order). */
const byServer = (given: number[]) => given.map((id, i) => ({ id, i, s: serverScore(QUERY, textOf(id)) })).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.id);

describe('a function reranker', () => {
  it('reorders the first `top` results of the first stage, keeps LIMIT, and is explained', async () => {
    const store = await corpus();
    const first = run(store, [op('Retrieve', { search: { intent: { query: QUERY }, limit: 8 } }, { include: ['id'] })], { now: NOW });
    const firstIds = ids(first);
    expect(firstIds.length).toBe(8);
    const seen: string[][] = [];
    // Reverses the first stage: the last of the pool first.
    const reverse = functionReranker((_q, docs) => {
      seen.push([...docs]);
      return docs.map((_, i) => i);
    }, { name: 'reverse', top: 8 });
    const r = run(store, [retrieve(3)], { now: NOW, rerank: reverse });
    expect(r.ok).toBe(true);
    expect(r.diagnostics).toEqual([]);
    expect(seen).toEqual([firstIds.map(textOf)]);
    expect(ids(r)).toEqual(firstIds.slice().reverse().slice(0, 3));
    const explain = (r.results[0] as StatementResult).explain!;
    expect(ids(r).map((id) => explain[id].rerankRank)).toEqual([1, 2, 3]);
    expect(ids(r).map((id) => explain[id].rerank)).toEqual([7, 6, 5]);
    // The first stage's parts are still there, as the first stage explained them.
    const firstExplain = (first.results[0] as StatementResult).explain!;
    for (const id of ids(r)) expect([explain[id].bm25Rank, explain[id].fused]).toEqual([firstExplain[id].bm25Rank, firstExplain[id].fused]);
    expect(explain[ids(r)[0]].bm25Rank).not.toBeNull();
    store.close();
  });

  it('reorders at least LIMIT results, DEFAULT_RERANK_TOP by default', async () => {
    const store = await corpus();
    let sizes: number[] = [];
    const count = functionReranker((_q, docs) => (sizes.push(docs.length), docs.map(() => 0)));
    run(store, [retrieve(3)], { now: NOW, rerank: count });
    // Every record is a candidate (the vectors find them all): the pool is the default top.
    expect(sizes).toEqual([Math.min(DEFAULT_RERANK_TOP, TEXTS.length)]);
    sizes = [];
    run(store, [retrieve(6)], { now: NOW, rerank: functionReranker((_q, docs) => (sizes.push(docs.length), docs.map(() => 0)), { top: 2 }) });
    expect(sizes).toEqual([6]);
    store.close();
  });

  it('takes a typed array of scores', async () => {
    const store = await corpus();
    const plain = ids(run(store, [retrieve(4)], { now: NOW }));
    const r = run(store, [retrieve(4)], { now: NOW, rerank: functionReranker((_q, docs) => Float32Array.from(docs, (_, i) => i), { top: 4 }) });
    expect(r.diagnostics).toEqual([]);
    expect(ids(r)).toEqual(plain.slice().reverse());
    store.close();
  });

  it('equal scores keep the first-stage order', async () => {
    const store = await corpus();
    const plain = ids(run(store, [retrieve(5)], { now: NOW }));
    const r = run(store, [retrieve(5)], { now: NOW, rerank: functionReranker((_q, docs) => docs.map(() => 1)) });
    expect(ids(r)).toEqual(plain);
    store.close();
  });

  it('a throwing function, a wrong count, or a promise on a synchronous store keep the first stage, with a warning', async () => {
    const store = await corpus();
    const plain = ids(run(store, [retrieve(5)], { now: NOW }));
    const cases = [
      [functionReranker(() => { throw new Error('model not loaded'); }, { name: 'boom' }), 'rerank-failed', /boom failed: model not loaded/],
      [functionReranker(() => [1, 2]), 'rerank-bad-response', /one finite number per document/],
      [functionReranker(() => [Number.NaN]), 'rerank-bad-response', /finite/],
      [functionReranker(async (_q, docs) => docs.map(() => 1), { name: 'async' }), 'rerank-failed', /answers asynchronously/],
    ] as const;
    for (const [rerank, code, message] of cases) {
      const r = run(store, [retrieve(5)], { now: NOW, rerank });
      expect(r.ok).toBe(true);
      expect(ids(r)).toEqual(plain);
      expect(r.diagnostics).toMatchObject([{ code, severity: 'warning', statement: 0, message: expect.stringMatching(message) }]);
      expect(r.diagnostics[0].message).toMatch(/first-stage order is kept/);
      expect((r.results[0] as StatementResult).explain![plain[0]].rerank).toBeUndefined();
    }
    store.close();
  });

  it('sees only the caller tenant\'s records, and a write searched with it targets what a read shows', async () => {
    const store = await freshStore();
    run(store, [encode('budget review for alpha'), encode('alpha budget')], { now: NOW, tenant: 'alpha' });
    run(store, [encode('budget review review for beta'), encode('beta budget')], { now: NOW, tenant: 'beta' });
    const seen: string[] = [];
    const rerank = functionReranker((q, docs) => (seen.push(...docs), docs.map((d) => serverScore(q, d))));
    const r = run(store, [retrieve(1), op('Label', { search: { intent: { query: QUERY }, limit: 1 } }, { tags: ['picked'] })], { now: NOW, tenant: 'alpha', rerank });
    expect(r.ok).toBe(true);
    expect(seen.every((d) => d.includes('alpha'))).toBe(true);
    expect(seen.length).toBeGreaterThan(0);
    expect(ids(r, 1)).toEqual(ids(r, 0));
    store.close();
  });
});

describe('a /v1/rerank server (llama.cpp, Jina)', () => {
  it('parses results placed by index, fewer than asked, in any order; refuses bodies that are not a rerank list', () => {
    expect(parseRerank('{"results":[{"index":1,"relevance_score":0.9},{"index":0,"relevance_score":0.1}]}', 3)).toEqual({ ok: true, scores: [0.1, 0.9, -Infinity] });
    expect(parseRerank('nope', 1)).toMatchObject({ ok: false, diagnostics: [{ code: 'rerank-bad-response' }] });
    expect(parseRerank('{"data":[]}', 1)).toMatchObject({ ok: false, diagnostics: [{ code: 'rerank-bad-response', message: expect.stringMatching(/no results array/) }] });
    expect(parseRerank('{"results":[{"index":0,"relevance_score":1},{"index":0,"relevance_score":2}]}', 2)).toMatchObject({ ok: false });
    expect(parseRerank('{"results":[{"index":0,"relevance_score":"high"}]}', 1)).toMatchObject({ ok: false });
    expect(parseRerank('{"results":[]}', 2)).toMatchObject({ ok: false, diagnostics: [{ message: expect.stringMatching(/no results/) }] });
  });

  it('reorders through the session (awaited), sending {model, query, documents, top_n} with the bearer token', async () => {
    const store = await corpus();
    const first = ids(run(store, [op('Retrieve', { search: { intent: { query: QUERY }, limit: 10 } }, { include: ['id'] })], { now: NOW }));
    srv.fail = null;
    srv.requests.length = 0;
    const rerank = httpReranker({ baseUrl: srv.baseUrl, model: 'bge-reranker-v2-m3', apiKey: 'sk-rr', top: 10 });
    const session = new Session(store, { now: NOW, rerank });
    const r = await session.run([retrieve(4)]);
    expect(r.ok).toBe(true);
    expect(r.diagnostics).toEqual([]);
    expect(ids(r)).toEqual(byServer(first).slice(0, 4));
    expect(srv.requests).toEqual([{ body: { model: 'bge-reranker-v2-m3', query: QUERY, documents: first.map(textOf), top_n: 10 }, auth: 'Bearer sk-rr' }]);
    const explain = (r.results[0] as StatementResult).explain!;
    expect(explain[ids(r)[0]].rerank).toBeCloseTo(serverScore(QUERY, textOf(ids(r)[0])), 4);
    store.close();
  });

  it('reorders on PGlite too (an asynchronous driver), as on SQLite', async () => {
    const pg = await openPostgresStore({ kind: 'pglite' });
    if (!pg.ok) throw new Error(pg.diagnostics[0].message);
    const lite = await corpus();
    try {
      expect((await run(pg.store, TEXTS.map((t) => encode(t)), { now: NOW })).ok).toBe(true);
      srv.fail = null;
      const rerank = httpReranker({ baseUrl: srv.baseUrl, model: 'm', top: 10 });
      const [a, b] = [await new Session(pg.store, { now: NOW, rerank }).run([retrieve(4)]), await new Session(lite, { now: NOW, rerank }).run([retrieve(4)])];
      expect(a.diagnostics).toEqual([]);
      expect(ids(a)).toEqual(ids(b));
      expect(ids(a)[0]).toBe(1);
    } finally {
      await pg.store.close();
      lite.close();
    }
  });

  it('an HTTP error, a bad body, a timeout or an unreachable server keep the first stage, with a warning', async () => {
    const store = await corpus();
    const plain = ids(run(store, [retrieve(5)], { now: NOW }));
    const cases = [
      [{ status: 503, body: '{"error":"loading model"}' }, 'rerank-failed', /HTTP 503.*loading model/],
      ['garbage', 'rerank-bad-response', /no results array/],
      ['bad-index', 'rerank-bad-response', /index/],
      [{ delayMs: 1500 }, 'rerank-failed', /no reply within 300 ms/],
    ] as const;
    for (const [fail, code, message] of cases) {
      srv.fail = fail;
      const session = new Session(store, { now: NOW, rerank: httpReranker({ baseUrl: srv.baseUrl, model: 'm', timeoutMs: 300 }) });
      const r = await session.run([retrieve(5)]);
      expect(r.ok).toBe(true);
      expect(ids(r)).toEqual(plain);
      expect(r.diagnostics).toMatchObject([{ code, severity: 'warning', message: expect.stringMatching(message) }]);
    }
    srv.fail = null;
    const gone = new Session(store, { now: NOW, rerank: httpReranker({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', timeoutMs: 2000 }) });
    const r = await gone.run([retrieve(5)]);
    expect(ids(r)).toEqual(plain);
    expect(r.diagnostics).toMatchObject([{ code: 'rerank-failed', severity: 'warning' }]);
    store.close();
  });
});

/** The CLI in a child process, without blocking this process's event loop (the server answers from it). */
function t2mAsync(args: string[], input: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, '../../src/cli/main.ts'), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(input);
  return new Promise((r) => child.on('close', (status) => r({ status, stdout, stderr })));
}

describe('t2m run --rerank-url', () => {
  const script = `${TEXTS.map((t) => `ENCODE "${t}";`).join('\n')}\nRETRIEVE WHERE search "${QUERY}" LIMIT 3;`;

  it('reranks every search and shows the reranker in --explain', async () => {
    srv.fail = null;
    srv.requests.length = 0;
    const r = await t2mAsync(['run', '-', '--now', NOW, '--json', '--rerank-url', srv.baseUrl, '--rerank-model', 'jina-reranker-v2', '--rerank-top', '12'], script);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    const got: number[] = out.results.at(-1).ids;
    expect(srv.requests).toHaveLength(1);
    expect(srv.requests[0].body).toMatchObject({ model: 'jina-reranker-v2', query: QUERY, top_n: 12 });
    const sent = srv.requests[0].body.documents;
    expect(got.map(textOf)).toEqual(sent.map((d, i) => ({ d, i, s: serverScore(QUERY, d) })).sort((a, b) => b.s - a.s || a.i - b.i).slice(0, 3).map((x) => x.d));
    const shown = await t2mAsync(['run', '-', '--now', NOW, '--explain', '--rerank-url', srv.baseUrl], script);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toMatch(/rerank/);
    expect(shown.stdout).toMatch(/\(#1\)/);
  });

  it('a server that fails leaves the results of the first stage and a warning; the help names the flags', async () => {
    srv.fail = { status: 500, body: 'boom' };
    const r = await t2mAsync(['run', '-', '--now', NOW, '--json', '--rerank-url', srv.baseUrl], script);
    srv.fail = null;
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.diagnostics).toMatchObject([{ code: 'rerank-failed', severity: 'warning' }]);
    const plain = JSON.parse((await t2mAsync(['run', '-', '--now', NOW, '--json'], script)).stdout);
    expect(out.results.at(-1).ids).toEqual(plain.results.at(-1).ids);
    const help = await t2mAsync(['run', '--help'], '');
    for (const flag of ['--rerank-url', '--rerank-model', '--rerank-top', '--embed-url', '--embed-model']) expect(help.stdout).toContain(flag);
  });
});
