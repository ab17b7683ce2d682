/**
 * The page's three Monaco editors (script, IR, SQL): their host elements with the "loading
 * editor…" placeholders, their creation once the lazily imported `editor.ts` arrives, and the
 * editor-side state kept until then (SQL text, markers, store vocabulary, last diagnostics), set
 * on the editors when they exist. Monaco appears here only in type imports, so this module stays
 * in the entry chunk without pulling Monaco into it.
 */
import type { Diagnostic, Range } from '../../src/diagnostics/diagnostic.js';
import type { StoreVocabulary } from '../../src/services/completion.js';
import { h } from './dom.js';
import type { EditorModule } from './editor.js';
import type { monaco } from './monaco.js';

/** What the editors report to the page. */
export interface EditorEvents {
  /** Ctrl/Cmd-Enter in the script editor. */
  run(): void;
  /** Ctrl/Cmd-Shift-Enter: run the selection, or the statement at the cursor. */
  runPart(): void;
  /** The script editor's text changed (by the user or the page). */
  scriptChanged(): void;
  /** The user edited the IR pane (the page's own rewrites are not echoed). */
  irEdited(): void;
  /** A link in a hover was followed; true when the page opened it itself. */
  openLink(url: string): boolean;
  /** F1 in an editor: the shortcut panel. */
  shortcuts(): void;
  /** Shift-Alt-F in the script editor: Format, as the button does. */
  format(): void;
}

/** What Format did: the syntax errors that stopped it, or whether the text changed. */
export type FormatOutcome = { readonly errors: number } | { readonly changed: boolean };

/** Keys that only modify another key (pressing Shift before Tab must not cancel "Esc, then Tab"). */
const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock']);

/** The editors once loaded (for the test API). */
export interface LoadedEditors {
  readonly m: EditorModule;
  readonly editor: monaco.editor.IStandaloneCodeEditor;
  readonly irEditor: monaco.editor.IStandaloneCodeEditor;
  readonly sqlModel: monaco.editor.ITextModel;
}

const loading = () => h('div', { class: 'editor-loading', 'data-testid': 'editor-loading' }, 'loading editor…');

/** Focuses the first focusable control after (or before) `host` in document order. */
function focusNext(host: HTMLElement, backwards: boolean): void {
  const all = [...document.querySelectorAll<HTMLElement>('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])')]
    .filter((el) => !host.contains(el) && !el.hasAttribute('disabled') && el.offsetParent !== null);
  const after = all.filter((el) => host.compareDocumentPosition(el) & (backwards ? Node.DOCUMENT_POSITION_PRECEDING : Node.DOCUMENT_POSITION_FOLLOWING));
  (backwards ? after[after.length - 1] : after[0])?.focus();
}

function toIRange(r: Range): monaco.IRange {
  return { startLineNumber: r.start.line, startColumn: r.start.column, endLineNumber: r.end.line, endColumn: r.end.column };
}

export class EditorHost {
  readonly scriptHost = h('div', { id: 'editor' }, loading());
  readonly irHost = h('div', { style: 'min-height:0' }, loading());
  readonly sqlHost = h('div', { style: 'min-height:0' }, loading());
  /** Resolves when the editors exist; commands that need an editor wait for it. */
  ready: Promise<void> = new Promise(() => {});
  /** The Monaco-dependent module and the editors made with it; all undefined until it has loaded. */
  private m?: EditorModule;
  private editor?: monaco.editor.IStandaloneCodeEditor;
  private irEditor?: monaco.editor.IStandaloneCodeEditor;
  private sqlModel?: monaco.editor.ITextModel;
  private stepDecorations?: monaco.editor.IEditorDecorationsCollection;
  /** What the editor-side state will be set to once the editors exist (kept while they load). */
  private sqlText = '';
  private vocabulary: StoreVocabulary = { tags: [], types: [], subjects: [] };
  private lastDiagnostics: Diagnostic[] = [];
  private readonly markerSets = new Map<string, Diagnostic[]>();
  /** Set while the page itself rewrites the IR editor, so the change is not echoed back. */
  private syncing = false;
  private theme: 'light' | 'dark' = 'dark';

  /** `module`: the pending `import('./editor.js')`; the editors are made when it resolves. */
  load(module: Promise<EditorModule>, events: EditorEvents): Promise<void> {
    this.ready = module.then((m) => this.create(m, events));
    // Without a handler here, a failed chunk load would be reported as unhandled before the page awaits it.
    this.ready.catch(() => undefined);
    return this.ready;
  }

  /** Creates the three editors in place of their placeholders and hands them the state kept meanwhile. */
  private create(m: EditorModule, events: EditorEvents): void {
    const { monaco } = m;
    m.registerT2mLanguage();
    monaco.editor.registerLinkOpener({ open: (uri) => events.openLink(uri.toString(true)) });
    for (const host of [this.scriptHost, this.irHost, this.sqlHost]) host.replaceChildren();
    const common: monaco.editor.IStandaloneEditorConstructionOptions = {
      theme: `t2m-${this.theme}`, automaticLayout: true, minimap: { enabled: false }, fontSize: 13, scrollBeyondLastLine: false,
      // A wheel turn the editor cannot use (its text fits, or it is at the end) scrolls the page (one column under 800 px).
      scrollbar: { alwaysConsumeMouseWheel: false },
    };
    const editor = monaco.editor.create(this.scriptHost, {
      ...common, language: 't2m', wordWrap: 'on', 'semanticHighlighting.enabled': true, fixedOverflowWidgets: true,
      placeholder: 'Type a statement, e.g. ENCODE "call Ana" TYPE task; (Ctrl-Space completes, Ctrl/Cmd-Enter runs)',
    });
    const irEditor = monaco.editor.create(this.irHost, {
      ...common, tabSize: 2, wordWrap: 'on', model: monaco.editor.createModel('[]', 'json', monaco.Uri.parse(m.IR_MODEL_URI)),
    });
    this.sqlModel = monaco.editor.createModel(this.sqlText, 'sql');
    monaco.editor.create(this.sqlHost, { ...common, model: this.sqlModel, readOnly: true, wordWrap: 'on' });
    this.stepDecorations = editor.createDecorationsCollection();
    editor.addAction({
      id: 't2m.run', label: 'Run script', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
      run: () => events.run(),
    });
    editor.addAction({
      id: 't2m.runPart', label: 'Run selection / statement at cursor', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyMod.Shift | monaco.KeyCode.Enter],
      contextMenuGroupId: 'navigation', contextMenuOrder: 0,
      run: () => events.runPart(),
    });
    // Monaco binds its own Format Document to Ctrl-Shift-I on Linux; the documented Shift-Alt-F works everywhere.
    editor.addAction({
      id: 't2m.format', label: 'Format script', keybindings: [monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyF],
      run: () => events.format(),
    });
    for (const e of [editor, irEditor]) {
      e.addAction({ id: 't2m.shortcuts', label: 'Keyboard shortcuts', keybindings: [monaco.KeyCode.F1], run: () => events.shortcuts() });
    }
    this.escapeThenTab(editor, m);
    this.tabHint(editor);
    editor.onDidChangeModelContent(() => events.scriptChanged());
    irEditor.onDidChangeModelContent(() => {
      if (!this.syncing) events.irEdited();
    });
    this.m = m;
    this.editor = editor;
    this.irEditor = irEditor;
    m.setStoreVocabulary(this.vocabulary);
    m.setLastDiagnostics(this.lastDiagnostics);
  }

  /**
   * Esc, then Tab (or Shift-Tab), moves the focus out of the script editor to the next (previous)
   * control, as in tab-focus mode (Ctrl-M), for one key press; any other key in between cancels.
   */
  private escapeThenTab(editor: monaco.editor.IStandaloneCodeEditor, m: EditorModule): void {
    let escaped = false;
    editor.onKeyDown((e) => {
      if (MODIFIER_KEYS.has(e.browserEvent.key)) return;
      if (e.keyCode === m.monaco.KeyCode.Escape) {
        escaped = true;
        return;
      }
      if (escaped && e.keyCode === m.monaco.KeyCode.Tab && !e.ctrlKey && !e.altKey && !e.metaKey) {
        e.preventDefault();
        e.stopPropagation();
        focusNext(this.scriptHost, e.shiftKey);
      }
      escaped = false;
    });
  }

  /**
   * Tab indents inside the editor, so a keyboard user who tabs into it hears and sees how to leave:
   * a hint under the editor while it has the focus it got from Tab.
   */
  private tabHint(editor: monaco.editor.IStandaloneCodeEditor): void {
    let tabbedAt = 0;
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Tab') tabbedAt = performance.now();
    }, true);
    editor.onDidFocusEditorText(() => {
      if (performance.now() - tabbedAt > 500) return;
      this.tabHintEl.hidden = false;
    });
    editor.onDidBlurEditorText(() => { this.tabHintEl.hidden = true; });
    editor.onDidChangeModelContent(() => { this.tabHintEl.hidden = true; });
  }

  /** The hint shown when Tab brings the focus into the script editor. */
  readonly tabHintEl = h('div', { class: 'tab-hint', role: 'status', 'data-testid': 'tab-hint', hidden: true },
    'Tab indents in the editor: press Esc, then Tab (or Shift-Tab) to move on; Ctrl-M makes Tab always leave.');

  /** Focuses the script editor (a new script is typed into at once). */
  focus(): void {
    void this.ready.then(() => this.editor?.focus());
  }

  /** Switches the editors' colours (the page's theme changed). */
  setTheme(theme: 'light' | 'dark'): void {
    this.theme = theme;
    this.m?.monaco.editor.setTheme(`t2m-${theme}`);
  }

  /** The editors, for the test API: calling an editor function before they load is a test bug. */
  loaded(): LoadedEditors {
    if (!this.m || !this.editor || !this.irEditor || !this.sqlModel) throw new Error('the editor has not loaded yet: await window.t2m.loaded first');
    return { m: this.m, editor: this.editor, irEditor: this.irEditor, sqlModel: this.sqlModel };
  }

  // ---- the script editor ---------------------------------------------------------------------

  /** The script editor's text; undefined until it exists. */
  scriptText(): string | undefined {
    return this.editor?.getValue();
  }

  /** Shows a script in the editor; before the editor exists, the page does it once it does. */
  setScriptText(text: string): void {
    this.editor?.setValue(text);
  }

  /** Replaces the script as an edit (undoable), as the IR pane does. */
  editScript(text: string, source: string): void {
    if (!this.editor) return;
    const model = this.editor.getModel()!;
    this.editor.pushUndoStop();
    this.editor.executeEdits(source, [{ range: model.getFullModelRange(), text }]);
    this.editor.pushUndoStop();
  }

  /**
   * Appends `block` at the end of the script as an edit (undoable with Ctrl/Cmd-Z), after a blank
   * line when the script is not empty, selects it and brings it into view; waits for the editor.
   */
  async appendBlock(block: string, source: string): Promise<void> {
    await this.ready;
    const editor = this.editor!;
    const model = editor.getModel()!;
    const text = model.getValue();
    const sep = !text.trim() ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    const end = model.getFullModelRange().getEndPosition();
    const insert = `${sep}${block.replace(/\n*$/, '\n')}`;
    const range = { startLineNumber: end.lineNumber, startColumn: end.column, endLineNumber: end.lineNumber, endColumn: end.column };
    // Replacing an empty script replaces it all (so a lone blank line does not stay above the draft).
    editor.executeEdits(source, [{ range: text.trim() ? range : model.getFullModelRange(), text: text.trim() ? insert : insert.trimStart() }]);
    editor.pushUndoStop();
    const last = model.getLineCount();
    const first = last - insert.replace(/^\n+/, '').split('\n').length + 1;
    editor.setSelection({ startLineNumber: Math.max(1, first), startColumn: 1, endLineNumber: last, endColumn: 1 });
    editor.revealLinesInCenter(Math.max(1, first), last);
    editor.focus();
  }

  /** Sets the script's markers of one owner; before the editor exists they are kept and set when it does. */
  setMarkers(owner: string, diagnostics: Diagnostic[]): void {
    this.markerSets.set(owner, diagnostics);
    const model = this.editor?.getModel();
    if (this.m && model) this.m.monaco.editor.setModelMarkers(model, owner, this.m.toMarkers(diagnostics));
  }

  /** Sets every kept marker set again (after `setScriptText`, which displaces them). */
  restoreMarkers(): void {
    for (const [owner, diagnostics] of this.markerSets) this.setMarkers(owner, diagnostics);
  }

  /** Selects a range and brings it into view, for a click on a problem. */
  reveal(range: Range): void {
    if (!this.editor) return;
    this.editor.setSelection(toIRange(range));
    this.editor.revealLineInCenter(range.start.line);
    this.editor.focus();
  }

  /** The selection as offsets into the script (start = end: the cursor); undefined before the editor exists. */
  selectionOffsets(): { start: number; end: number } | undefined {
    const model = this.editor?.getModel();
    const selection = this.editor?.getSelection();
    if (!model || !selection) return undefined;
    return { start: model.getOffsetAt(selection.getStartPosition()), end: model.getOffsetAt(selection.getEndPosition()) };
  }

  /** Marks the timeline's statement in the script; `undefined` clears the mark. */
  highlight(range: Range | undefined): void {
    if (range) this.stepDecorations?.set([{ range: toIRange(range), options: { isWholeLine: true, className: 'stmt-highlight' } }]);
    else this.stepDecorations?.clear();
  }

  /**
   * Formats the script with the project printer (as one undoable edit); a script with syntax errors
   * is left as it is. A click while the editor loads formats once it is there.
   */
  async format(): Promise<FormatOutcome> {
    await this.ready;
    const text = this.editor!.getValue();
    const result = this.m!.format(text);
    if (result.text === undefined) return { errors: Math.max(1, result.diagnostics.filter((d) => d.severity === 'error').length) };
    if (result.text === text) return { changed: false };
    await this.editor!.getAction('editor.action.formatDocument')?.run();
    return { changed: true };
  }

  /** Diagnostics of the last analysis and run, for the quick fixes. */
  setLastDiagnostics(diagnostics: Diagnostic[]): void {
    this.lastDiagnostics = diagnostics;
    this.m?.setLastDiagnostics(diagnostics);
  }

  /** Tags, types and subjects in the store, for completion. */
  setVocabulary(vocabulary: StoreVocabulary): void {
    this.vocabulary = vocabulary;
    this.m?.setStoreVocabulary(vocabulary);
  }

  // ---- the IR and SQL editors ----------------------------------------------------------------

  /** Whether the IR editor exists (the IR pane does nothing before). */
  hasIrEditor(): boolean {
    return this.irEditor !== undefined;
  }

  irText(): string | undefined {
    return this.irEditor?.getValue();
  }

  irFocused(): boolean {
    return this.irEditor?.hasTextFocus() ?? false;
  }

  /** Rewrites the IR editor without reporting it as an edit. */
  setIrText(text: string): void {
    if (!this.irEditor) return;
    this.syncing = true;
    this.irEditor.setValue(text);
    this.syncing = false;
  }

  setSqlText(text: string): void {
    this.sqlText = text;
    this.sqlModel?.setValue(text);
  }
}
