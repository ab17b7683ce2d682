/**
 * Latency of `t2m lsp` as an editor sees it: the bundled CLI (dist/cli/t2m.js; `--src` runs the
 * sources through tsx) driven over stdio by the test client, on scripts of 10, 100 and 1,000
 * statements made from the corpus. Per size: didOpen → publishDiagnostics, and the median round
 * trip of completion, hover, semantic tokens, formatting and code actions, next to the same
 * service called in this process (the ratio is what the protocol and the process boundary add).
 * Prints a table; no budget is enforced.
 *
 *   npm run build && npx tsx perf/lsp.ts [--src] [--runs 15]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CodeActionRequest, CompletionRequest, DocumentFormattingRequest, HoverRequest, SemanticTokensRequest } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { format, getCompletions, getDiagnostics, getHover, getSemanticTokens, encodeSemanticTokens } from '../src/services/index.js';
import { startLsp } from '../test/lsp/client.js';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 15;
const fromSources = args.includes('--src');

const corpus = readdirSync(join(ROOT, 'test/corpus')).filter((f) => f.endsWith('.t2m')).sort()
  .flatMap((f) => readFileSync(join(ROOT, 'test/corpus', f), 'utf8').split(/(?<=;)\s*\n/).map((s) => s.trim()).filter((s) => s.endsWith(';') && !s.startsWith('#')));

function script(statements: number): string {
  return Array.from({ length: statements }, (_, i) => corpus[i % corpus.length]).join('\n') + '\n';
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(run: () => unknown): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}
async function med(run: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(run));
  return median(times);
}

const lsp = await startLsp([], fromSources ? {} : { t2m: [process.execPath, join(ROOT, 'dist/cli/t2m.js')] });
const rows: string[][] = [];
try {
  for (const n of [10, 100, 1000]) {
    const text = script(n);
    const uri = `file:///perf/${n}.t2m`;
    const doc = TextDocument.create(uri, 't2m', 1, text);
    const open = await timed(() => lsp.open(uri, text));
    // The middle of the script, on a keyword (hover) and after it (completion).
    const offset = text.indexOf(' WHERE ', Math.floor(text.length / 2)) + 3;
    const position = doc.positionAt(offset);
    const textDocument = { uri };
    const whole = { start: { line: 0, character: 0 }, end: doc.positionAt(text.length) };
    // Code actions reuse the version's diagnostics (computed once per version): no in-process twin.
    const pairs: Array<[string, (() => unknown) | undefined, () => unknown]> = [
      ['diagnostics', () => getDiagnostics(text), () => undefined],
      ['completion', () => getCompletions(text, offset), () => lsp.connection.sendRequest(CompletionRequest.type, { textDocument, position })],
      ['hover', () => getHover(text, offset), () => lsp.connection.sendRequest(HoverRequest.type, { textDocument, position })],
      ['semantic tokens', () => encodeSemanticTokens(text, getSemanticTokens(text)), () => lsp.connection.sendRequest(SemanticTokensRequest.type, { textDocument })],
      ['formatting', () => format(text), () => lsp.connection.sendRequest(DocumentFormattingRequest.type, { textDocument, options: { tabSize: 2, insertSpaces: true } })],
      ['code actions', undefined, () => lsp.connection.sendRequest(CodeActionRequest.type, { textDocument, range: whole, context: { diagnostics: [] } })],
    ];
    for (const [name, local, remote] of pairs) {
      const inProcess = local ? await med(local) : undefined;
      const overLsp = name === 'diagnostics' ? open : await med(remote);
      rows.push([String(n), `${text.length}`, name === 'diagnostics' ? 'didOpen → publishDiagnostics' : name, overLsp.toFixed(1),
        inProcess?.toFixed(1) ?? '—', inProcess ? (overLsp / inProcess).toFixed(2) : '—']);
    }
  }
} finally {
  await lsp.stop();
}

const header = ['statements', 'chars', 'request', 'over LSP (ms)', 'in process (ms)', 'ratio'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(`t2m lsp (${fromSources ? 'sources via tsx' : 'dist/cli/t2m.js'}), medians of ${RUNS}; the didOpen row is one run (the first analysis)`);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const r of rows) console.log(line(r));
