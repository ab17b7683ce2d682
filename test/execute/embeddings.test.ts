/** The OpenAI-compatible embeddings client against a local server on 127.0.0.1, and `t2m reindex`. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIEmbedder, parseEmbeddings } from '../../src/retrieve/embeddings.js';
import { reindexStore } from '../../src/execute/reindex.js';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';
import { run } from '../../src/engine/index.js';
import { t2m } from '../cli/run-cli.js';
import { tempDir } from '../engine/harness.js';
import { startEmbeddingsServer, type EmbeddingsServer } from '../support/embeddings-server.js';

/** The local server speaking POST /v1/embeddings (test/support/embeddings-server.ts). */
let srv: EmbeddingsServer;
let baseUrl = '';
let requests: EmbeddingsServer['requests'] = [];
let local: EmbeddingsServer['local'];
/** Sets what the server answers next (null: embeddings). */
const setFail = (f: EmbeddingsServer['fail']) => { srv.fail = f; };

beforeAll(async () => {
  srv = await startEmbeddingsServer(32);
  ({ baseUrl, requests, local } = srv);
});
afterAll(() => srv.close());

describe('openAIEmbedder', () => {
  it('embeds in batches, in input order, with the model and the bearer token', async () => {
    requests.length = 0;
    setFail(null);
    const e = openAIEmbedder({ baseUrl, model: 'mini-embed', apiKey: 'sk-test', batchSize: 2 });
    const r = await e.embedMany(['alpha budget', 'beta', 'gamma review']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.vectors.map((v) => v.length)).toEqual([32, 32, 32]);
    expect([...r.vectors[2]].map((x) => x.toFixed(4))).toEqual([...local.embed('gamma review')].map((x) => x.toFixed(4)));
    expect(requests.map((q) => q.body.input)).toEqual([['alpha budget', 'beta'], ['gamma review']]);
    expect(requests[0]).toMatchObject({ body: { model: 'mini-embed' }, auth: 'Bearer sk-test' });
  });

  it('turns HTTP errors, bad bodies and an unreachable server into diagnostics', async () => {
    setFail({ status: 401, body: '{"error":{"message":"bad key"}}' });
    const e = openAIEmbedder({ baseUrl, model: 'm' });
    expect(await e.embedMany(['x'])).toMatchObject({ ok: false, diagnostics: [{ code: 'embeddings-http-error', message: expect.stringMatching(/HTTP 401.*bad key/) }] });
    setFail('garbage');
    expect(await e.embedMany(['x'])).toMatchObject({ ok: false, diagnostics: [{ code: 'embeddings-bad-response' }] });
    setFail(null);
    expect(parseEmbeddings('{"data":[{"index":0,"embedding":[1]}]}', 2)).toMatchObject({ ok: false, diagnostics: [{ code: 'embeddings-bad-response', message: expect.stringMatching(/1 embeddings for 2 texts/) }] });
    const gone = openAIEmbedder({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', timeoutMs: 2000 });
    expect(await gone.embedMany(['x'])).toMatchObject({ ok: false, diagnostics: [{ code: expect.stringMatching(/embeddings-(unreachable|timeout)/) }] });
  });
});

describe('reindex', () => {
  it('re-embeds a store with a remote model (model name per row) and changes nothing when the server fails', async () => {
    const path = join(tempDir(), 's.sqlite');
    const opened = openStoreFile(path);
    if (!opened.ok) throw new Error('open');
    const store = opened.store;
    run(store, [1, 2, 3].map((i) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: `note ${i} about budgets` } } })), { now: '2025-01-01T00:00:00Z' });
    setFail({ status: 500, body: 'boom' });
    const before = store.query('SELECT id, embedding_model, embedding_f32 FROM memory ORDER BY id');
    expect(await reindexStore(store, { embedder: openAIEmbedder({ baseUrl, model: 'mini-embed' }) })).toMatchObject({ ok: false });
    expect(store.query('SELECT id, embedding_model, embedding_f32 FROM memory ORDER BY id')).toEqual(before);
    setFail(null);
    const progress: number[] = [];
    const r = await reindexStore(store, { embedder: openAIEmbedder({ baseUrl, model: 'mini-embed' }), batchSize: 2, onProgress: (d) => progress.push(d) });
    expect(r).toEqual({ ok: true, records: 3, model: 'mini-embed' });
    expect(progress).toEqual([2, 3]);
    expect(store.query('SELECT DISTINCT embedding_model AS m, length(embedding_f32) AS n FROM memory')).toEqual([{ m: 'mini-embed', n: 32 * 4 }]);
    store.close();
  });

  it('t2m reindex re-embeds a store file with the offline embedder, with progress on stderr', () => {
    const path = join(tempDir(), 's.sqlite');
    expect(t2m(['run', '-', '--db', path], 'ENCODE "alpha budget"; ENCODE "beta review";').status).toBe(0);
    const r = t2m(['reindex', '--db', path]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('reindexed 2 records with t2m-ngram-256\n');
    expect(r.stderr).toContain('2/2 records');
    expect(t2m(['reindex', '--help']).stdout).toContain('--base-url');
    const bad = t2m(['reindex', '--db', path, '--base-url', 'http://127.0.0.1:1/v1', '--model', 'x', '--timeout', '2']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/embeddings-(unreachable|timeout).*nothing was changed/);
  });
});
