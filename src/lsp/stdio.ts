/**
 * The language server on this process's stdin and stdout (`t2m lsp`). Kept apart from
 * ./server.ts, which takes any connection; imported statically here so that bundlers see the
 * CommonJS exports of `vscode-languageserver/node` (a dynamic import of it through the CLI's
 * bundle chunks would expose only `default`).
 */
import { createConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { serveLsp, type LspServerOptions } from './server.js';

export function serveStdio(options: LspServerOptions = {}): void {
  serveLsp(createConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout)), options);
}
