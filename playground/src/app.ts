/**
 * The playground page: a DSL editor, a Run button and side panes (results, timeline, IR, SQL,
 * memory table, docs) kept in sync with the editor. Language smarts come from `src/services`
 * through `language.ts`; execution from the engine through `pipeline.ts`.
 *
 * Monaco is not part of this module's imports: `main.ts` starts `import('./editor.js')` at once,
 * the page shell (header, panes, memory table, status) renders while that chunk downloads, and the
 * editors are created when it arrives. Until then the scripts array is the text of record.
 */
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { StoreVocabulary } from '../../src/services/completion.js';
import { diffRows, type Row, type RowDiff } from '../../src/services/timeline.js';
import { clear, download, h, pickFile } from './dom.js';
import { EXAMPLES } from './examples.js';
import { AnalysisClient } from './analysis-client.js';
import type { EditorModule } from './editor.js';
import type { monaco } from './monaco.js';
import { workerErrors } from './worker-errors.js';
import { KEYS, loadValue, saveValue, type SavedScript, type Workspace } from './persist.js';
import { analyze, irsToDsl, openStore, primeAnalysis, type PlaygroundStore } from './pipeline.js';
import { decodeShareHash, encodeShareHash } from './share.js';
import { sqlListing } from './sql-listing.js';
import diagramsUrl from './diagrams.js';

/** One executed statement as the page shows it and `window.t2m.state()` reports it. */
export interface StatementView {
  readonly statement: number;
  readonly op: string;
  readonly source: string;
  readonly ok: boolean;
  readonly affectedIds: readonly string[];
  readonly rows: readonly Row[];
  readonly warnings: readonly string[];
  readonly errors: readonly Diagnostic[];
  readonly summary?: string;
  readonly sql: readonly { sql: string; params: readonly unknown[] }[];
  readonly before: readonly Row[];
  readonly after: readonly Row[];
  readonly diff: RowDiff;
}

export interface PageState {
  readonly script: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly results: readonly StatementView[];
  readonly memory: readonly Row[];
  readonly workerErrors: readonly string[];
  readonly ready: boolean;
  readonly committed: boolean;
}

const TABS = ['Results', 'Timeline', 'IR', 'SQL', 'Memory', 'Docs'] as const;
type Tab = (typeof TABS)[number];

/** A first visit opens the first example (the paper's B.1.1) in its own tab. */
const DEFAULT_WORKSPACE: SavedScript[] = EXAMPLES[0]
  ? [{ name: EXAMPLES[0].title, text: EXAMPLES[0].text, example: EXAMPLES[0].name }]
  : [{ name: 'script 1', text: '' }];
const MAX_LIVE_PLAN_STATEMENTS = 200;

export class App {
  /** The Monaco-dependent module and the editors made with it; all undefined until it has loaded. */
  private m?: EditorModule;
  private editor?: monaco.editor.IStandaloneCodeEditor;
  private irEditor?: monaco.editor.IStandaloneCodeEditor;
  private sqlModel?: monaco.editor.ITextModel;
  /** Resolves when the editors exist; commands that need an editor wait for it. */
  private editorReady: Promise<void> = new Promise(() => {});
  /** What the editor-side state will be set to once the editors exist (kept while they load). */
  private sqlText = '';
  private vocabulary: StoreVocabulary = { tags: [], types: [], subjects: [] };
  private readonly markerSets = new Map<string, Diagnostic[]>();
  private store!: PlaygroundStore;
  private readonly analysis = new AnalysisClient();
  private diagnostics: Diagnostic[] = [];
  private results: StatementView[] = [];
  private memory: Row[] = [];
  private scripts: SavedScript[] = [];
  private active = 0;
  private step = 0;
  private tab: Tab = 'Results';
  private ready = false;
  /** Whether the last run committed (false: a statement failed and everything was rolled back). */
  private committed = true;
  /** Set while the page itself rewrites an editor, so the change is not echoed back. */
  private syncing = false;
  private irDirty = false;
  private stepDecorations?: monaco.editor.IEditorDecorationsCollection;

  /** `editorModule`: the pending `import('./editor.js')`, started by the caller before anything else. */
  constructor(private readonly editorModule: Promise<EditorModule>) {}

  private readonly el = {
    status: h('span', { class: 'status', 'data-testid': 'status' }),
    problems: h('div', { class: 'problems', 'data-testid': 'problems' }),
    scripts: h('div', { class: 'scripts' }),
    tabs: h('div', { class: 'tabs' }),
    panes: new Map<Tab, HTMLElement>(),
    irNote: h('div', { class: 'pane-note' }),
    clock: h('input', {
      class: 'clock', type: 'text', size: 22, placeholder: 'clock: now', 'aria-label': 'Clock',
      title: 'The clock scripts run against (ISO-8601, e.g. 2025-10-01T00:00:00Z); empty = the real time',
    }),
  };

  /** The clock for a run: the clock field when it holds a valid time, else the real time. */
  private now(): Date {
    const text = this.el.clock.value.trim();
    const t = text ? new Date(text) : new Date();
    return Number.isNaN(t.getTime()) ? new Date() : t;
  }

  /**
   * Renders the page shell and restores the work while the editor chunk downloads; resolves once
   * the editors exist and hold the active script (so `window.t2m.loaded` means a usable page).
   */
  async mount(root: HTMLElement): Promise<void> {
    const loading = () => h('div', { class: 'editor-loading', 'data-testid': 'editor-loading' }, 'loading editor…');
    const editorHost = h('div', { id: 'editor' }, loading());
    const irHost = h('div', { style: 'min-height:0' }, loading());
    const sqlHost = h('div', { style: 'min-height:0' }, loading());
    const examples = h('select', { 'aria-label': 'Examples', onchange: (e: Event) => this.loadExample(e) },
      h('option', { value: '' }, 'Examples…'),
      ...[...new Set(EXAMPLES.map((ex) => ex.group))].map((group) => h('optgroup', { label: group },
        ...EXAMPLES.map((ex, i) => (ex.group === group ? h('option', { value: String(i) }, ex.title) : null)))));
    // The file actions share one menu so the header (with the clock) fits one row at 1440 px.
    const fileMenu = h('details', { class: 'menu', 'data-testid': 'file-menu' },
      h('summary', { title: 'Save, open, export or import' }, 'File ▾'),
      h('div', { class: 'menu-items', role: 'menu' },
        h('button', { role: 'menuitem', title: 'Open a .t2m or IR .json file', onclick: () => void this.importScript() }, 'Open…'),
        h('button', { role: 'menuitem', title: 'Download the script as DSL', onclick: () => this.exportScript('dsl') }, 'Save .t2m'),
        h('button', { role: 'menuitem', title: 'Download the script as IR JSON', onclick: () => this.exportScript('json') }, 'Save .json'),
        h('button', { role: 'menuitem', title: 'Download the store as a .sqlite file', onclick: () => this.exportStore() }, 'Export store'),
        h('button', { role: 'menuitem', title: 'Load a .sqlite store', onclick: () => void this.importStore() }, 'Import store')));
    // A chosen item, a click elsewhere or Escape closes the menu.
    fileMenu.querySelector('.menu-items')!.addEventListener('click', () => { fileMenu.open = false; });
    document.addEventListener('click', (e) => { if (!fileMenu.contains(e.target as Node)) fileMenu.open = false; });
    fileMenu.addEventListener('keydown', (e) => { if (e.key === 'Escape') fileMenu.open = false; });
    const header = h('header', {},
      h('h1', {}, 'Text2Mem playground'),
      examples,
      h('button', { class: 'primary', title: 'Run the script (Ctrl/Cmd-Enter)', 'data-testid': 'run', onclick: () => void this.run() }, '▶ Run'),
      h('button', { title: 'Format with the project printer', 'data-testid': 'format', onclick: () => this.format() }, 'Format'),
      h('button', { title: 'Copy a link with the script in it', onclick: () => void this.share() }, 'Share'),
      fileMenu,
      h('button', { title: 'Empty the memory store', onclick: () => void this.resetStore() }, 'Reset store'),
      this.el.clock,
      h('span', { class: 'spacer' }),
      this.el.status);
    for (const tab of TABS) {
      const pane = h('section', { class: 'pane', 'data-pane': tab });
      this.el.panes.set(tab, pane);
      this.el.tabs.append(h('button', { 'data-tab': tab, onclick: () => this.showTab(tab) }, tab));
    }
    const irPane = this.el.panes.get('IR')!;
    irPane.classList.add('editor-pane');
    irPane.append(this.el.irNote, irHost);
    const sqlPane = this.el.panes.get('SQL')!;
    sqlPane.classList.add('editor-pane');
    sqlPane.append(h('div', { class: 'pane-note' }, 'SQL of the last run; values are bound parameters (shown after each statement).'), sqlHost);
    const docsFrame = h('iframe', { class: 'docs', src: diagramsUrl, title: 'Railroad diagrams of the grammar' });
    this.el.panes.get('Docs')!.append(docsFrame);
    clear(root, header, h('main', {},
      h('div', { class: 'left' }, this.el.scripts, editorHost, this.el.problems),
      h('div', { class: 'right' }, this.el.tabs, ...this.el.panes.values())));

    this.analysis.onResult = (result) => {
      primeAnalysis(result.text, result);
      this.onAnalysis(result.version, result.diagnostics);
    };
    new ResizeObserver(() => this.revealActiveTab()).observe(this.el.scripts);
    // The editor chunk is already downloading (main.ts started the import); the store and scripts load meanwhile.
    this.editorReady = this.editorModule.then((m) => this.createEditors(m, { editorHost, irHost, sqlHost, docsFrame }));
    // Without a handler here, a failed chunk load would be reported as unhandled before `mount` awaits it.
    this.editorReady.catch(() => undefined);
    await this.restore();
    this.showTab(this.tab);
    try {
      await this.editorReady;
    } catch (e) {
      this.setStatus(`the editor could not be loaded: ${(e as Error).message}`);
      throw e;
    }
    this.setEditorText(this.scripts[this.active].text);
    // Markers of a run made while the editor loaded (set after the text, which would displace them).
    for (const [owner, diagnostics] of this.markerSets) this.setMarkers(owner, diagnostics);
    this.ready = true;
    if (!this.el.status.textContent) this.setStatus('ready');
  }

  /** Creates the three editors in place of their "loading editor…" placeholders and hands them the state kept meanwhile. */
  private createEditors(m: EditorModule, hosts: { editorHost: HTMLElement; irHost: HTMLElement; sqlHost: HTMLElement; docsFrame: HTMLIFrameElement }): void {
    const { monaco } = m;
    m.registerT2mLanguage();
    // Hover links to a rule's diagram open it in the Docs panel rather than a new tab.
    monaco.editor.registerLinkOpener({
      open: (uri) => {
        const target = uri.toString(true);
        if (!target.startsWith(diagramsUrl)) return false;
        hosts.docsFrame.src = target;
        this.showTab('Docs');
        return true;
      },
    });
    for (const host of [hosts.editorHost, hosts.irHost, hosts.sqlHost]) host.replaceChildren();
    const common: monaco.editor.IStandaloneEditorConstructionOptions = {
      theme: 't2m-dark', automaticLayout: true, minimap: { enabled: false }, fontSize: 13, scrollBeyondLastLine: false,
    };
    const editor = monaco.editor.create(hosts.editorHost, {
      ...common, language: 't2m', wordWrap: 'on', 'semanticHighlighting.enabled': true, fixedOverflowWidgets: true,
    });
    const irEditor = monaco.editor.create(hosts.irHost, {
      ...common, tabSize: 2, model: monaco.editor.createModel('[]', 'json', monaco.Uri.parse(m.IR_MODEL_URI)),
    });
    this.sqlModel = monaco.editor.createModel(this.sqlText, 'sql');
    monaco.editor.create(hosts.sqlHost, { ...common, model: this.sqlModel, readOnly: true, wordWrap: 'on' });
    this.stepDecorations = editor.createDecorationsCollection();

    editor.addAction({
      id: 't2m.run', label: 'Run script', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
      run: () => void this.run(),
    });
    editor.onDidChangeModelContent(() => this.onScriptChanged());
    irEditor.onDidChangeModelContent(() => {
      if (this.syncing) return;
      this.irDirty = true;
      this.debounce('ir', 400, () => this.onIrEdited());
    });
    this.m = m;
    this.editor = editor;
    this.irEditor = irEditor;
    m.setStoreVocabulary(this.vocabulary);
    m.setLastDiagnostics([...this.diagnostics, ...this.results.flatMap((r) => r.errors)]);
  }

  /** Sets the editor's markers of one owner; before the editor exists they are kept and set when it does. */
  private setMarkers(owner: string, diagnostics: Diagnostic[]): void {
    this.markerSets.set(owner, diagnostics);
    const model = this.editor?.getModel();
    if (this.m && model) this.m.monaco.editor.setModelMarkers(model, owner, this.m.toMarkers(diagnostics));
  }

  /** The active script's text: the editor's once it exists, else the saved one it will show. */
  private scriptText(): string {
    return this.editor?.getValue() ?? this.scripts[this.active]?.text ?? '';
  }

  // ---- scripts and persistence -------------------------------------------------------------

  private async restore(): Promise<void> {
    const saved = await loadValue<Workspace>(KEYS.workspace).catch(() => undefined);
    this.scripts = saved?.scripts.length ? [...saved.scripts] : [...DEFAULT_WORKSPACE];
    this.active = Math.min(saved?.active ?? 0, this.scripts.length - 1);
    const shared = await decodeShareHash(location.hash);
    if (shared !== undefined) {
      this.scripts.push({ name: `shared ${this.scripts.length + 1}`, text: shared });
      this.active = this.scripts.length - 1;
      history.replaceState(null, '', location.pathname + location.search);
    }
    const bytes = await loadValue<Uint8Array>(KEYS.store).catch(() => undefined);
    try {
      this.store = await openStore(bytes);
    } catch (e) {
      // A saved store that no longer opens must not lock the user out of the page.
      this.store = await openStore();
      this.setStatus(`the saved store could not be opened (${(e as Error).message}); started with an empty one`);
    }
    this.refreshMemory();
    this.renderScriptTabs();
  }

  private persistScripts(): void {
    this.debounce('save', 300, () => {
      saveValue(KEYS.workspace, { scripts: this.scripts, active: this.active } satisfies Workspace)
        .catch((e: unknown) => this.setStatus(`scripts not saved: ${(e as Error).message}`));
    });
  }

  private async persistStore(): Promise<void> {
    await saveValue(KEYS.store, this.store.exportBytes())
      .catch((e: unknown) => this.setStatus(`store not saved: ${(e as Error).message}`));
  }

  private renderScriptTabs(): void {
    const tabs = h('div', { class: 'script-tabs', 'data-testid': 'script-tabs' },
      ...this.scripts.map((s, i) => h('button', {
        class: i === this.active ? 'active' : undefined, title: `${s.name} (double-click to rename)`,
        onclick: () => this.switchScript(i),
        ondblclick: () => {
          const name = prompt('Script name', s.name);
          if (name) { this.scripts[i] = { ...s, name }; this.renderScriptTabs(); this.persistScripts(); }
        },
      }, s.name)));
    clear(this.el.scripts, tabs,
      h('button', { title: 'New script', 'data-testid': 'new-script', onclick: () => this.newScript('') }, '+'),
      this.scripts.length > 1 ? h('button', { title: 'Close this script', 'data-testid': 'close-script', onclick: () => this.closeScript() }, '×') : null);
    this.revealActiveTab();
  }

  /** The strip scrolls sideways; keeps the active tab in view (after a switch, or when the window narrows). */
  private revealActiveTab(): void {
    (this.el.scripts.querySelector('.script-tabs')?.children[this.active] as HTMLElement | undefined)
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  private switchScript(i: number): void {
    this.active = i;
    this.renderScriptTabs();
    this.setEditorText(this.scripts[i].text);
    this.persistScripts();
  }

  private newScript(text: string, name = `script ${this.scripts.length + 1}`, example?: string): void {
    this.scripts.push({ name, text, example });
    this.switchScript(this.scripts.length - 1);
  }

  private closeScript(): void {
    this.scripts.splice(this.active, 1);
    this.switchScript(Math.max(0, this.active - 1));
  }

  /**
   * Opens an example: in the tab it is already open in (edits kept), else in the current tab
   * when that is an empty script, else in a new tab.
   */
  private loadExample(event: Event): void {
    const select = event.target as HTMLSelectElement;
    const example = EXAMPLES[Number(select.value)];
    select.value = '';
    if (!example) return;
    const open = this.scripts.findIndex((s) => s.example === example.name
      // Workspaces saved before tabs remembered their example.
      || (s.example === undefined && s.name === example.title && s.text === example.text));
    if (open >= 0) {
      this.switchScript(open);
      this.setStatus(this.scripts[open].text === example.text
        ? `"${example.title}" is already open`
        : `"${example.title}" is already open, with your edits; close its tab and pick it again for a fresh copy`);
      return;
    }
    const current = this.scripts[this.active];
    if (current && current.example === undefined && current.text.trim() === '') {
      this.scripts[this.active] = { name: example.title, text: example.text, example: example.name };
      this.switchScript(this.active);
      return;
    }
    this.newScript(example.text, example.title, example.name);
  }

  /** Shows a script in the editor; before the editor exists, `mount` does it once it does. */
  private setEditorText(text: string): void {
    this.editor?.setValue(text);
  }

  private onScriptChanged(): void {
    const text = this.scriptText();
    this.scripts[this.active] = { ...this.scripts[this.active], text };
    this.persistScripts();
    this.stepDecorations?.clear();
    this.analysis.request(text);
  }

  // ---- live diagnostics and the IR pane ----------------------------------------------------

  private onAnalysis(version: number, diagnostics: Diagnostic[]): void {
    if (version !== this.analysis.latest) return;
    this.diagnostics = diagnostics;
    this.setMarkers('t2m', diagnostics);
    this.renderProblems();
    if (!this.irDirty || !this.irEditor?.hasTextFocus()) this.syncIrPane();
    this.debounce('explain', 300, () => this.explainCurrent());
  }

  private syncIrPane(): void {
    if (!this.irEditor) return;
    const { irs, diagnostics } = analyze(this.scriptText());
    if (irs.length === 0 && diagnostics.some((d) => d.severity === 'error')) {
      this.el.irNote.textContent = 'Fix the errors in the script to see its IR.';
      return;
    }
    this.syncing = true;
    this.irEditor.setValue(JSON.stringify(irs, null, 2));
    this.syncing = false;
    this.irDirty = false;
    this.el.irNote.className = 'pane-note';
    this.el.irNote.textContent = 'The script as JSON IR, one instruction per statement. Edit it: the DSL follows.';
  }

  private onIrEdited(): void {
    if (!this.editor || !this.irEditor) return;
    let json: unknown;
    try {
      json = JSON.parse(this.irEditor.getValue());
    } catch (e) {
      this.el.irNote.className = 'pane-note error';
      this.el.irNote.textContent = `Not valid JSON: ${(e as Error).message}`;
      return;
    }
    const result = irsToDsl(Array.isArray(json) ? json : [json]);
    if (result.text === undefined) {
      this.el.irNote.className = 'pane-note error';
      this.el.irNote.textContent = result.diagnostics.map((d) => `${d.statement !== undefined ? `#${d.statement + 1} ` : ''}${d.path ? `${d.path}: ` : ''}${d.message}`).join('\n');
      return;
    }
    this.el.irNote.className = 'pane-note';
    this.el.irNote.textContent = 'IR converted back to DSL.';
    const model = this.editor.getModel()!;
    this.editor.executeEdits('ir-pane', [{ range: model.getFullModelRange(), text: result.text }]);
    this.irDirty = false;
  }

  private renderProblems(): void {
    const all = [...this.diagnostics, ...this.results.flatMap((r) => r.errors)];
    this.m?.setLastDiagnostics(all);
    if (all.length === 0) {
      clear(this.el.problems, h('div', { class: 'ok' }, 'No problems.'));
      return;
    }
    clear(this.el.problems, ...all.map((d) => h('div', {
      class: d.severity, 'data-code': d.code,
      onclick: () => {
        if (!d.range || !this.editor) return;
        this.editor.setSelection({ startLineNumber: d.range.start.line, startColumn: d.range.start.column, endLineNumber: d.range.end.line, endColumn: d.range.end.column });
        this.editor.revealLineInCenter(d.range.start.line);
        this.editor.focus();
      },
    }, `${d.range ? `${d.range.start.line}:${d.range.start.column} ` : ''}${d.severity} ${d.code}: ${d.message}`)));
  }

  // ---- running -----------------------------------------------------------------------------

  /** Runs the whole script one statement at a time, snapshotting `memory` around each one. */
  async run(): Promise<void> {
    const text = this.scriptText();
    const { irs, sourceMaps, diagnostics } = analyze(text);
    this.diagnostics = diagnostics;
    this.setMarkers('t2m', diagnostics);
    if (diagnostics.some((d) => d.severity === 'error')) {
      this.results = [];
      this.setMarkers('t2m-runtime', []);
      this.renderProblems();
      this.setStatus('not run: the script has errors');
      return;
    }
    this.setStatus('running…');
    const started = performance.now();
    const outcome = this.store.runScript(irs, sourceMaps, this.now());
    const results: StatementView[] = outcome.statements.map(({ run, before, after }, i) => {
      const span = sourceMaps[i]?.get('');
      return {
        statement: i,
        op: irs[i].op,
        source: span ? text.slice(span.start.offset, span.end.offset) : '',
        ok: run.errors.length === 0,
        affectedIds: run.affectedIds,
        rows: run.rows,
        warnings: run.warnings,
        errors: run.errors,
        summary: run.summary,
        sql: run.sql,
        before,
        after,
        diff: diffRows(before, after),
      };
    });
    this.committed = outcome.committed;
    this.results = results;
    this.refreshMemory();
    await this.persistStore();
    const runtime = results.flatMap((r) => r.errors);
    this.setMarkers('t2m-runtime', runtime);
    this.renderProblems();
    this.renderResults();
    this.renderSql();
    this.step = 0;
    this.renderTimeline();
    const ms = Math.round(performance.now() - started);
    this.setStatus(outcome.committed
      ? `ran ${results.length} statement${results.length === 1 ? '' : 's'} in ${ms} ms`
      : `statement ${results.length} (${results[results.length - 1]?.op}) refused: rolled back, memory unchanged`);
  }

  private refreshMemory(): void {
    this.memory = this.store.memoryRows();
    this.vocabulary = this.store.vocabulary();
    this.m?.setStoreVocabulary(this.vocabulary);
    this.renderMemory();
  }

  private renderResults(): void {
    const pane = this.el.panes.get('Results')!;
    if (this.results.length === 0) {
      clear(pane, h('div', { class: 'pane-note' }, 'Press Run (Ctrl/Cmd-Enter) to execute the script against the in-browser store.'));
      return;
    }
    const failed = this.results.find((r) => !r.ok);
    const note = this.committed ? null
      : h('div', { class: 'pane-note error', 'data-testid': 'rollback-note' },
        failed
          ? `Statement ${failed.statement + 1} (${failed.op}) was refused: ${failed.errors.map((e) => e.message).join('; ')}. A run is one transaction, so nothing was committed: memory is as it was before the run. The statements before it show what they would have done.`
          : 'A statement failed, so the script was rolled back: memory is as it was before the run.');
    clear(pane, note, ...this.results.map((r) => {
      const body = h('div', { class: 'body' },
        r.affectedIds.length ? h('div', {}, 'affected ids: ', h('span', { class: 'mono' }, r.affectedIds.join(', '))) : null,
        ...r.warnings.map((w) => h('div', { class: 'warn' }, `⚠ ${w}`)),
        ...r.errors.map((e) => h('div', { class: 'err' }, `✖ ${e.code}: ${e.message}`)),
        r.summary ? h('div', { class: 'summary' }, h('b', {}, 'Summary: '), r.summary) : null,
        r.rows.length ? rowsTable(r.rows) : null);
      return h('div', { class: `result${r.ok ? '' : ' error'}`, 'data-statement': String(r.statement) },
        h('div', { class: 'head', onclick: () => { this.step = r.statement; this.showTab('Timeline'); } },
          h('span', { class: 'op' }, `${r.statement + 1}. ${r.op}`),
          diffBadges(r.diff),
          r.rows.length ? h('span', { class: 'badge' }, `${r.rows.length} row${r.rows.length === 1 ? '' : 's'}`) : null),
        body);
    }));
  }

  /** The SQL of the last run, with its parameters. */
  private renderSql(): void {
    this.setSqlText(sqlListing('executed by the last run', this.results.map((r) => ({ op: r.op, sql: r.sql }))));
  }

  private setSqlText(text: string): void {
    this.sqlText = text;
    this.sqlModel?.setValue(text);
  }

  /**
   * Keeps the SQL pane in step with the editor: the plan of the current script against the
   * current store (the engine's `explain`, which runs and rolls back), until the next run.
   */
  private explainCurrent(): void {
    const { irs, sourceMaps, diagnostics } = analyze(this.scriptText());
    if (diagnostics.some((d) => d.severity === 'error') || irs.length === 0) return;
    // A plan runs the script (then rolls back) on the main thread; beyond this size, wait for Run.
    if (irs.length > MAX_LIVE_PLAN_STATEMENTS) return;
    const { plans, errors } = this.store.explain(irs, sourceMaps, this.now());
    const header = errors.length ? `plan (not run): statement ${(errors[0].statement ?? 0) + 1} would fail: ${errors[0].message}` : 'plan of the script (not run yet)';
    this.setSqlText(sqlListing(header, plans.map((sql, i) => ({ op: irs[i].op, sql }))));
  }

  private renderMemory(): void {
    const pane = this.el.panes.get('Memory')!;
    clear(pane,
      h('div', { class: 'pane-note' }, `The memory table: ${this.memory.length} row${this.memory.length === 1 ? '' : 's'}.`),
      this.memory.length ? rowsTable(this.memory) : null);
  }

  /** The timeline: memory after the selected statement, with what that statement changed marked. */
  private renderTimeline(): void {
    const pane = this.el.panes.get('Timeline')!;
    if (this.results.length === 0) {
      this.stepDecorations?.clear();
      clear(pane, h('div', { class: 'pane-note' }, 'Run the script to step through what each statement did to memory.'));
      return;
    }
    this.step = Math.max(0, Math.min(this.step, this.results.length - 1));
    const r = this.results[this.step];
    const steps = h('div', { class: 'timeline-steps' },
      h('button', { title: 'Previous statement', disabled: this.step === 0, onclick: () => this.goStep(this.step - 1) }, '◀'),
      ...this.results.map((s) => h('button', {
        class: s.statement === this.step ? 'active' : undefined, 'data-step': String(s.statement),
        title: s.source, onclick: () => this.goStep(s.statement),
      }, `${s.statement + 1}. ${s.op}${s.ok ? '' : ' ✖'}`)),
      h('button', { title: 'Next statement', disabled: this.step === this.results.length - 1, onclick: () => this.goStep(this.step + 1) }, '▶'));
    clear(pane, steps,
      h('div', { class: 'timeline-statement' }, r.source),
      h('div', {}, diffBadges(r.diff), r.errors.length ? h('span', { class: 'err' }, ` ✖ ${r.errors.map((e) => e.message).join('; ')}`) : null),
      changeList(r.diff),
      diffTable(r));
    const span = this.analysisSpan(this.step);
    if (span) this.stepDecorations?.set([{ range: span, options: { isWholeLine: true, className: 'stmt-highlight' } }]);
  }

  private analysisSpan(statement: number): monaco.IRange | undefined {
    const { sourceMaps } = analyze(this.scriptText());
    const span = sourceMaps[statement]?.get('');
    return span && { startLineNumber: span.start.line, startColumn: span.start.column, endLineNumber: span.end.line, endColumn: span.end.column };
  }

  private goStep(step: number): void {
    this.step = step;
    this.renderTimeline();
  }

  // ---- commands ----------------------------------------------------------------------------

  private format(): void {
    // A click while the editor loads formats once it is there.
    void this.editorReady.then(() => this.editor?.getAction('editor.action.formatDocument')?.run());
  }

  private async share(): Promise<void> {
    const hash = await encodeShareHash(this.scriptText());
    const url = location.href.replace(/#.*$/, '') + hash;
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    history.replaceState(null, '', hash);
    this.setStatus('share link copied to the clipboard (and in the address bar)');
  }

  private exportStore(): void {
    download('text2mem-store.sqlite', this.store.exportBytes() as BlobPart, 'application/vnd.sqlite3');
  }

  private async importStore(): Promise<void> {
    const file = await pickFile('.sqlite,.db,application/vnd.sqlite3');
    if (!file) return;
    try {
      const next = await openStore(new Uint8Array(await file.arrayBuffer()));
      this.store.close();
      this.store = next;
    } catch (e) {
      this.setStatus(`could not open ${file.name}: ${(e as Error).message}`);
      return;
    }
    this.results = [];
    this.refreshMemory();
    await this.persistStore();
    this.renderResults();
    this.renderTimeline();
    this.setStatus(`store loaded from ${file.name}`);
  }

  private exportScript(as: 'dsl' | 'json'): void {
    const name = this.scripts[this.active].name.replace(/[^\w.-]+/g, '_');
    if (as === 'dsl') {
      download(`${name}.t2m`, this.scriptText(), 'text/plain');
      return;
    }
    const { irs, diagnostics } = analyze(this.scriptText());
    if (diagnostics.some((d) => d.severity === 'error')) {
      this.setStatus('fix the errors before saving as IR JSON');
      return;
    }
    download(`${name}.json`, JSON.stringify(irs, null, 2), 'application/json');
  }

  private async importScript(): Promise<void> {
    const file = await pickFile('.t2m,.json,.jsonl,.txt');
    if (!file) return;
    const text = await file.text();
    if (/^\s*[[{]/.test(text)) {
      let json: unknown;
      try {
        json = text.trimStart().startsWith('[') ? JSON.parse(text) : text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
      } catch (e) {
        this.setStatus(`${file.name}: not valid JSON: ${(e as Error).message}`);
        return;
      }
      const result = irsToDsl(json as unknown[]);
      if (result.text === undefined) {
        this.setStatus(`${file.name}: ${result.diagnostics[0]?.message ?? 'not an IR'}`);
        return;
      }
      this.newScript(result.text, file.name.replace(/\.\w+$/, ''));
    } else {
      this.newScript(text, file.name.replace(/\.\w+$/, ''));
    }
  }

  private async resetStore(): Promise<void> {
    const next = await openStore();
    this.store.close();
    this.store = next;
    this.results = [];
    this.refreshMemory();
    await this.persistStore();
    this.renderResults();
    this.renderTimeline();
    this.renderSql();
    this.setStatus('store emptied');
  }

  // ---- plumbing ----------------------------------------------------------------------------

  private showTab(tab: Tab): void {
    this.tab = tab;
    for (const b of this.el.tabs.querySelectorAll('button')) b.classList.toggle('active', b.dataset.tab === tab);
    for (const [name, pane] of this.el.panes) pane.classList.toggle('active', name === tab);
    if (tab === 'Results') this.renderResults();
    if (tab === 'Timeline') this.renderTimeline();
  }

  private setStatus(text: string): void {
    this.el.status.textContent = text;
    this.el.status.title = text;
  }

  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private debounce(key: string, ms: number, fn: () => void): void {
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(fn, ms));
  }

  // ---- the test API ------------------------------------------------------------------------

  /** The editors, for the test API: calling an editor function before `loaded` resolves is a test bug. */
  private editors(): { m: EditorModule; editor: monaco.editor.IStandaloneCodeEditor; irEditor: monaco.editor.IStandaloneCodeEditor; sqlModel: monaco.editor.ITextModel } {
    if (!this.m || !this.editor || !this.irEditor || !this.sqlModel) throw new Error('the editor has not loaded yet: await window.t2m.loaded first');
    return { m: this.m, editor: this.editor, irEditor: this.irEditor, sqlModel: this.sqlModel };
  }

  testApi() {
    return {
      /** Replaces the script and puts the cursor at its end, in the focused editor. */
      setScript: (text: string) => {
        const { editor } = this.editors();
        editor.setValue(text);
        const end = editor.getModel()!.getPositionAt(text.length);
        editor.setPosition(end);
        editor.focus();
      },
      run: () => this.run(),
      shareUrl: async () => location.href.replace(/#.*$/, '') + await encodeShareHash(this.scriptText()),
      setClock: (iso: string) => { this.el.clock.value = iso; },
      /** Resolves after the editor has loaded and the worker has checked the current text. */
      settled: () => this.editorReady.then(() => this.analysis.settled()),
      state: (): PageState => JSON.parse(JSON.stringify({
        script: this.scriptText(),
        diagnostics: this.diagnostics,
        results: this.results.map(({ before: _b, after: _a, ...rest }) => rest),
        memory: this.memory,
        workerErrors,
        ready: this.ready,
        committed: this.committed,
      }, (_key, value) => (value instanceof Uint8Array ? `<${value.length} bytes>` : value))),
      markers: () => {
        const { m, editor } = this.editors();
        return m.monaco.editor.getModelMarkers({ resource: editor.getModel()!.uri })
          .map((mk) => ({ owner: mk.owner, severity: mk.severity, message: mk.message, line: mk.startLineNumber, column: mk.startColumn, endLine: mk.endLineNumber, endColumn: mk.endColumn }));
      },
      showTab: (tab: Tab) => this.showTab(tab),
      editorInstance: () => this.editors().editor,
      step: (n: number) => { this.showTab('Timeline'); this.goStep(n); },
      irText: () => this.editors().irEditor.getValue(),
      irMarkers: () => {
        const { m, irEditor } = this.editors();
        return m.monaco.editor.getModelMarkers({ resource: irEditor.getModel()!.uri }).map((mk) => ({ owner: mk.owner, message: mk.message, line: mk.startLineNumber }));
      },
      setIrText: (text: string) => { const { irEditor } = this.editors(); irEditor.focus(); irEditor.setValue(text); },
      sqlText: () => this.editors().sqlModel.getValue(),
    };
  }
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  return JSON.stringify(value);
}

/** Columns never shown in tables: bookkeeping and the (long) embedding vector. */
const HIDDEN_COLUMNS = new Set(['embedding', 'embedding_model']);

/** The columns worth showing: any that some row fills (a table of 30 mostly-null columns hides the data). */
function columnsOf(rows: readonly Row[]): string[] {
  const all = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const filled = (c: string) => rows.some((r) => r[c] !== null && r[c] !== undefined && r[c] !== '' && r[c] !== '[]' && r[c] !== '{}');
  return all.filter((c) => c === 'id' || (!HIDDEN_COLUMNS.has(c) && filled(c)));
}

function rowsTable(rows: readonly Row[]): HTMLTableElement {
  const columns = columnsOf(rows);
  return h('table', {},
    h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', {}, c)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...columns.map((c) => h('td', { title: cell(r[c]) }, cell(r[c])))))));
}

function diffBadges(diff: RowDiff): HTMLElement {
  return h('span', { class: 'diff-badges' },
    h('span', { class: 'badge added', 'data-added': String(diff.added.length) }, `+${diff.added.length}`), ' ',
    h('span', { class: 'badge removed', 'data-removed': String(diff.removed.length) }, `−${diff.removed.length}`), ' ',
    h('span', { class: 'badge changed', 'data-changed': String(diff.changed.length) }, `~${diff.changed.length}`));
}

/** Columns every write touches; listed in the table but not in the change summary. */
const BOOKKEEPING = new Set(['updated_at', 'created_at']);

/** One line per changed field: `#2 weight: ∅ → 0.9`. */
function changeList(diff: RowDiff): HTMLElement | null {
  const lines = [
    ...diff.added.map((row) => h('li', { class: 'added' }, `+ #${cell(row.id)} ${cell(row.text)}`)),
    ...diff.removed.map((row) => h('li', { class: 'removed' }, `− #${cell(row.id)} ${cell(row.text)}`)),
    ...diff.changed.flatMap((c) => c.fields.filter((f) => !BOOKKEEPING.has(f) && !HIDDEN_COLUMNS.has(f))
      .map((f) => h('li', { class: 'changed' }, `~ #${c.id} ${f}: ${cell(c.before[f])} → ${cell(c.after[f])}`))),
  ];
  return lines.length ? h('ul', { class: 'changes', 'data-testid': 'changes' }, ...lines) : h('div', { class: 'pane-note' }, 'No change to memory.');
}

/** Memory after the statement: added rows green, removed rows struck out, changed cells yellow. */
function diffTable(r: StatementView): HTMLElement {
  const rows = [...r.after, ...r.diff.removed];
  if (rows.length === 0) return h('div', { class: 'pane-note' }, 'Memory is empty.');
  // What changed comes first, so it is on screen without scrolling: id, changed columns, the rest.
  const changedColumns = [...new Set(r.diff.changed.flatMap((c) => c.fields))].filter((c) => !HIDDEN_COLUMNS.has(c) && !BOOKKEEPING.has(c));
  const columns = [...new Set(['id', ...changedColumns, ...columnsOf([...rows, ...r.before])])].filter((c) => !HIDDEN_COLUMNS.has(c));
  const added = new Set(r.diff.added.map((row) => String(row.id)));
  const removed = new Set(r.diff.removed.map((row) => String(row.id)));
  const changed = new Map(r.diff.changed.map((c) => [c.id, c]));
  return h('table', { 'data-testid': 'timeline-table' },
    h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', {}, c)))),
    h('tbody', {}, ...rows.map((row) => {
      const id = String(row.id);
      const change = changed.get(id);
      const kind = added.has(id) ? 'added' : removed.has(id) ? 'removed' : change ? 'changed' : undefined;
      return h('tr', { class: kind, 'data-row': id },
        ...columns.map((c) => {
          const isChanged = change?.fields.includes(c) ?? false;
          return h('td', {
            class: isChanged ? 'changed' : undefined,
            title: isChanged ? `was: ${cell(change!.before[c])}` : cell(row[c]),
          }, cell(row[c]));
        }));
    })));
}
