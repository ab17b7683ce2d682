/**
 * `t2m lsp` survives whatever an editor sends: garbage, unclosed strings and brackets, lone
 * surrogates, nesting far past the limit, large documents, positions outside the document, edits
 * to documents it never saw. Every request is answered (no handler fails, nothing is logged as a
 * failure) and the server still shuts down cleanly.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DocumentFormattingRequest,
  HoverRequest,
  SemanticTokensRequest,
  type Position,
} from 'vscode-languageserver-protocol';
import { startLsp, type LspClient } from './client.js';

let lsp: LspClient;
let n = 0;

beforeAll(async () => {
  lsp = await startLsp();
}, 60_000);

afterAll(() => {
  if (lsp && lsp.child.exitCode === null) lsp.child.kill();
});

/** Opens `text`, waits for its diagnostics and asks every request at a few positions, in and out of range. */
async function exercise(text: string): Promise<void> {
  const uri = `file:///robust/${n++}.t2m`;
  const published = await lsp.open(uri, text);
  expect(Array.isArray(published.diagnostics)).toBe(true);
  const lines = text.split(/\r\n|\r|\n/);
  const positions: Position[] = [
    { line: 0, character: 0 },
    { line: lines.length - 1, character: lines.at(-1)!.length },
    { line: Math.floor(lines.length / 2), character: 3 },
    { line: 0, character: 1_000_000 },
    { line: 1_000_000, character: 5 },
    { line: -1, character: -1 },
  ];
  const textDocument = { uri };
  await Promise.all([
    ...positions.flatMap((position) => [
      lsp.connection.sendRequest(CompletionRequest.type, { textDocument, position }),
      lsp.connection.sendRequest(HoverRequest.type, { textDocument, position }),
      lsp.connection.sendRequest(CodeActionRequest.type, { textDocument, range: { start: position, end: position }, context: { diagnostics: published.diagnostics } }),
    ]),
    lsp.connection.sendRequest(SemanticTokensRequest.type, { textDocument }),
    lsp.connection.sendRequest(DocumentFormattingRequest.type, { textDocument, options: { tabSize: 2, insertSpaces: true } }),
  ]);
}

/** Characters and words a script is made of, so random documents come near real ones. */
const PIECES = ['ENCODE', 'LOCK', 'WHERE', 'tags', 'HAS', 'LIMIT', 'SET', 'MODE', 'read_onyl', 'FACETS', 'LET', '$x', 'ID',
  '"', '"é🎉"', '{', '}', '[', ']', ':', ',', ';', '=', '#', '\n', '\r', '\r\n', ' ', '\t', '1', '-2.5', 'P30D', '2025-04-10T15:30:00Z', '\\', '\u0000', '\uD800', '🎉'];

describe('t2m lsp on hostile documents', () => {
  it('answers every request on garbage, deep nesting and large documents', async () => {
    const garbage = Array.from({ length: 200_000 }, (_, i) => 'ab"{[ ;:#\n,.=<>é🎉\r'[(i * 7919) % 18]).join('');
    for (const text of [
      '',
      '"',
      'ENCODE "unterminated',
      '\uD800\uDFFF\uDC00\u0000\uFFFF',
      '['.repeat(100_000),
      'ENCODE "x" FACETS ' + '{a: '.repeat(50_000),
      'ENCODE "x" TAGS "a";\n'.repeat(5_000),
      garbage,
      'LOCK WHERE '.repeat(200),
    ]) await exercise(text);
  });

  it('answers every request on random scripts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }), async (pieces) => exercise(pieces.join(' '))),
      { numRuns: 40, seed: 15 },
    );
  });

  it('ignores edits to documents it never opened and edits out of range', async () => {
    const uri = 'file:///robust/edited.t2m';
    await lsp.open(uri, 'ENCODE "x";');
    await lsp.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: 'file:///robust/unknown.t2m', version: 2 }, contentChanges: [{ text: 'x' }] });
    const next = lsp.diagnostics(uri, 2);
    await lsp.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 40, character: 3 }, end: { line: 2, character: 900 } }, text: ' TAGS "🎉"' }],
    });
    expect((await next).version).toBe(2);
    await exercise('ENCODE "x";');
  });

  it('has logged no handler failure and still shuts down cleanly', async () => {
    expect(lsp.logs.filter((l) => l.includes('failed'))).toEqual([]);
    expect(await lsp.stop()).toBe(0);
  });

  it('ends when the client goes away without a word (stdin closed)', async () => {
    const orphan = await startLsp();
    const exited = new Promise<number | null>((done) => orphan.child.once('exit', done));
    orphan.child.stdin.end();
    // No shutdown came first: the protocol's exit code 1.
    expect(await exited).toBe(1);
  });
});
