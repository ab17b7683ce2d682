/**
 * The language server on this process's stdin and stdout (`t2m lsp`). Kept apart from
 * ./server.ts, which takes any connection; imported statically here so that bundlers see the
 * CommonJS exports of `vscode-languageserver/node` (a dynamic import of it through the CLI's
 * bundle chunks would expose only `default`).
 */
import { format } from 'node:util';
import { createConnection } from 'vscode-languageserver/node';
import { serveLsp, type LspServerOptions } from './server.js';

export function serveStdio(options: LspServerOptions = {}): void {
  // stdout carries the protocol only: anything a module prints goes to stderr instead.
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    console[level] = (...args: unknown[]) => void process.stderr.write(`${format(...args)}\n`);
  }
  // Given the streams themselves (not message readers), the connection also ends the process
  // when the client closes stdin without `exit` (code 1 unless `shutdown` came first).
  serveLsp(createConnection(process.stdin, process.stdout), options);
}
