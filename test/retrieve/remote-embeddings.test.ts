/**
 * Query embeddings at search time from the model a store was indexed with (spec/retrieval.md
 * "Query embeddings and the store's model"): a store reindexed with a remote model (a local
 * OpenAI-compatible server on 127.0.0.1) is searched with the query embedded by the same model;
 * a session whose model differs from the records' (another one, or the offline default) gets an
 * `embedding-model-mismatch` warning, per tenant, kept in step with writes.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';
import { openPostgresStore } from '../../src/dialect/postgres/store.js';
import { Store as StoreClass } from '../../src/store/store.js';
import { run, Session, type RunResult, type StatementResult, type Store } from '../../src/engine/index.js';
import { reindexStore } from '../../src/execute/reindex.js';
import { openAIEmbedder } from '../../src/retrieve/embeddings.js';
import { encode, NOW, op, tempDir } from '../engine/harness.js';
import { startEmbeddingsServer, type EmbeddingsServer } from '../support/embeddings-server.js';

let srv: EmbeddingsServer;
beforeAll(async () => {
  srv = await startEmbeddingsServer(32);
});
afterAll(() => srv.close());

const TEXTS = ['quarterly budget review with finance', 'dentist appointment on friday', 'vendor payments delayed again', 'budget planning for the offsite'];
const QUERY = 'finance budget';
const retrieve = (query = QUERY) => op('Retrieve', { search: { intent: { query }, limit: 4 } }, { include: ['id', 'text'] });
const open = (path: string, model?: string): Store => {
  const o = openStoreFile(path, model ? { embedder: openAIEmbedder({ baseUrl: srv.baseUrl, model }) } : {});
  if (!o.ok) throw new Error(o.diagnostics[0].message);
  return o.store;
};
const mismatches = (r: RunResult) => r.diagnostics.filter((d) => d.code === 'embedding-model-mismatch');

/** A store file whose four records are reindexed with the server's model `mini-embed`. */
async function indexedStore(): Promise<string> {
  const path = join(tempDir(), 's.sqlite');
  const store = open(path);
  expect(run(store, TEXTS.map((t) => encode(t)), { now: NOW }).ok).toBe(true);
  expect(await reindexStore(store, { embedder: openAIEmbedder({ baseUrl: srv.baseUrl, model: 'mini-embed' }) })).toMatchObject({ ok: true, model: 'mini-embed' });
  store.close();
  return path;
}

describe('a store indexed with a remote model', () => {
  it('is searched with the query embedded by that model, through the server, without a warning', async () => {
    const path = await indexedStore();
    const store = open(path, 'mini-embed');
    srv.fail = null;
    srv.requests.length = 0;
    const r = await new Session(store, { now: NOW }).run([retrieve()]);
    expect(r.ok).toBe(true);
    expect(r.diagnostics).toEqual([]);
    expect(srv.requests.map((q) => q.body)).toEqual([{ model: 'mini-embed', input: [QUERY] }]);
    const res = r.results[0] as StatementResult;
    // The vector scores are the server model's cosines.
    const q = srv.local.embed(QUERY);
    for (const id of res.ids) {
      const v = srv.local.embed(TEXTS[id - 1]);
      const cos = v.reduce((s, x, i) => s + x * q[i], 0);
      if (cos > 0) expect(res.explain![id].vector).toBeCloseTo(cos, 3);
    }
    expect(res.ids.some((id) => (res.explain![id].vector ?? 0) > 0)).toBe(true);
    store.close();
  });

  it('searched with the offline default or another model: a warning naming the models, and keywords still rank', async () => {
    const path = await indexedStore();
    const plain = open(path);
    const r = run(plain, [retrieve()], { now: NOW });
    expect(r.ok).toBe(true);
    expect(mismatches(r)).toMatchObject([{ severity: 'warning', statement: 0, message: expect.stringMatching(/embedded by t2m-ngram-256.*4 by mini-embed.*--embed-model mini-embed/) }]);
    const res = r.results[0] as StatementResult;
    expect(res.ids[0]).toBe(1);
    expect(res.explain![1].vector).toBeNull();
    plain.close();
    const other = open(path, 'other-embed');
    const r2 = await new Session(other, { now: NOW }).run([retrieve()]);
    expect(mismatches(r2)).toMatchObject([{ message: expect.stringMatching(/embedded by other-embed.*4 by mini-embed/) }]);
    other.close();
  });

  it('a store of offline vectors searched with a remote model is a mismatch too; an unreachable model refuses the statement', async () => {
    const path = join(tempDir(), 's.sqlite');
    const plain = open(path);
    run(plain, TEXTS.map((t) => encode(t)), { now: NOW });
    expect(mismatches(run(plain, [retrieve()], { now: NOW }))).toEqual([]);
    plain.close();
    const remote = open(path, 'mini-embed');
    srv.fail = null;
    expect(mismatches(await new Session(remote, { now: NOW }).run([retrieve()]))).toMatchObject([{ message: expect.stringMatching(/4 by t2m-ngram-256/) }]);
    remote.close();
    const gone = openStoreFile(path, { embedder: openAIEmbedder({ baseUrl: 'http://127.0.0.1:1/v1', model: 'mini-embed', timeoutMs: 2000 }) });
    if (!gone.ok) throw new Error('open');
    const r = await new Session(gone.store, { now: NOW }).run([retrieve()]);
    expect(r.ok).toBe(false);
    expect(r.diagnostics).toMatchObject([{ code: expect.stringMatching(/embeddings-(unreachable|timeout)/), severity: 'error' }]);
    gone.store.close();
  });

  it('on PGlite (vectors ranked by pgvector): the same warning, per tenant', async () => {
    srv.fail = null;
    const remote = await openPostgresStore({ kind: 'pglite' }, { embedder: openAIEmbedder({ baseUrl: srv.baseUrl, model: 'mini-embed' }) });
    if (!remote.ok) throw new Error(remote.diagnostics[0].message);
    const store = remote.store;
    try {
      expect((await run(store, TEXTS.map((t) => encode(t)), { now: NOW, tenant: 'alpha' })).ok).toBe(true);
      expect(mismatches(await run(store, [retrieve()], { now: NOW, tenant: 'alpha' }))).toEqual([]);
      // The same database seen by a store with the offline embedder.
      const plain = new StoreClass(store.driver, { dialect: store.dialect });
      expect(mismatches(await run(plain, [retrieve()], { now: NOW, tenant: 'alpha' }))).toMatchObject([{ message: expect.stringMatching(/4 by mini-embed/) }]);
      expect(mismatches(await run(plain, [retrieve()], { now: NOW, tenant: 'beta' }))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('per tenant, and in step with writes from this connection and from another', async () => {
    const path = join(tempDir(), 's.sqlite');
    srv.fail = null;
    const remote = open(path, 'mini-embed');
    await new Session(remote, { now: NOW, tenant: 'alpha' }).run(TEXTS.map((t) => encode(t)));
    const plain = open(path);
    run(plain, TEXTS.map((t) => encode(t)), { now: NOW, tenant: 'beta' });
    // Each tenant's records are its own: beta's offline vectors match the offline query; alpha's do not.
    expect(mismatches(run(plain, [retrieve()], { now: NOW, tenant: 'beta' }))).toEqual([]);
    expect(mismatches(run(plain, [retrieve()], { now: NOW, tenant: 'alpha' }))).toMatchObject([{ message: expect.stringMatching(/4 by mini-embed/) }]);
    expect(mismatches(await new Session(remote, { now: NOW, tenant: 'alpha' }).run([retrieve()]))).toEqual([]);
    // Another connection writes one record of another model into beta: seen at the next search.
    await new Session(remote, { now: NOW, tenant: 'beta' }).run([encode('budget memo from the remote session')]);
    const beta = run(plain, [retrieve()], { now: NOW, tenant: 'beta' });
    expect(mismatches(beta)).toMatchObject([{ message: expect.stringMatching(/\(1 by mini-embed\)/) }]);
    // This connection deletes it (the census follows the engine's own write) and updates one of alpha's texts (re-embedded offline).
    const hard = run(plain, [op('Delete', { ids: [9] }, { soft: false })], { now: NOW, tenant: 'beta' });
    expect(hard.ok).toBe(true);
    expect(mismatches(run(plain, [retrieve()], { now: NOW, tenant: 'beta' }))).toEqual([]);
    run(plain, [op('Update', { ids: [1] }, { set: { text: 'finance budget notes' } })], { now: NOW, tenant: 'alpha' });
    expect(mismatches(run(plain, [retrieve()], { now: NOW, tenant: 'alpha' }))).toMatchObject([{ message: expect.stringMatching(/\(3 by mini-embed\)/) }]);
    remote.close();
    plain.close();
  });
});

function t2mAsync(args: string[], input = ''): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, '../../src/cli/main.ts'), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(input);
  return new Promise((r) => child.on('close', (status) => r({ status, stdout, stderr })));
}

describe('t2m run --embed-url', () => {
  it('searches a store reindexed with a remote model with that model; without it, a warning', async () => {
    const path = await indexedStore();
    srv.fail = null;
    srv.requests.length = 0;
    const script = `RETRIEVE WHERE search "${QUERY}" LIMIT 2;`;
    const r = await t2mAsync(['run', '-', '--db', path, '--now', NOW, '--json', '--embed-url', srv.baseUrl, '--embed-model', 'mini-embed'], script);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).diagnostics).toEqual([]);
    expect(srv.requests.map((q) => q.body.input)).toEqual([[QUERY]]);
    const without = await t2mAsync(['run', '-', '--db', path, '--now', NOW, '--json'], script);
    expect(without.status).toBe(0);
    expect(JSON.parse(without.stdout).diagnostics).toMatchObject([{ code: 'embedding-model-mismatch', severity: 'warning' }]);
    const bad = await t2mAsync(['run', '-', '--db', path, '--embed-url', srv.baseUrl], script);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--embed-url needs --embed-model/);
  });
});
