/**
 * Adapts the editor services of `src/services` (plain functions over offsets) to Monaco's
 * providers. Nothing here knows the language: keywords, docs and formatting come from the services.
 */
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { getCompletions, type CompletionKind, type StoreVocabulary } from '../../src/services/completion.js';
import { format } from '../../src/services/format.js';
import { getHover } from '../../src/services/hover.js';
import { monarchLanguage, languageConfiguration } from '../../src/services/highlight.js';
import { encodeSemanticTokens, getSemanticTokens, SEMANTIC_TOKEN_TYPES } from '../../src/services/semanticTokens.js';
import { irScriptJsonSchema } from '../../src/services/irSchema.js';
import { jsonDefaults, monaco } from './monaco.js';
import diagramsUrl from './diagrams.js';

/** The URI of the IR pane's model, which the IR JSON Schema applies to. */
export const IR_MODEL_URI = 'inmemory://t2m/script.ir.json';

let vocabulary: StoreVocabulary = { tags: [], types: [], subjects: [] };

/** Tags, types and subjects in the current store, offered by completion. */
export function setStoreVocabulary(next: StoreVocabulary): void {
  vocabulary = next;
}

const SEVERITY = {
  error: monaco.MarkerSeverity.Error,
  warning: monaco.MarkerSeverity.Warning,
  info: monaco.MarkerSeverity.Info,
} as const;

/** Diagnostics without a range (rare: IR-only problems) are shown on the first line. */
export function toMarkers(diagnostics: readonly Diagnostic[]): monaco.editor.IMarkerData[] {
  return diagnostics.map((d) => ({
    severity: SEVERITY[d.severity],
    message: d.message,
    code: d.code,
    source: 't2m',
    startLineNumber: d.range?.start.line ?? 1,
    startColumn: d.range?.start.column ?? 1,
    endLineNumber: d.range?.end.line ?? 1,
    // Monaco hides zero-width markers; widen them to one character.
    endColumn: d.range ? (d.range.end.offset === d.range.start.offset ? d.range.end.column + 1 : d.range.end.column) : 2,
  }));
}

const KIND: Record<CompletionKind, monaco.languages.CompletionItemKind> = {
  keyword: monaco.languages.CompletionItemKind.Keyword,
  verb: monaco.languages.CompletionItemKind.Function,
  field: monaco.languages.CompletionItemKind.Field,
  enum: monaco.languages.CompletionItemKind.EnumMember,
  tag: monaco.languages.CompletionItemKind.Value,
  type: monaco.languages.CompletionItemKind.Class,
  subject: monaco.languages.CompletionItemKind.Text,
};

function rangeOf(model: monaco.editor.ITextModel, from: number, to: number): monaco.Range {
  const a = model.getPositionAt(from);
  const b = model.getPositionAt(to);
  return new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column);
}

let registered = false;

export function registerT2mLanguage(): void {
  if (registered) return;
  registered = true;
  monaco.languages.register({ id: 't2m', extensions: ['.t2m'], aliases: ['Text2Mem', 't2m'] });
  // The IR pane is validated and completed (in Monaco's JSON worker) against the zod IR schema.
  jsonDefaults.setDiagnosticsOptions({
    validate: true,
    enableSchemaRequest: false,
    schemas: [{ uri: 'inmemory://t2m/ir-script.schema.json', fileMatch: [IR_MODEL_URI], schema: irScriptJsonSchema() }],
  });
  monaco.languages.setMonarchTokensProvider('t2m', monarchLanguage() as monaco.languages.IMonarchLanguage);
  monaco.languages.setLanguageConfiguration('t2m', languageConfiguration() as monaco.languages.LanguageConfiguration);

  // vs-dark / vs plus colours for the semantic classes (field names, enum values) and the Monarch ones.
  monaco.editor.defineTheme('t2m-dark', {
    base: 'vs-dark',
    inherit: true,
    rules: [
      { token: 'keyword.verb', foreground: 'C586C0', fontStyle: 'bold' },
      { token: 'number.date', foreground: 'B5CEA8' },
      { token: 'number.duration', foreground: 'B5CEA8', fontStyle: 'italic' },
      { token: 'property', foreground: '9CDCFE' },
      { token: 'enumMember', foreground: '4FC1FF' },
    ],
    colors: {},
  });
  monaco.editor.defineTheme('t2m-light', {
    base: 'vs',
    inherit: true,
    rules: [
      { token: 'keyword.verb', foreground: 'AF00DB', fontStyle: 'bold' },
      { token: 'number.date', foreground: '098658' },
      { token: 'number.duration', foreground: '098658', fontStyle: 'italic' },
      { token: 'property', foreground: '001080' },
      { token: 'enumMember', foreground: '0070C1' },
    ],
    colors: {},
  });
  monaco.languages.registerDocumentSemanticTokensProvider('t2m', {
    getLegend: () => ({ tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [] }),
    provideDocumentSemanticTokens(model) {
      const text = model.getValue();
      return { data: encodeSemanticTokens(text, getSemanticTokens(text)) };
    },
    releaseDocumentSemanticTokens() {},
  });

  monaco.languages.registerCompletionItemProvider('t2m', {
    triggerCharacters: ['"', ' ', ':'],
    provideCompletionItems(model, position) {
      const offset = model.getOffsetAt(position);
      const items = getCompletions(model.getValue(), offset, vocabulary);
      return {
        suggestions: items.map((item, i) => ({
          label: item.label,
          // Monaco filters on the text of the replaced range; for a quoted value that starts with a quote.
          filterText: model.getValueInRange(rangeOf(model, item.from, item.to)).startsWith('"') ? (item.insertText ?? item.label) : item.label,
          kind: KIND[item.kind],
          detail: item.detail,
          documentation: item.documentation ? { value: item.documentation } : undefined,
          insertText: item.insertText ?? item.label,
          range: rangeOf(model, item.from, item.to),
          sortText: String(i).padStart(4, '0'),
        })),
      };
    },
  });

  monaco.languages.registerHoverProvider('t2m', {
    provideHover(model, position) {
      const hover = getHover(model.getValue(), model.getOffsetAt(position), { diagramsUrl });
      if (!hover) return null;
      return { range: rangeOf(model, hover.from, hover.to), contents: [{ value: hover.markdown, isTrusted: false }] };
    },
  });

  monaco.languages.registerDocumentFormattingEditProvider('t2m', {
    provideDocumentFormattingEdits(model) {
      const result = format(model.getValue());
      if (result.text === undefined || result.text === model.getValue()) return [];
      return [{ range: model.getFullModelRange(), text: result.text }];
    },
  });

  // A diagnostic's fix (e.g. "did you mean …") becomes a quick fix on its marker.
  monaco.languages.registerCodeActionProvider('t2m', {
    provideCodeActions(model, _range, context) {
      const actions: monaco.languages.CodeAction[] = [];
      for (const marker of context.markers) {
        const fix = lastDiagnostics.find((d) => d.fix && d.code === (typeof marker.code === 'string' ? marker.code : marker.code?.value)
          && d.range?.start.line === marker.startLineNumber && d.range?.start.column === marker.startColumn)?.fix;
        if (!fix) continue;
        actions.push({
          title: fix.message,
          kind: 'quickfix',
          diagnostics: [marker],
          isPreferred: true,
          edit: {
            edits: fix.edits.map((e) => ({
              resource: model.uri,
              versionId: model.getVersionId(),
              textEdit: { range: rangeOf(model, e.range.start.offset, e.range.end.offset), text: e.newText },
            })),
          },
        });
      }
      return { actions, dispose() {} };
    },
  });
}

let lastDiagnostics: readonly Diagnostic[] = [];
/** The diagnostics behind the current markers, so quick fixes can find their edits. */
export function setLastDiagnostics(diagnostics: readonly Diagnostic[]): void {
  lastDiagnostics = diagnostics;
}
