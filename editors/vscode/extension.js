// The Text2Mem extension: highlighting comes from the generated TextMate grammar
// (syntaxes/t2m.tmLanguage.json); everything else — diagnostics with quick fixes, completion,
// hover, formatting, semantic tokens — from the language server `t2m lsp --stdio`, which this
// starts with vscode-languageclient. Plain CommonJS, so the extension needs no build step.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/** @type {import('vscode-languageclient/node').LanguageClient | undefined} */
let client;

/**
 * The command that starts the server, from the `t2m.server.*` settings: the configured command or
 * path (a `.js`/`.mjs` file runs with `node`), else the first workspace folder's
 * node_modules/.bin/t2m, else `t2m` on PATH; then `lsp --stdio` and the extra arguments.
 * @param {{ path?: string, args?: string[] }} settings
 * @param {readonly string[]} workspaceFolders file-system paths
 * @returns {{ command: string, args: string[], options: { shell: boolean } }}
 */
function serverCommand(settings, workspaceFolders) {
  let command = (settings.path || '').trim();
  if (!command) {
    const bin = process.platform === 'win32' ? 't2m.cmd' : 't2m';
    const local = workspaceFolders.map((dir) => path.join(dir, 'node_modules', '.bin', bin)).find((file) => fs.existsSync(file));
    command = local || 't2m';
  }
  const args = ['lsp', '--stdio', ...(settings.args || [])];
  if (/\.m?js$/i.test(command)) return { command: 'node', args: [command, ...args], options: { shell: false } };
  // npm's Windows shims (t2m.cmd) run only through a shell.
  return { command, args, options: { shell: process.platform === 'win32' } };
}

/** @param {import('vscode').ExtensionContext} context */
async function activate(context) {
  const vscode = require('vscode');
  const { LanguageClient } = require('vscode-languageclient/node');
  const output = vscode.window.createOutputChannel('Text2Mem');

  const start = async () => {
    const settings = vscode.workspace.getConfiguration('t2m.server');
    const folders = (vscode.workspace.workspaceFolders || []).map((f) => f.uri.fsPath);
    const server = serverCommand({ path: settings.get('path'), args: settings.get('args') }, folders);
    output.appendLine(`Starting ${server.command} ${server.args.join(' ')}`);
    client = new LanguageClient('t2m', 'Text2Mem', server, {
      documentSelector: [{ language: 't2m' }],
      outputChannel: output,
    });
    try {
      await client.start();
    } catch (e) {
      void vscode.window.showErrorMessage(`Text2Mem: could not start '${server.command} ${server.args.join(' ')}' (${e instanceof Error ? e.message : e}). Set t2m.server.path to the t2m command.`);
    }
  };

  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('t2m.restartServer', async () => {
      await deactivate();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('t2m.server')) void vscode.commands.executeCommand('t2m.restartServer');
    }),
  );
  await start();
}

async function deactivate() {
  const running = client;
  client = undefined;
  // A server that never started cannot be stopped; there is nothing to undo then.
  if (running) await running.stop().catch(() => undefined);
}

module.exports = { activate, deactivate, serverCommand };
