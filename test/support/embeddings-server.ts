/**
 * A local server on 127.0.0.1 that speaks the OpenAI-compatible embeddings protocol
 * (`POST /v1/embeddings` with `{model, input}` → `{data: [{index, embedding}]}`), for the tests of
 * the remote embedder: each text's vector is the offline embedder's (`NgramEmbedder(dimensions)`),
 * answered out of order on purpose (clients must place vectors by `index`), or a failure the test
 * asks for.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NgramEmbedder } from '../../src/text/text.js';

export interface EmbeddingsServer {
  /** e.g. `http://127.0.0.1:PORT/v1` */
  readonly baseUrl: string;
  /** Every request's body and Authorization header, in order. */
  readonly requests: { body: { model: string; input: string[] }; auth?: string }[];
  /** What the next requests get instead of embeddings: an HTTP error, or a 200 whose body is not an embeddings list. */
  fail: { status: number; body: string } | 'garbage' | null;
  /** The model the server embeds with (its vectors). */
  readonly local: NgramEmbedder;
  close(): Promise<void>;
}

export async function startEmbeddingsServer(dimensions = 32): Promise<EmbeddingsServer> {
  const local = new NgramEmbedder(dimensions);
  let server: Server;
  const state: EmbeddingsServer = {
    baseUrl: '',
    requests: [],
    fail: null,
    local,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return void res.writeHead(404).end('{"error":{"message":"not found"}}');
      const body = JSON.parse(data);
      state.requests.push({ body, auth: req.headers.authorization });
      const fail = state.fail;
      if (fail === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": 5}');
      if (fail) return void res.writeHead(fail.status, { 'content-type': 'application/json' }).end(fail.body);
      const out = (body.input as string[]).map((t, index) => ({ object: 'embedding', index, embedding: [...local.embed(t)] })).reverse();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: out, model: body.model }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  (state as { baseUrl: string }).baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
