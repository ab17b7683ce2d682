/** The OpenAI-compatible embeddings client against a local server on 127.0.0.1, and `t2m reindex`. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIEmbedder, parseEmbeddings, reindexStore } from '../../src/execute/embeddings.js';
import { NgramEmbedder } from '../../src/execute/text.js';
import { openStoreFile } from '../../src/node/sqlite-file.js';
import { run } from '../../src/engine/index.js';
import { t2m } from '../cli/run-cli.js';
import { tempDir } from '../engine/harness.js';

/** Speaks POST /v1/embeddings: each text's vector is the offline embedder's, or an error the test asks for. */
let server: Server;
let baseUrl = '';
const requests: { body: any; auth?: string }[] = [];
let fail: { status: number; body: string } | 'garbage' | null = null;
const local = new NgramEmbedder(32);

beforeAll(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return void res.writeHead(404).end('{"error":{"message":"not found"}}');
      const body = JSON.parse(data);
      requests.push({ body, auth: req.headers.authorization });
      if (fail === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": 5}');
      if (fail) return void res.writeHead(fail.status, { 'content-type': 'application/json' }).end(fail.body);
      // Out of order on purpose: clients must place vectors by `index`.
      const data2 = (body.input as string[]).map((t, index) => ({ object: 'embedding', index, embedding: [...local.embed(t)] })).reverse();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: data2, model: body.model }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('openAIEmbedder', () => {
  it('embeds in batches, in input order, with the model and the bearer token', async () => {
    requests.length = 0;
    fail = null;
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
    fail = { status: 401, body: '{"error":{"message":"bad key"}}' };
    const e = openAIEmbedder({ baseUrl, model: 'm' });
    expect(await e.embedMany(['x'])).toMatchObject({ ok: false, diagnostics: [{ code: 'embeddings-http-error', message: expect.stringMatching(/HTTP 401.*bad key/) }] });
    fail = 'garbage';
    expect(await e.embedMany(['x'])).toMatchObject({ ok: false, diagnostics: [{ code: 'embeddings-bad-response' }] });
    fail = null;
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
    fail = { status: 500, body: 'boom' };
    const before = store.query('SELECT id, embedding_model, embedding_f32 FROM memory ORDER BY id');
    expect(await reindexStore(store, { embedder: openAIEmbedder({ baseUrl, model: 'mini-embed' }) })).toMatchObject({ ok: false });
    expect(store.query('SELECT id, embedding_model, embedding_f32 FROM memory ORDER BY id')).toEqual(before);
    fail = null;
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
