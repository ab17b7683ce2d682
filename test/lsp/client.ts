/**
 * A Language Server Protocol client for the tests: spawns `t2m lsp --stdio` (from the sources,
 * node --import tsx src/cli/main.ts, unless told another `t2m`) and talks to it with vscode-languageserver-protocol's own
 * connection over the child's stdin/stdout, as an editor would.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import {
  createProtocolConnection,
  ExitNotification,
  InitializeRequest,
  InitializedNotification,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  DidOpenTextDocumentNotification,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol';
import { StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface LspClient {
  readonly connection: ProtocolConnection;
  readonly child: ChildProcessWithoutNullStreams;
  readonly initialize: InitializeResult;
  /** What the server logged to the client (window/logMessage) and to stderr. */
  readonly logs: string[];
  readonly stderr: () => string;
  /** The next publishDiagnostics for `uri` (at `version`, when given). */
  diagnostics(uri: string, version?: number): Promise<PublishDiagnosticsParams>;
  /** Opens a document and waits for its first diagnostics. */
  open(uri: string, text: string, version?: number): Promise<PublishDiagnosticsParams>;
  /** shutdown, then exit; resolves with the process's exit code. */
  stop(): Promise<number | null>;
}

export interface SpawnOptions {
  /** The `t2m` to run (default: the sources through tsx). */
  readonly t2m?: readonly string[];
  readonly cwd?: string;
}

export async function startLsp(args: readonly string[] = [], spawnWith: SpawnOptions = {}): Promise<LspClient> {
  const [command, ...t2m] = spawnWith.t2m ?? [process.execPath, '--import', 'tsx', 'src/cli/main.ts'];
  const child = spawn(command, [...t2m, 'lsp', '--stdio', ...args], { cwd: spawnWith.cwd ?? ROOT, stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const logs: string[] = [];
  const published: PublishDiagnosticsParams[] = [];
  const waiting: Array<{ uri: string; version?: number; done: (p: PublishDiagnosticsParams) => void }> = [];
  connection.onNotification(LogMessageNotification.type, (p) => {
    logs.push(p.message);
  });
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    const i = waiting.findIndex((w) => w.uri === p.uri && (w.version === undefined || w.version === p.version));
    if (i >= 0) waiting.splice(i, 1)[0].done(p);
    else published.push(p);
  });
  connection.listen();
  const initialize = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } },
  });
  await connection.sendNotification(InitializedNotification.type, {});

  const diagnostics = (uri: string, version?: number) => {
    const i = published.findIndex((p) => p.uri === uri && (version === undefined || p.version === version));
    if (i >= 0) return Promise.resolve(published.splice(i, 1)[0]);
    return new Promise<PublishDiagnosticsParams>((done) => waiting.push({ uri, version, done }));
  };
  return {
    connection,
    child,
    initialize,
    logs,
    stderr: () => stderr,
    diagnostics,
    async open(uri, text, version = 1) {
      const next = diagnostics(uri, version);
      await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 't2m', version, text } });
      return next;
    },
    async stop() {
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      const code = await exited;
      connection.dispose();
      return code;
    },
  };
}
