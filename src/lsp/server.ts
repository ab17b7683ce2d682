/**
 * The Language Server Protocol adapter over the editor services (src/services), the same ones
 * the playground's Monaco adapts: diagnostics with quick fixes, completion, hover, formatting and
 * semantic tokens. Nothing here knows the language; it maps offsets to LSP positions
 * (./toLsp.ts) and keeps the open documents. `t2m lsp` (src/cli/commands/lsp.ts) connects it
 * to stdio.
 *
 * No request or notification may take the server down: the services do not throw on any text,
 * and a handler that did anyway (a bug) is logged to the client and answered empty.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeActionKind,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type Connection,
  type Diagnostic as LspDiagnostic,
  type InitializeResult,
  type Range as LspRange,
} from 'vscode-languageserver';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Policy } from '../pipeline.js';
import {
  encodeSemanticTokens,
  format,
  getCompletions,
  getDiagnostics,
  getHover,
  getSemanticTokens,
  SEMANTIC_TOKEN_TYPES,
  type StoreVocabulary,
} from '../services/index.js';
import { replaceAll, toLspCompletion, toLspDiagnostic, toLspHover, toQuickFix } from './toLsp.js';

export interface LspServerOptions {
  /** The checker's policy for diagnostics (`strict`: warnings become errors). */
  readonly policy?: Policy;
  /** Tags, types and subjects completion offers (e.g. a store's); asked at each completion. */
  readonly vocabulary?: () => StoreVocabulary;
  /** Where hover links the railroad diagrams (`#rule` appended); `null` or absent: no link. */
  readonly diagramsUrl?: string | null;
  /** Quiet time after an edit before the document is checked again (default 100 ms). */
  readonly debounceMs?: number;
  /** Reported to the client as `serverInfo.version`. */
  readonly version?: string;
}

/** Characters after which clients ask for completion unprompted (as in the playground). */
export const TRIGGER_CHARACTERS = ['"', ' ', ':'];

interface Analysis {
  readonly version: number;
  readonly diagnostics: readonly Diagnostic[];
}

/** Wires the services to `connection` and starts listening on it. */
export function serveLsp(connection: Connection, options: LspServerOptions = {}): void {
  const documents = new TextDocuments(TextDocument);
  const analyses = new Map<string, Analysis>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const debounceMs = options.debounceMs ?? 100;

  /** Runs a handler; a throw (a bug: the services take any text) is logged and `fallback` returned. */
  function safely<T>(what: string, fallback: T, run: () => T): T {
    try {
      return run();
    } catch (e) {
      connection.console.error(`t2m lsp: ${what} failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      return fallback;
    }
  }

  /** The diagnostics of the document's current version, computed once per version. */
  function analyse(doc: TextDocument): Analysis {
    const cached = analyses.get(doc.uri);
    if (cached && cached.version === doc.version) return cached;
    const analysis = { version: doc.version, diagnostics: getDiagnostics(doc.getText(), options.policy) };
    analyses.set(doc.uri, analysis);
    return analysis;
  }

  function publish(uri: string): void {
    timers.delete(uri);
    const doc = documents.get(uri);
    if (!doc) return;
    const diagnostics = safely('diagnostics', [] as LspDiagnostic[], () => analyse(doc).diagnostics.map((d) => toLspDiagnostic(doc, d)));
    void connection.sendDiagnostics({ uri, version: doc.version, diagnostics });
  }

  function schedule(uri: string, delay: number): void {
    clearTimeout(timers.get(uri));
    timers.set(uri, setTimeout(() => publish(uri), delay));
  }

  connection.onInitialize((): InitializeResult => ({
    capabilities: {
      positionEncoding: 'utf-16',
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      completionProvider: { triggerCharacters: TRIGGER_CHARACTERS },
      hoverProvider: true,
      documentFormattingProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      semanticTokensProvider: { legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [] }, full: true },
    },
    serverInfo: { name: 't2m', ...(options.version ? { version: options.version } : {}) },
  }));

  // A document just opened (never analysed) is checked at once; edits wait for a pause in typing.
  documents.onDidChangeContent((e) => schedule(e.document.uri, analyses.has(e.document.uri) ? debounceMs : 0));
  documents.onDidClose((e) => {
    clearTimeout(timers.get(e.document.uri));
    timers.delete(e.document.uri);
    analyses.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onCompletion((params) => safely('completion', [], () => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const vocabulary = options.vocabulary ? safely('store vocabulary', undefined, options.vocabulary) : undefined;
    return getCompletions(doc.getText(), doc.offsetAt(params.position), vocabulary).map((item, i) => toLspCompletion(doc, item, i));
  }));

  connection.onHover((params) => safely('hover', null, () => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return null;
    const hover = getHover(doc.getText(), doc.offsetAt(params.position), { diagramsUrl: options.diagramsUrl ?? null });
    return hover ? toLspHover(doc, hover) : null;
  }));

  // The printer is the only formatter; a script with syntax errors is left as it is.
  connection.onDocumentFormatting((params) => safely('formatting', [], () => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const result = format(doc.getText());
    return result.text === undefined ? [] : replaceAll(doc, result.text);
  }));

  connection.onCodeAction((params) => safely('code actions', [] as CodeAction[], () => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    if (params.context.only && !params.context.only.some((k) => CodeActionKind.QuickFix.startsWith(k))) return [];
    const actions: CodeAction[] = [];
    for (const d of analyse(doc).diagnostics) {
      if (!d.fix) continue;
      const lsp = toLspDiagnostic(doc, d);
      // The client's copy of the diagnostic when it sent one (same code and range), so the
      // action is tied to the marker it shows; else any fix whose span meets the range asked about.
      const sent = params.context.diagnostics.find((c) => c.code === d.code && sameRange(c.range, lsp.range));
      if (!sent && !overlaps(lsp.range, params.range)) continue;
      const action = toQuickFix(doc, d, sent ?? lsp);
      if (action) actions.push(action);
    }
    return actions;
  }));

  connection.languages.semanticTokens.on((params) => safely('semantic tokens', { data: [] }, () => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return { data: [] };
    const text = doc.getText();
    return { data: Array.from(encodeSemanticTokens(text, getSemanticTokens(text), (offset) => doc.positionAt(offset))) };
  }));

  documents.listen(connection);
  connection.listen();
}

const before = (a: LspRange['start'], b: LspRange['start']): boolean => a.line < b.line || (a.line === b.line && a.character < b.character);

function sameRange(a: LspRange, b: LspRange): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

/** Whether two ranges share a point (touching counts: a cursor at the end of a word is on it). */
function overlaps(a: LspRange, b: LspRange): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}
