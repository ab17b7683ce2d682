/**
 * `t2m lsp` end to end: the CLI spawned over stdio and driven with LSP messages — initialize,
 * didOpen → publishDiagnostics, a quick fix applied with didChange, completion, hover, formatting,
 * semantic tokens, shutdown and exit. Positions are LSP's (0-based line, UTF-16 character): the
 * documents put accents, CJK and astral-plane emoji (two UTF-16 units each) before the spans.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DocumentFormattingRequest,
  HoverRequest,
  SemanticTokensRequest,
  type CodeAction,
  type CompletionItem,
  type MarkupContent,
  type TextEdit,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { startLsp, type LspClient } from './client.js';

let lsp: LspClient;

beforeAll(async () => {
  lsp = await startLsp();
}, 60_000);

afterAll(async () => {
  if (lsp && lsp.child.exitCode === null) lsp.child.kill();
});

const formatting = { tabSize: 2, insertSpaces: true };

/** Line 1 has a misspelt lock mode after a string holding ü and 🎉 (2 UTF-16 units). */
const MISSPELT = 'ENCODE "☕ café 网络 🎉" TAGS "x";\n  LOCK WHERE tags HAS "ü🎉" LIMIT 2 MODE read_onyl;\n';

function labels(items: CompletionItem[] | { items: CompletionItem[] } | null): string[] {
  return (Array.isArray(items) ? items : items?.items ?? []).map((i) => i.label);
}

describe('t2m lsp over stdio', () => {
  it('initialize: declares its features and the UTF-16 position encoding', () => {
    const caps = lsp.initialize.capabilities;
    expect(lsp.initialize.serverInfo?.name).toBe('t2m');
    expect(caps.positionEncoding).toBe('utf-16');
    expect(caps.textDocumentSync).toMatchObject({ openClose: true, change: 2 });
    expect(caps.hoverProvider).toBe(true);
    expect(caps.documentFormattingProvider).toBe(true);
    expect(caps.codeActionProvider).toEqual({ codeActionKinds: ['quickfix'] });
    expect(caps.completionProvider?.triggerCharacters).toEqual(['"', ' ', ':']);
    expect(caps.semanticTokensProvider).toMatchObject({ legend: { tokenTypes: ['property', 'enumMember'], tokenModifiers: [] }, full: true });
  });

  it('didOpen → publishDiagnostics with the exact code and UTF-16 range', async () => {
    const published = await lsp.open('file:///w/misspelt.t2m', MISSPELT);
    expect(published.version).toBe(1);
    expect(published.diagnostics.map(({ code, severity, source, range }) => ({ code, severity, source, range }))).toEqual([
      // `read_onyl` starts at UTF-16 character 41 of line 1 (40 in code points: 🎉 counts twice).
      { code: 'invalid-enum', severity: 1, source: 't2m', range: { start: { line: 1, character: 41 }, end: { line: 1, character: 50 } } },
    ]);
    expect(published.diagnostics[0].message).toContain("did you mean 'read_only'?");
  });

  it('codeAction → the quick fix; applied with didChange, the diagnostics clear', async () => {
    const uri = 'file:///w/misspelt.t2m';
    const range = { start: { line: 1, character: 41 }, end: { line: 1, character: 50 } };
    const sent = { range, code: 'invalid-enum', severity: 1 as const, source: 't2m', message: 'x' };
    const actions = (await lsp.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics: [sent] } })) as CodeAction[];
    expect(actions.map((a) => ({ title: a.title, kind: a.kind, preferred: a.isPreferred, edit: a.edit }))).toEqual([
      { title: "replace 'read_onyl' with 'read_only'", kind: 'quickfix', preferred: true, edit: { changes: { [uri]: [{ range, newText: 'read_only' }] } } },
    ]);
    expect(actions[0].diagnostics).toEqual([sent]);
    // A cursor inside the word, with no diagnostic sent (a client asking for the light bulb), finds it too.
    const atCursor = (await lsp.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri }, range: { start: { line: 1, character: 45 }, end: { line: 1, character: 45 } }, context: { diagnostics: [] },
    })) as CodeAction[];
    expect(atCursor.map((a) => a.title)).toEqual(["replace 'read_onyl' with 'read_only'"]);
    // Only refactorings asked for: no quick fix.
    expect(await lsp.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics: [sent], only: ['refactor'] } })).toEqual([]);

    const next = lsp.diagnostics(uri, 2);
    const edit = actions[0].edit!.changes![uri][0];
    await lsp.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ range: edit.range, text: edit.newText }] });
    expect((await next).diagnostics).toEqual([]);
    // The fixed document has no more fixes.
    expect(await lsp.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics: [] } })).toEqual([]);
  });

  it('completion: verbs at a statement start, the mode values after MODE, with UTF-16 edit ranges', async () => {
    const uri = 'file:///w/complete.t2m';
    const text = 'ENCODE "🎉" TYP;\nLOCK WHERE tags HAS "网络🎉" LIMIT 2 MODE \n';
    await lsp.open(uri, text);
    const verbs = await lsp.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } });
    expect(labels(verbs)).toEqual(expect.arrayContaining(['ENCODE', 'RETRIEVE', 'LOCK', 'SUMMARIZE']));

    const typ = (await lsp.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 15 } })) as CompletionItem[];
    const type = typ.find((i) => i.label === 'TYPE');
    // `TYP` spans UTF-16 characters 12–15 (`🎉` is two).
    expect(type?.textEdit).toEqual({ range: { start: { line: 0, character: 12 }, end: { line: 0, character: 15 } }, newText: 'TYPE' });
    expect(type?.kind).toBe(14); // Keyword

    const modes = (await lsp.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 1, character: 40 } })) as CompletionItem[];
    expect(labels(modes)).toEqual(['read_only', 'append_only']);
    expect(modes[0]).toMatchObject({ kind: 20, detail: 'mode', textEdit: { range: { start: { line: 1, character: 40 }, end: { line: 1, character: 40 } }, newText: 'read_only' } });
    expect((modes[0].documentation as MarkupContent).kind).toBe('markdown');
  });

  it('hover: a field name is the field of the place it stands in (WHERE condition, SET key)', async () => {
    const uri = 'file:///w/fields.t2m';
    const lines = [
      'RETRIEVE WHERE tags HAS "🎉" LIMIT 2;',
      'PROMOTE WHERE tags HAS "a" SET weight 0.9;',
      'RETRIEVE WHERE weight >= 0.5;',
      'RETRIEVE WHERE time IN LAST 7 DAYS;',
      'UPDATE IDS 1 SET weight = 0.3;',
      'RETRIEVE WHERE type = note INCLUDE text, weight;',
    ];
    await lsp.open(uri, `${lines.join('\n')}\n`);
    const hoverAt = async (line: number, word: string, nth = 0) => {
      let character = -1;
      for (let k = 0; k <= nth; k++) character = lines[line].indexOf(word, character + 1);
      const hover = await lsp.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character: character + 1 } });
      expect(hover?.range).toEqual({ start: { line, character }, end: { line, character: character + word.length } });
      return (hover?.contents as MarkupContent).value;
    };
    expect(await hoverAt(0, 'tags')).toContain('Condition of WHERE (HAS): `target.filter.has_tags`');
    expect(await hoverAt(0, 'tags')).not.toContain('args.tags');
    expect(await hoverAt(1, 'weight')).toContain('Set by SET: `args.weight`');
    expect(await hoverAt(1, 'weight')).not.toContain('include');
    expect(await hoverAt(2, 'weight')).toContain('Condition of WHERE (>=): `target.filter.weight_gte`');
    expect(await hoverAt(2, 'weight')).not.toContain('include');
    expect(await hoverAt(3, 'time')).toContain('Condition of WHERE (RANGE): `target.filter.time_range`');
    expect(await hoverAt(3, 'time')).not.toContain('args.time');
    expect(await hoverAt(4, 'weight')).toContain('Set by SET: `args.set.weight`');
    expect(await hoverAt(5, 'type')).toContain('Condition of WHERE: `target.filter.type`');
    // After INCLUDE the same word is a value of that clause.
    expect(await hoverAt(5, 'weight')).toContain('Value of INCLUDE (`args.include`)');
  });

  it('hover: the keyword\'s doc and its span in UTF-16 characters', async () => {
    const uri = 'file:///w/hover.t2m';
    await lsp.open(uri, 'ENCODE "🎉" TAGS "a";\nRETRIEVE WHERE tags HAS "ü🎉" LIMIT 2 ORDER BY time_desc;\n');
    const hover = await lsp.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 13 } });
    expect(hover?.range).toEqual({ start: { line: 0, character: 12 }, end: { line: 0, character: 16 } });
    expect((hover?.contents as MarkupContent).kind).toBe('markdown');
    expect((hover?.contents as MarkupContent).value).toMatch(/^\*\*TAGS\*\* — /);
    // Run from a checkout: the link goes to its railroad diagrams.
    expect((hover?.contents as MarkupContent).value).toMatch(/\[Syntax diagram: \w+\]\(file:\/\/\/.*\/grammar\/generated\/diagrams\.html#\w+\)/);
    const value = await lsp.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 50 } });
    expect(value?.range).toEqual({ start: { line: 1, character: 47 }, end: { line: 1, character: 56 } });
    expect((value?.contents as MarkupContent).value).toContain('Value of ORDER BY');
    // Nothing to say about a string.
    expect(await lsp.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 9 } })).toBeNull();
  });

  it('formatting: one edit to the printer\'s canonical text, then none', async () => {
    const uri = 'file:///w/format.t2m';
    const text = 'encode "ü🎉"   tags "a"\n   type note;\n';
    await lsp.open(uri, text);
    const edits = (await lsp.connection.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: formatting })) as TextEdit[];
    expect(edits).toEqual([{ range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } }, newText: 'ENCODE "ü🎉" TYPE note TAGS "a";\n' }]);
    const formatted = TextDocument.applyEdits(TextDocument.create(uri, 't2m', 1, text), edits);
    const next = lsp.diagnostics(uri, 2);
    await lsp.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: formatted }] });
    await next;
    expect(await lsp.connection.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: formatting })).toEqual([]);
    // A script with syntax errors is left as it is.
    const broken = 'file:///w/broken.t2m';
    await lsp.open(broken, 'encode "x" TAGS;');
    expect(await lsp.connection.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri: broken }, options: formatting })).toEqual([]);
  });

  it('semanticTokens/full: field names and enum values, delta-encoded in UTF-16 characters', async () => {
    const uri = 'file:///w/tokens.t2m';
    await lsp.open(uri, 'RETRIEVE WHERE tags HAS "🎉" LIMIT 2 ORDER BY time_desc;\n  LOCK ID 1 MODE read_only;');
    const tokens = await lsp.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
    expect(tokens?.data).toEqual([
      0, 15, 4, 0, 0, // tags: property
      0, 31, 9, 1, 0, // time_desc at 46 (45 in code points): enumMember
      1, 17, 9, 1, 0, // read_only: enumMember
    ]);
  });

  it('lines break where the client\'s do: CRLF and a lone CR', async () => {
    const crlf = await lsp.open('file:///w/crlf.t2m', 'ENCODE "é" TAGS "a";\r\nLOCK ID 1 MODE read_onyl;\r\n');
    expect(crlf.diagnostics.map((d) => d.range)).toEqual([{ start: { line: 1, character: 15 }, end: { line: 1, character: 24 } }]);
    const cr = await lsp.open('file:///w/cr.t2m', 'ENCODE "é" TAGS "a";\rLOCK ID 1 MODE read_onyl;');
    expect(cr.diagnostics.map((d) => d.range)).toEqual([{ start: { line: 1, character: 15 }, end: { line: 1, character: 24 } }]);
    const tokens = await lsp.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: 'file:///w/cr.t2m' } });
    expect(tokens?.data.slice(0, 2)).toEqual([1, 15]);
  });

  it('didClose clears the document\'s diagnostics; requests on unknown documents answer empty', async () => {
    const uri = 'file:///w/misspelt.t2m';
    const cleared = lsp.diagnostics(uri);
    await lsp.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    expect((await cleared).diagnostics).toEqual([]);
    const unknown = { uri: 'file:///w/never-opened.t2m' };
    expect(await lsp.connection.sendRequest(HoverRequest.type, { textDocument: unknown, position: { line: 0, character: 0 } })).toBeNull();
    expect(await lsp.connection.sendRequest(CompletionRequest.type, { textDocument: unknown, position: { line: 0, character: 0 } })).toEqual([]);
    expect(await lsp.connection.sendRequest(SemanticTokensRequest.type, { textDocument: unknown })).toEqual({ data: [] });
  });

  it('shutdown, then exit: the process ends with code 0, having logged no handler failure', async () => {
    expect(lsp.logs.filter((l) => l.includes('failed'))).toEqual([]);
    expect(await lsp.stop()).toBe(0);
    expect(lsp.stderr()).toContain('t2m lsp: serving on stdio');
  });
});
