/**
 * `t2m mcp --actor <name> [--db store.sqlite]`: an MCP server over stdio (src/mcp/server.ts).
 * stdout carries only the protocol; messages for people go to stderr. The store file is held
 * open and each tool call is one transaction on it, so other processes (another `t2m run`, a
 * second agent) can write between calls.
 */
import { existsSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { loaded } from '../startup.js';
import { oneLine } from '../../diagnostics/escape.js';
import { packageVersion } from '../version.js';

interface McpFlags {
  db?: string;
  actor: string;
  tenant?: string;
  now?: string;
  allowImpersonation?: boolean;
  strict?: boolean;
  maxRows?: number;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  planIr?: boolean;
}

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve a store to an MCP-capable agent over stdio: tools run, check, explain, retrieve (and plan, given a model); resources for the language card and the vocabulary')
    .requiredOption('--actor <name>', 'the identity of every call of the session (locks, permissions, private reads, the audit log); a script\'s AS must match it')
    .option('--db <store>', "store file (created when missing; each tool call is one transaction on it) or ':memory:'; default: an in-memory store that lasts as long as the session (PostgreSQL stores: not yet)")
    .option('--tenant <name>', 'the tenant of every call of the session (default: default); no tool argument or script can name another')
    .option('--allow-impersonation', 'privileged: let a script\'s AS "<actor>" act as that actor (trusted agents only)')
    .option('--now <iso>', 'privileged: a fixed clock for every call (default: the current time at each call)')
    .option('--strict', 'strict checker policy: warnings refuse a script')
    .option('--max-rows <n>', 'rows one read of any tool returns at most, and values per kind in the vocabulary (default 10000)', (value: string) => {
      const n = Number(value);
      if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
      return n;
    })
    .option('--base-url <url>', 'an OpenAI-compatible chat-completions server for the plan tool, e.g. http://127.0.0.1:11434/v1 (with --model)')
    .option('--model <name>', 'the model the plan tool asks (with --base-url)')
    .option('--api-key <key>', 'sent as a bearer token to --base-url (default: $OPENAI_API_KEY)')
    .option('--plan-ir', 'the plan tool asks the model for JSON IR instead of DSL')
    .addHelpText('after', [
      '',
      'Add it to an MCP client (e.g. Claude Desktop\'s claude_desktop_config.json):',
      '  {"mcpServers": {"text2mem": {"command": "npx", "args": ["t2m", "mcp", "--db", "/path/store.sqlite", "--actor", "me"]}}}',
      '',
      'Exit codes: 0 the client closed the session, 2 the store could not be opened.',
    ].join('\n'))
    .action(async (flags: McpFlags) => {
      // Loaded on use so the other commands do not pay for the SDK or the engine.
      const [{ createMcpServer }, { StdioServerTransport }, { openStore }, { classify, isSqliteError, openStoreFile }, { openAIProvider }, { parseInstant }, storeUrl] = await loaded(Promise.all([
        import('../../mcp/server.js'), import('@modelcontextprotocol/sdk/server/stdio.js'), import('../../dialect/sqlite/store.js'), import('../../dialect/sqlite/native.js'),
        import('../../agents/openai.js'), import('../../lower/index.js'), import('../../store/url.js'),
      ]));
      if ((flags.baseUrl === undefined) !== (flags.model === undefined)) {
        process.stderr.write('t2m mcp: --base-url and --model go together (the plan tool needs both)\n');
        process.exitCode = 2;
        return;
      }
      if (flags.now !== undefined && parseInstant(flags.now) === null) {
        process.stderr.write(`t2m mcp: --now '${flags.now}' is not an ISO-8601 date-time\n`);
        process.exitCode = 2;
        return;
      }
      // One syntax for store names; the MCP server drives the engine synchronously, so it serves
      // SQLite stores (a file or :memory:) for now.
      const url = flags.db !== undefined ? sqliteOnly('t2m mcp', flags.db, storeUrl) : { kind: 'memory' as const };
      if (!url) return;
      const path = url.kind === 'file' ? url.path : undefined;
      const creating = path !== undefined && !existsSync(path);
      const opened = path !== undefined ? openStoreFile(path) : await openStore();
      if (!opened.ok) {
        for (const d of opened.diagnostics) process.stderr.write(`t2m mcp: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      }
      const store = opened.store;
      if (creating) process.stderr.write(`t2m mcp: created a new store ${path}\n`);
      const server = createMcpServer({
        store,
        actor: flags.actor,
        tenant: flags.tenant,
        now: flags.now,
        impersonate: flags.allowImpersonation === true,
        policy: flags.strict ? 'strict' : 'default',
        ...(flags.maxRows !== undefined ? { limits: { maxRows: flags.maxRows } } : {}),
        planner: flags.baseUrl !== undefined && flags.model !== undefined
          ? { provider: openAIProvider({ baseUrl: flags.baseUrl, model: flags.model, apiKey: flags.apiKey ?? process.env.OPENAI_API_KEY }), mode: flags.planIr ? 'ir' : 'dsl' }
          : undefined,
        storeError: (e) => {
          if (!isSqliteError(e)) return undefined;
          const d = classify(e);
          return { ...d, message: `${path ?? 'the store'} is ${d.message}` };
        },
        version: packageVersion(),
      });
      let closed = false;
      const shutdown = async () => {
        if (closed) return;
        closed = true;
        await server.close().catch(() => undefined);
        store.close();
      };
      const transport = new StdioServerTransport();
      transport.onclose = () => void shutdown();
      // The client ending the session closes stdin; a signal ends it too. The store is closed
      // (its WAL checkpointed) either way.
      process.stdin.on('end', () => void shutdown());
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown().then(() => process.exit(0)));
      await server.connect(transport);
      const planning = flags.model !== undefined ? `, planning with ${flags.model}` : '';
      process.stderr.write(`t2m mcp: serving ${path ?? 'an in-memory store'} as '${flags.actor}' on stdio${planning}\n`);
    });
}

/**
 * The store name for a command that runs the engine synchronously (mcp, plan): a file or
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
  process.stderr.write(`${command}: bad-store-url: '${storeName(name)}' is a PostgreSQL store; ${command} serves SQLite stores (a file or :memory:) for now (t2m run, sweep, audit, undo and bench take PostgreSQL stores)\n`);
  process.exitCode = 2;
  return null;
}
