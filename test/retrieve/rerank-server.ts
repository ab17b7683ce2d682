/**
 * A local server on 127.0.0.1 speaking the rerank protocol of llama.cpp's server and Jina
 * (`POST /v1/rerank` with `{model, query, documents, top_n}` → `{results: [{index,
 * relevance_score, document}]}`), for the tests of the reranking hook. Its "model" scores a
 * document by how many times it contains the query's last word, shorter documents first among
 * equals, so a test can predict the order; results come sorted by score (as llama.cpp's do not
 * always: clients must place them by `index`), or a failure the test asks for.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RerankServer {
  /** e.g. `http://127.0.0.1:PORT/v1` */
  readonly baseUrl: string;
  /** Every request's body and Authorization header, in order. */
  readonly requests: { body: { model: string; query: string; documents: string[]; top_n?: number }; auth?: string }[];
  /** What the next requests get instead: an HTTP error, a 200 whose body is not a rerank list, an index out of range, or no answer for `ms`. */
  fail: { status: number; body: string } | 'garbage' | 'bad-index' | { delayMs: number } | null;
  close(): Promise<void>;
}

/** The server's scores (exported so tests state the expected order the same way). */
export function serverScore(query: string, document: string): number {
  const word = query.toLowerCase().split(/\W+/).filter(Boolean).at(-1) ?? '';
  const count = word ? document.toLowerCase().split(/\W+/).filter((w) => w === word).length : 0;
  return count + 1 / (1 + document.length);
}

export async function startRerankServer(): Promise<RerankServer> {
  let server: Server;
  const state: RerankServer = {
    baseUrl: '',
    requests: [],
    fail: null,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/rerank') return void res.writeHead(404).end('{"error":{"message":"not found"}}');
      const body = JSON.parse(data);
      state.requests.push({ body, auth: req.headers.authorization });
      const fail = state.fail;
      const json = (status: number, text: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(text);
      if (fail === 'garbage') return void json(200, '{"results": 5}');
      if (fail === 'bad-index') return void json(200, JSON.stringify({ results: [{ index: body.documents.length, relevance_score: 1 }] }));
      if (fail && 'status' in fail) return void json(fail.status, fail.body);
      const results = (body.documents as string[])
        .map((text, index) => ({ index, relevance_score: serverScore(body.query, text), document: { text } }))
        .sort((a, b) => b.relevance_score - a.relevance_score)
        .slice(0, body.top_n ?? undefined);
      const answer = () => json(200, JSON.stringify({ model: body.model, results, usage: { total_tokens: 1 } }));
      if (fail && 'delayMs' in fail) setTimeout(answer, fail.delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  (state as { baseUrl: string }).baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
