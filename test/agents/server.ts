/**
 * A local OpenAI-compatible chat-completions server on 127.0.0.1 for the planner's tests: the
 * test decides each answer from the request body; replies are JSON, or server-sent events when
 * the request asks for `stream: true` (split into several chunks, ended by `data: [DONE]`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer =
  | string
  | { readonly status: number; readonly body: string; readonly contentType?: string }
  | { readonly raw: string; readonly contentType?: string };

export interface FakeServer {
  readonly baseUrl: string;
  readonly requests: Record<string, any>[];
  readonly headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

export async function fakeServer(answer: (body: Record<string, any>, index: number) => Answer): Promise<FakeServer> {
  const requests: Record<string, any>[] = [];
  const headers: FakeServer['headers'] = [];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(data);
      requests.push(body);
      headers.push(req.headers);
      const a = answer(body, requests.length - 1);
      if (typeof a !== 'string') {
        if ('status' in a) res.writeHead(a.status, { 'content-type': a.contentType ?? 'application/json' }).end(a.body);
        else res.writeHead(200, { 'content-type': a.contentType ?? 'application/json' }).end(a.raw);
        return;
      }
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: a }, finish_reason: 'stop' }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': keep-alive comment\n\n');
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant' } }] })}\n\n`);
      const size = Math.max(1, Math.ceil(a.length / 4));
      for (let i = 0; i < a.length; i += size) {
        // CRLF line ends on some events, to exercise both.
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: a.slice(i, i + size) } }] })}${i % 2 ? '\r\n\r\n' : '\n\n'}`);
      }
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The request text of a chat: the first user message. */
export function requestOf(body: Record<string, any>): string {
  return body.messages.find((m: { role: string }) => m.role === 'user')?.content ?? '';
}
