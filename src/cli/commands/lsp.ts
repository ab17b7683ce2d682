/**
 * `t2m lsp [--stdio] [--db store.sqlite --actor <name>]`: a Language Server Protocol server over
 * stdio (src/lsp/server.ts) for any editor: diagnostics with quick fixes, completion, hover,
 * formatting and semantic tokens, from the same services as the playground. stdout carries only
 * the protocol; messages for people go to stderr. See docs/editors.md.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { loaded } from '../startup.js';
import { oneLine } from '../../diagnostics/escape.js';
import { packageVersion } from '../version.js';

interface LspFlags {
  stdio?: boolean;
  db?: string;
  actor?: string;
  strict?: boolean;
  diagramsUrl?: string;
}

/** How long completion reuses what the store held before asking it again. */
const VOCABULARY_TTL_MS = 5000;

/**
 * The railroad diagrams of a checkout (grammar/generated/diagrams.html above this module), as a
 * file URL; an installed package does not ship them, and hover then links nothing.
 */
function localDiagrams(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'grammar', 'generated', 'diagrams.html');
    if (existsSync(join(dir, 'package.json')) && existsSync(file)) return pathToFileURL(file).href;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export function lspCommand(program: Command): void {
  program
    .command('lsp')
    .description('a Language Server Protocol server over stdio for editors: diagnostics with quick fixes, completion, hover, formatting, semantic tokens (see docs/editors.md)')
    .option('--stdio', 'talk LSP over stdin/stdout (the only transport; accepted because clients pass it)')
    .option('--db <store>', 'a store file (opened read-only) whose tags, types and subjects completion offers')
    .option('--actor <name>', 'with --db: offer only what this actor may read (default: records readable by anyone)')
    .option('--strict', 'strict checker policy: warnings are reported as errors')
    .option('--diagrams-url <url>', 'where hover links the railroad diagrams (default: the checkout\'s grammar/generated/diagrams.html when there is one)')
    .addHelpText('after', [
      '',
      'Point your editor\'s LSP client at `t2m lsp --stdio` for *.t2m files, e.g. Neovim:',
      '  vim.lsp.start({ name = "t2m", cmd = { "npx", "t2m", "lsp", "--stdio" } })',
      'VS Code: the extension in editors/vscode. Helix, Emacs and others: docs/editors.md.',
      '',
      'Exit codes: 0 after the client\'s shutdown and exit, 1 on exit (or stdin closed) without shutdown, 2 the store could not be opened.',
    ].join('\n'))
    .action(async (flags: LspFlags) => {
      // Loaded on use so the other commands do not pay for the protocol library.
      const [{ serveStdio }, { openStoreFile }, { vocabulary }, storeUrl, { sqliteOnly }] = await loaded(Promise.all([
        import('../../lsp/stdio.js'), import('../../dialect/sqlite/native.js'), import('../../agents/store-terms.js'), import('../../store/url.js'), import('./mcp.js'),
      ]));
      if (flags.actor !== undefined && flags.db === undefined) {
        process.stderr.write('t2m lsp: --actor goes with --db (it chooses which records completion may offer)\n');
        process.exitCode = 2;
        return;
      }
      let storeVocabulary: (() => { tags: string[]; types: string[]; subjects: string[] }) | undefined;
      let path: string | undefined;
      if (flags.db !== undefined) {
        // A store file: any other name is refused (without its password) rather than taken for a path.
        const url = sqliteOnly('t2m lsp', flags.db, storeUrl);
        if (!url) return;
        path = url.kind === 'file' ? url.path : flags.db;
        const opened = openStoreFile(path, { readOnly: true });
        if (!opened.ok) {
          for (const d of opened.diagnostics) process.stderr.write(`t2m lsp: ${d.code}: ${oneLine(d.message)}\n`);
          process.exitCode = 2;
          return;
        }
        const store = opened.store;
        let cached: { at: number; value: { tags: string[]; types: string[]; subjects: string[] } } | undefined;
        storeVocabulary = () => {
          const now = Date.now();
          if (!cached || now - cached.at > VOCABULARY_TTL_MS) {
            const v = vocabulary(store, flags.actor, new Date(now));
            const values = (terms: readonly { value: string }[]) => terms.map((t) => t.value);
            cached = { at: now, value: { tags: values(v.tags), types: values(v.types), subjects: values(v.subjects) } };
          }
          return cached.value;
        };
        process.on('exit', () => store.close());
      }
      serveStdio({
        policy: flags.strict ? 'strict' : 'default',
        vocabulary: storeVocabulary,
        diagramsUrl: flags.diagramsUrl ?? localDiagrams(),
        version: packageVersion(),
      });
      process.stderr.write(`t2m lsp: serving on stdio${flags.db !== undefined ? `, completing from ${path}` : ''}\n`);
    });
}
