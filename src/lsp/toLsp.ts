/**
 * The editor services' results (offsets into the text, end exclusive) as LSP values (0-based
 * lines and UTF-16 characters). Every position goes through the document's own `positionAt`, so
 * lines break where the client's do (`\n`, `\r\n` or a lone `\r`) and a character is a UTF-16
 * code unit, which is what the services' offsets count: text before the span in any script
 * (accents, CJK, emoji outside the Basic Multilingual Plane) maps as the client counts it.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  MarkupKind,
  type CodeAction,
  type CompletionItem as LspCompletionItem,
  type Diagnostic as LspDiagnostic,
  type Hover,
  type Range as LspRange,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver';
import type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
import type { CompletionItem, CompletionKind, HoverInfo } from '../services/index.js';

/** The name diagnostics carry as their `source`. */
export const SOURCE = 't2m';

export function rangeOf(doc: TextDocument, from: number, to: number): LspRange {
  return { start: doc.positionAt(from), end: doc.positionAt(to) };
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/**
 * A diagnostic for the client. One without a range (an IR-only problem, rare for DSL text) sits
 * at the start of the document; related information without a range points at the diagnostic.
 */
export function toLspDiagnostic(doc: TextDocument, d: Diagnostic): LspDiagnostic {
  const range = d.range ? rangeOf(doc, d.range.start.offset, d.range.end.offset) : rangeOf(doc, 0, 0);
  const related = (d.related ?? []).map((r) => ({
    location: { uri: doc.uri, range: r.range ? rangeOf(doc, r.range.start.offset, r.range.end.offset) : range },
    message: r.message,
  }));
  return {
    range,
    severity: SEVERITY[d.severity],
    code: d.code,
    source: SOURCE,
    message: d.message,
    ...(related.length ? { relatedInformation: related } : {}),
  };
}

/** The diagnostic's fix as a quick fix on the document (the edits are the checker's own). */
export function toQuickFix(doc: TextDocument, d: Diagnostic, lsp: LspDiagnostic): CodeAction | undefined {
  if (!d.fix) return undefined;
  const edits: LspTextEdit[] = d.fix.edits.map((e) => ({ range: rangeOf(doc, e.range.start.offset, e.range.end.offset), newText: e.newText }));
  return {
    title: d.fix.message,
    kind: CodeActionKind.QuickFix,
    diagnostics: [lsp],
    isPreferred: true,
    edit: { changes: { [doc.uri]: edits } },
  };
}

const KIND: Record<CompletionKind, CompletionItemKind> = {
  keyword: CompletionItemKind.Keyword,
  verb: CompletionItemKind.Function,
  field: CompletionItemKind.Field,
  enum: CompletionItemKind.EnumMember,
  tag: CompletionItemKind.Value,
  type: CompletionItemKind.Class,
  subject: CompletionItemKind.Text,
};

/**
 * A completion item that replaces the word (or string) being typed. Clients filter on the text
 * of that range, which for a quoted store value starts with a quote: its filter text is quoted too.
 * The services' order is kept (`sortText`).
 */
export function toLspCompletion(doc: TextDocument, item: CompletionItem, index: number): LspCompletionItem {
  const range = rangeOf(doc, item.from, item.to);
  const newText = item.insertText ?? item.label;
  const typed = doc.getText(range);
  return {
    label: item.label,
    kind: KIND[item.kind],
    ...(item.detail !== undefined ? { detail: item.detail } : {}),
    ...(item.documentation !== undefined ? { documentation: { kind: MarkupKind.Markdown, value: item.documentation } } : {}),
    filterText: typed.startsWith('"') ? newText : item.label,
    sortText: String(index).padStart(4, '0'),
    textEdit: { range, newText },
  };
}

export function toLspHover(doc: TextDocument, hover: HoverInfo): Hover {
  return { contents: { kind: MarkupKind.Markdown, value: hover.markdown }, range: rangeOf(doc, hover.from, hover.to) };
}

/** The whole document replaced by `text`, or no edit when it is already that. */
export function replaceAll(doc: TextDocument, text: string): LspTextEdit[] {
  const current = doc.getText();
  return text === current ? [] : [{ range: rangeOf(doc, 0, current.length), newText: text }];
}
