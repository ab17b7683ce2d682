/**
 * The MCP server over Streamable HTTP (`t2m mcp --http`; spec/security.md, "The MCP server over
 * HTTP"): one endpoint, `/mcp`, served by the SDK's `StreamableHTTPServerTransport` in its
 * stateless mode: each POST is authenticated by its bearer token, gets a server bound to that
 * token's identity (actor, tenant, impersonation) and a store from the pool, and is answered as
 * JSON. No identity outlives its request, so a token removed from the file (and SIGHUP) stops
 * working at the next request. `GET /health` answers `{"status":"ok"}` to anyone and says nothing
 * else.
 *
 * The writes of one tenant take turns (reads do not wait): they would contend for the same
 * keyword statistics in the store, which PostgreSQL resolves by aborting all but one.
 *
 * Bounds: at most `maxClients` requests at once (more are answered 503 with nothing run), a
 * request body of at most `maxInput` bytes (413), the run limits of every call. Each tool call is
 * one transaction (./server.ts). `close()` stops taking requests, lets the ones in flight finish
 * (their transactions commit or roll back), then closes the connections.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AnySqlDriver, Store } from '../engine/index.js';
import { createMcpServer, type McpCall, type McpServerOptions } from './server.js';

/** Who a bearer token acts as. */
export interface Identity {
  readonly actor: string;
  readonly tenant: string;
  readonly impersonate: boolean;
}

/** Tokens by the SHA-256 of the token (a lookup by hash: the token itself is not compared byte by byte). */
export type Tokens = ReadonlyMap<string, Identity>;

/** Shortest bearer token accepted in a token file. */
export const MIN_TOKEN_LENGTH = 16;

const digest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Reads a token file: JSON `{"<token>": {"actor": "…", "tenant": "…", "impersonate": false}}`.
 * Refused (with the reason) when others than its owner may read or write it, when it is not
 * such JSON, when a token is shorter than MIN_TOKEN_LENGTH, or an entry has an unknown key.
 */
export function readTokenFile(path: string): { ok: true; tokens: Tokens } | { ok: false; message: string } {
  let mode: number;
  let text: string;
  try {
    mode = statSync(path).mode;
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { ok: false, message: `cannot read the token file ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    return { ok: false, message: `the token file ${path} may be read or written by others (mode ${(mode & 0o777).toString(8)}); make it private: chmod 600 ${path}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `the token file ${path} is not JSON: ${(e as Error).message}` };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { ok: false, message: `the token file ${path} must hold an object {"<token>": {"actor": "…", "tenant": "…", "impersonate": false}}` };
  }
  const tokens = new Map<string, Identity>();
  let n = 0;
  for (const [token, entry] of Object.entries(json as Record<string, unknown>)) {
    n++;
    // Entries are named by position, never by the token.
    const where = `entry ${n} of ${path}`;
    if (token.length < MIN_TOKEN_LENGTH) return { ok: false, message: `${where}: a token must have at least ${MIN_TOKEN_LENGTH} characters` };
    if (/\s/.test(token)) return { ok: false, message: `${where}: a token has no white space` };
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return { ok: false, message: `${where}: expected {"actor": "…", "tenant": "…", "impersonate": false}` };
    const { actor, tenant, impersonate, ...rest } = entry as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length) return { ok: false, message: `${where}: unknown key ${JSON.stringify(unknown[0])} (allowed: actor, tenant, impersonate)` };
    if (typeof actor !== 'string' || actor === '') return { ok: false, message: `${where}: "actor" must be a non-empty string` };
    if (tenant !== undefined && (typeof tenant !== 'string' || tenant === '')) return { ok: false, message: `${where}: "tenant" must be a non-empty string` };
    if (impersonate !== undefined && typeof impersonate !== 'boolean') return { ok: false, message: `${where}: "impersonate" must be true or false` };
    tokens.set(digest(token), { actor, tenant: tenant ?? 'default', impersonate: impersonate === true });
  }
  return { ok: true, tokens };
}

/** The stores requests run on: one (SQLite, PGlite), or a connection each (a PostgreSQL server). */
export interface StorePool {
  acquire(): Promise<Store<AnySqlDriver>>;
  release(store: Store<AnySqlDriver>): void;
  close(): Promise<void>;
}

/** A pool over the given stores: a request takes a free one, or waits for one. */
export function storePool(stores: readonly Store<AnySqlDriver>[]): StorePool {
  const free = [...stores];
  const waiting: Array<(s: Store<AnySqlDriver>) => void> = [];
  return {
    acquire: () => {
      const s = free.pop();
      return s ? Promise.resolve(s) : new Promise((resolve) => waiting.push(resolve));
    },
    release: (s) => {
      const next = waiting.shift();
      if (next) next(s);
      else free.push(s);
    },
    close: async () => {
      for (const s of stores) await s.close();
    },
  };
}

/** One line of the server's log: a call, or a request refused before any call. */
export interface LogEntry extends Partial<Omit<McpCall, 'outcome'>> {
  readonly time: string;
  readonly actor?: string;
  readonly tenant?: string;
  /** For a refused request: why (`unauthorized`, `busy`, `closing`). */
  readonly outcome: McpCall['outcome'] | 'unauthorized' | 'busy' | 'closing';
}

/** A log entry as one line: no payload, names quoted so no value can start a line. */
export function logLine(e: LogEntry): string {
  const q = (v: string | undefined) => (v === undefined ? '-' : JSON.stringify(v));
  return `${e.time} actor=${q(e.actor)} tenant=${q(e.tenant)} tool=${e.tool ?? '-'} statements=${e.statements ?? 0} ms=${e.ms ?? 0} outcome=${e.outcome}`;
}

export interface HttpServerOptions {
  readonly host: string;
  readonly port: number;
  /** The current tokens (re-read by the caller on SIGHUP). */
  readonly tokens: () => Tokens;
  readonly stores: StorePool;
  /** Everything of a server's options but the store and the identity, which each request brings. */
  readonly server: Omit<McpServerOptions, 'store' | 'actor' | 'tenant' | 'impersonate' | 'onCall'>;
  /** Requests handled at once at most (default 64); more are answered 503. */
  readonly maxClients?: number;
  /** A request body's bytes at most (default 4 MiB); a larger one is answered 413. */
  readonly maxInput?: number;
  readonly log?: (entry: LogEntry) => void;
}

export interface HttpMcpServer {
  /** `http://host:port` (the port the system chose when 0 was asked). */
  readonly url: string;
  readonly port: number;
  /** Requests being handled now. */
  readonly active: () => number;
  /** Stops taking requests, waits up to `graceMs` for those in flight, closes the connections. */
  close(graceMs?: number): Promise<void>;
}

export const DEFAULT_MAX_CLIENTS = 64;
export const DEFAULT_MAX_INPUT = 4 * 1024 * 1024;

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A JSON-RPC error answer for a request refused before the protocol (no request id is known). */
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(h) : null;
  return m?.[1];
}

/** Starts the HTTP server; resolves once it listens. */
export function startHttpServer(options: HttpServerOptions): Promise<HttpMcpServer> {
  const maxClients = options.maxClients ?? DEFAULT_MAX_CLIENTS;
  const maxInput = options.maxInput ?? DEFAULT_MAX_INPUT;
  const log = options.log ?? (() => {});
  let active = 0;
  let closing = false;
  let idle: (() => void) | undefined;
  const now = () => new Date().toISOString();
  // The tail of each tenant's queue of writes (./server.ts `exclusive`).
  const writes = new Map<string, Promise<unknown>>();
  const queued = (tenant: string) => <T>(write: () => Promise<T>): Promise<T> => {
    const turn = (writes.get(tenant) ?? Promise.resolve()).then(write);
    const tail = turn.catch(() => undefined);
    writes.set(tenant, tail);
    void tail.then(() => {
      if (writes.get(tenant) === tail) writes.delete(tenant);
    });
    return turn;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'method not allowed' }, { allow: 'GET, HEAD' });
      return json(res, closing ? 503 : 200, { status: closing ? 'closing' : 'ok' });
    }
    if (path !== '/mcp') return json(res, 404, { error: 'not found' });
    // Who asks comes first: nothing else is looked at for a request without a known token.
    const token = bearer(req);
    const identity = token === undefined ? undefined : options.tokens().get(digest(token));
    if (!identity) {
      log({ time: now(), outcome: 'unauthorized' });
      return json(res, 401, rpcError(-32001, 'Unauthorized: a known bearer token is required'), { 'www-authenticate': 'Bearer' });
    }
    if (closing) {
      log({ time: now(), actor: identity.actor, tenant: identity.tenant, outcome: 'closing' });
      return json(res, 503, rpcError(-32000, 'the server is shutting down'), { connection: 'close' });
    }
    // Stateless: no server-to-client stream to open, no session to end.
    if (req.method !== 'POST') return json(res, 405, rpcError(-32000, 'Method not allowed: POST a JSON-RPC message'), { allow: 'POST' });
    if (active >= maxClients) {
      log({ time: now(), actor: identity.actor, tenant: identity.tenant, outcome: 'busy' });
      return json(res, 503, rpcError(-32000, `the server is busy (${maxClients} requests at once); retry shortly`), { 'retry-after': '1' });
    }
    active++;
    const calls = new Set<Promise<unknown>>();
    const acquired = options.stores.acquire();
    let finished = false;
    let closeProtocol: (() => void) | undefined;
    const finish = async () => {
      if (finished) return;
      finished = true;
      // A dropped connection does not cut a call short: its transaction commits or rolls back first.
      await Promise.allSettled([...calls]);
      options.stores.release(await acquired);
      active--;
      if (active === 0) idle?.();
    };
    // Registered first: a client may hang up while the request waits for a store.
    res.on('close', () => {
      closeProtocol?.();
      void finish();
    });
    try {
      const store = await acquired;
      if (finished) return;
      const server = createMcpServer({
        ...options.server, store, actor: identity.actor, tenant: identity.tenant, impersonate: identity.impersonate, exclusive: queued(identity.tenant),
        onCall: (call) => log({ time: now(), actor: identity.actor, tenant: identity.tenant, ...call }),
        track: (p) => {
          calls.add(p);
          void p.finally(() => calls.delete(p)).catch(() => undefined);
        },
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: maxInput });
      closeProtocol = () => {
        void transport.close().catch(() => undefined);
        void server.close().catch(() => undefined);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch {
      json(res, 500, rpcError(-32603, 'Internal error'));
      if (!res.writableEnded) res.end();
    }
  };

  const http: Server = createServer((req, res) => void handle(req, res));
  // A slow or stalled client cannot hold a connection for ever.
  http.requestTimeout = 120_000;
  http.headersTimeout = 30_000;
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      const port = (http.address() as AddressInfo).port;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({
        url: `http://${host}:${port}`,
        port,
        active: () => active,
        close: async (graceMs = 30_000) => {
          closing = true;
          const stopped = new Promise<void>((r) => http.close(() => r()));
          http.closeIdleConnections();
          if (active > 0) {
            await new Promise<void>((r) => {
              idle = r;
              setTimeout(r, graceMs).unref();
            });
          }
          http.closeAllConnections();
          await stopped;
        },
      });
    });
  });
}
