/**
 * `t2m mcp`: the MCP server (src/mcp/server.ts) on any store, over stdio (`--actor <name>`: one
 * agent, one identity) or over Streamable HTTP (`--http [host:]port --tokens <file>`: many
 * agents, each request's identity from its bearer token; src/mcp/http.ts). Over stdio, stdout
 * carries only the protocol; messages for people go to stderr, as does the HTTP server's log
 * (one line per call). The store is held open and each tool call is one transaction on it, so
 * other processes (another `t2m run`, a second agent) can write between calls.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { loaded } from '../startup.js';
import { oneLine } from '../../diagnostics/escape.js';
import { packageVersion } from '../version.js';

interface McpFlags {
  db?: string;
  actor?: string;
  tenant?: string;
  now?: string;
  allowImpersonation?: boolean;
  strict?: boolean;
  maxRows?: number;
  maxStatements?: number;
  maxText?: number;
  maxInput?: number;
  maxClients?: number;
  http?: string;
  tokens?: string;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  planIr?: boolean;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** `[host:]port` (a bare port binds to loopback; an IPv6 host in brackets). */
export function parseListen(text: string): { host: string; port: number } | null {
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(text.trim());
  if (!m) return null;
  const port = Number(m[2]);
  if (port > 65535) return null;
  const host = m[1] === undefined ? '127.0.0.1' : m[1].replace(/^\[|\]$/g, '');
  return { host, port };
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

/** Connections opened to a PostgreSQL server when serving over HTTP (each request takes one). */
const SERVER_CONNECTIONS = 8;

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve a store to MCP-capable agents, over stdio (one agent, --actor) or Streamable HTTP (many, --http with --tokens): tools run, check, explain, retrieve, feedback (and plan, given a model); resources for the language card and the vocabulary')
    .option('--db <store>', "the store: a file (created when missing), ':memory:', 'pglite:', 'pglite:./dir' or 'postgres://user@host/db'; each tool call is one transaction on it; default: an in-memory store that lasts as long as the server")
    .option('--actor <name>', 'stdio: the identity of every call (locks, permissions, private reads, the audit log); a script\'s AS must match it')
    .option('--tenant <name>', 'stdio: the tenant of every call (default: default); no tool argument or script can name another')
    .option('--allow-impersonation', 'stdio, privileged: let a script\'s AS "<actor>" act as that actor (trusted agents only)')
    .option('--http <[host:]port>', 'serve Streamable HTTP at http://host:port/mcp instead of stdio (host default 127.0.0.1; put a TLS reverse proxy in front for other machines)')
    .option('--tokens <file>', 'with --http: JSON {"<bearer token>": {"actor": "…", "tenant": "…", "impersonate": false}}, readable by its owner only; re-read on SIGHUP')
    .option('--max-clients <n>', 'with --http: requests handled at once (default 64); more are answered 503', positiveInt)
    .option('--max-input <bytes>', 'with --http: the largest request body (default 4194304); larger ones are answered 413', positiveInt)
    .option('--now <iso>', 'privileged: a fixed clock for every call (default: the current time at each call)')
    .option('--strict', 'strict checker policy: warnings refuse a script')
    .option('--max-statements <n>', 'refuse a script with more statements (default 100000)', positiveInt)
    .option('--max-text <n>', 'refuse a stored string longer than this many characters (default 16777216)', positiveInt)
    .option('--max-rows <n>', 'rows one read of any tool returns at most, and values per kind in the vocabulary (default 10000)', positiveInt)
    .option('--base-url <url>', 'an OpenAI-compatible chat-completions server for the plan tool, e.g. http://127.0.0.1:11434/v1 (with --model)')
    .option('--model <name>', 'the model the plan tool asks (with --base-url)')
    .option('--api-key <key>', 'sent as a bearer token to --base-url (default: $OPENAI_API_KEY)')
    .option('--plan-ir', 'the plan tool asks the model for JSON IR instead of DSL')
    .addHelpText('after', [
      '',
      'Add it to an MCP client over stdio (e.g. Claude Desktop\'s claude_desktop_config.json):',
      '  {"mcpServers": {"text2mem": {"command": "npx", "args": ["t2m", "mcp", "--db", "/path/store.sqlite", "--actor", "me"]}}}',
      'or serve many agents over HTTP (docs/agents.md):',
      '  t2m mcp --db postgres://agents@db/memory --http 127.0.0.1:8765 --tokens tokens.json',
      '  GET /health answers without a token; SIGHUP re-reads the token file; SIGTERM lets calls in flight finish.',
      '',
      'Exit codes: 0 the client closed the session (stdio) or the server was stopped, 2 bad flags, an unusable token file, or the store could not be opened.',
    ].join('\n'))
    .action(async (flags: McpFlags) => {
      const fail = (message: string) => {
        process.stderr.write(`t2m mcp: ${oneLine(message)}\n`);
        process.exitCode = 2;
      };
      if ((flags.baseUrl === undefined) !== (flags.model === undefined)) return fail('--base-url and --model go together (the plan tool needs both)');
      const listen = flags.http !== undefined ? parseListen(flags.http) : undefined;
      if (flags.http !== undefined) {
        if (!listen) return fail(`--http '${flags.http}' is not [host:]port`);
        if (flags.tokens === undefined) return fail('--http needs --tokens <file>: every request is identified by its bearer token');
        const stdioOnly = ['actor', 'tenant', 'allowImpersonation'].filter((k) => flags[k as keyof McpFlags] !== undefined);
        if (stdioOnly.length) return fail(`with --http the identity comes from the token file; --${stdioOnly.map((k) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)).join(', --')} apply to stdio only`);
      } else {
        if (flags.actor === undefined) return fail('--actor <name> is required over stdio (or serve HTTP with --http and --tokens)');
        for (const k of ['tokens', 'maxClients', 'maxInput'] as const) {
          if (flags[k] !== undefined) return fail(`--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} goes with --http`);
        }
      }
      // Loaded on use so the other commands do not pay for the SDK or the engine.
      const [{ createMcpServer }, { openStoreUrl, storeError }, { openAIProvider }, { parseInstant }] = await loaded(Promise.all([
        import('../../mcp/server.js'), import('../../dialect/open-url.js'), import('../../agents/openai.js'), import('../../lower/index.js'),
      ]));
      if (flags.now !== undefined && parseInstant(flags.now) === null) return fail(`--now '${flags.now}' is not an ISO-8601 date-time`);
      const http = listen && flags.tokens !== undefined ? await loaded(import('../../mcp/http.js')) : undefined;
      let tokens: import('../../mcp/http.js').Tokens | undefined;
      if (http && flags.tokens !== undefined) {
        const read = http.readTokenFile(flags.tokens);
        if (!read.ok) return fail(read.message);
        tokens = read.tokens;
      }
      const opened = await openStoreUrl(flags.db ?? ':memory:');
      if (!opened.ok) {
        for (const d of opened.diagnostics) process.stderr.write(`t2m mcp: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      }
      if (opened.created) process.stderr.write(`t2m mcp: created a new store ${opened.name}\n`);
      const name = flags.db === undefined ? 'an in-memory store' : opened.name;
      const limits = { maxStatements: flags.maxStatements, maxTextLength: flags.maxText, maxRows: flags.maxRows };
      const common = {
        now: flags.now,
        policy: flags.strict ? 'strict' as const : 'default' as const,
        limits,
        planner: flags.baseUrl !== undefined && flags.model !== undefined
          ? { provider: openAIProvider({ baseUrl: flags.baseUrl, model: flags.model, apiKey: flags.apiKey ?? process.env.OPENAI_API_KEY }), mode: flags.planIr ? 'ir' as const : 'dsl' as const }
          : undefined,
        storeError: (e: unknown) => storeError(opened.name, e),
        version: packageVersion(),
      };
      const planning = flags.model !== undefined ? `, planning with ${flags.model}` : '';

      if (http && listen && tokens) {
        // A PostgreSQL server takes a connection per request in flight; any other store is one.
        const stores = [opened.store];
        if (opened.url.kind === 'postgres') {
          const more = Math.min(SERVER_CONNECTIONS, flags.maxClients ?? http.DEFAULT_MAX_CLIENTS) - 1;
          for (let i = 0; i < more; i++) {
            const extra = await openStoreUrl(flags.db!);
            if (!extra.ok) break;
            stores.push(extra.store);
          }
        }
        let current = tokens;
        const server = await http.startHttpServer({
          host: listen.host, port: listen.port, tokens: () => current, stores: http.storePool(stores), server: common,
          maxClients: flags.maxClients, maxInput: flags.maxInput,
          log: (entry) => process.stderr.write(`${http.logLine(entry)}\n`),
        }).catch((e: NodeJS.ErrnoException) => {
          fail(`cannot listen on ${listen.host}:${listen.port}: ${e.code ?? e.message}`);
          return undefined;
        });
        if (!server) {
          for (const s of stores) await s.close();
          return;
        }
        process.on('SIGHUP', () => {
          const read = http.readTokenFile(flags.tokens!);
          if (read.ok) current = read.tokens;
          process.stderr.write(read.ok ? `t2m mcp: re-read ${flags.tokens}: ${read.tokens.size} token${read.tokens.size === 1 ? '' : 's'}\n` : `t2m mcp: ${oneLine(read.message)}; the tokens read before stay in force\n`);
        });
        let stopping = false;
        for (const signal of ['SIGINT', 'SIGTERM'] as const) {
          process.once(signal, () => {
            if (stopping) return;
            stopping = true;
            process.stderr.write(`t2m mcp: ${signal}: finishing ${server.active()} request${server.active() === 1 ? '' : 's'} in flight\n`);
            void server.close().then(async () => {
              for (const s of stores) await s.close();
              process.exit(0);
            });
          });
        }
        if (!isLoopback(listen.host)) process.stderr.write(`t2m mcp: listening beyond this machine (${listen.host}) without TLS: bearer tokens cross the network in clear unless a TLS reverse proxy is in front (docs/agents.md)\n`);
        process.stderr.write(`t2m mcp: serving ${name} at ${server.url}/mcp for ${tokens.size} token${tokens.size === 1 ? '' : 's'}${planning}\n`);
        return;
      }

      const [{ StdioServerTransport }] = await loaded(Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js')]));
      const store = opened.store;
      const server = createMcpServer({ ...common, store, actor: flags.actor!, tenant: flags.tenant, impersonate: flags.allowImpersonation === true });
      let closed = false;
      const shutdown = async () => {
        if (closed) return;
        closed = true;
        await server.close().catch(() => undefined);
        await store.close();
      };
      const transport = new StdioServerTransport();
      transport.onclose = () => void shutdown();
      // The client ending the session closes stdin; a signal ends it too. The store is closed
      // (a store file's WAL checkpointed) either way.
      process.stdin.on('end', () => void shutdown());
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown().then(() => process.exit(0)));
      await server.connect(transport);
      process.stderr.write(`t2m mcp: serving ${name} as '${flags.actor}' on stdio${planning}\n`);
    });
}

/**
 * The store name for a command that reads a store file synchronously (lsp, why): a file or
 * `:memory:`; any other name is refused with a clear message (exit 2). Null when refused.
 */
export function sqliteOnly(
  command: string, name: string, { parseStoreUrl: parse, storeName }: typeof import('../../store/url.js'),
): { kind: 'memory' } | { kind: 'file'; path: string } | null {
  const url = parse(name);
  if ('code' in url) {
    process.stderr.write(`${command}: ${url.code}: ${oneLine(url.message)}\n`);
    process.exitCode = 2;
    return null;
  }
  if (url.kind === 'memory' || url.kind === 'file') return url;
  process.stderr.write(`${command}: bad-store-url: '${storeName(name)}' is a PostgreSQL store; ${command} serves SQLite stores (a file or :memory:) for now (t2m run, mcp, plan, reindex, sweep, audit, undo and bench take PostgreSQL stores)\n`);
  process.exitCode = 2;
  return null;
}
