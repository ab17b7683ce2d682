/**
 * A stand-in for an OpenAI-compatible chat-completions server on 127.0.0.1, for the playground's
 * Ask box: CORS headers on every answer (the page is another origin) and the OPTIONS preflight,
 * plain JSON or server-sent events as the request's `stream` asks, and every request kept so a
 * test can read what the page sent. `answer` picks the reply from the conversation so far.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: { model: string; stream?: boolean; messages: { role: string; content: string }[] };
}

/** A reply's content, or an HTTP error to answer with. */
export type Answer = string | { readonly status: number; readonly body: string };

export interface FakeLlm {
  readonly baseUrl: string;
  readonly requests: ChatRequest[];
  readonly preflights: number;
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization, accept',
  'access-control-max-age': '0',
};

export async function fakeLlm(answer: (request: ChatRequest) => Answer): Promise<FakeLlm> {
  const requests: ChatRequest[] = [];
  let preflights = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      preflights++;
      res.writeHead(204, CORS).end();
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { ...CORS, 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => { raw += chunk; });
    req.on('end', () => {
      const request: ChatRequest = { path: req.url!, headers: req.headers, body: JSON.parse(raw) };
      requests.push(request);
      const reply = answer(request);
      if (typeof reply !== 'string') {
        res.writeHead(reply.status, { ...CORS, 'content-type': 'application/json' }).end(reply.body);
        return;
      }
      if (!request.body.stream) {
        res.writeHead(200, { ...CORS, 'content-type': 'application/json' }).end(JSON.stringify({
          id: 'fake', object: 'chat.completion', model: request.body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
        }));
        return;
      }
      // Streamed in a few pieces, as a real server does.
      res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const pieces = reply.match(/[\s\S]{1,12}/g) ?? [];
      for (const piece of pieces) {
        res.write(`data: ${JSON.stringify({ id: 'fake', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: piece } }] })}\n\n`);
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get preflights() { return preflights; },
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
