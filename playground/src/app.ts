/**
 * The playground page: a DSL editor, a Run button and side panes (results, timeline, IR, SQL,
 * memory table, docs) kept in sync with the editor. Language smarts come from `src/services`
 * through `language.ts`; execution from the engine through `pipeline.ts`.
 *
 * This module is the composition: it lays the page out, owns the state of the last analysis and
 * run, and wires the rooms together, each a module of its own:
 *   header.ts (header row, File menu) · status.ts (status line, clock) · ask.ts (the Ask box: a
 *   request → a planner draft appended to the script, never run; its planner run is ask-plan.ts,
 *   loaded on the first Ask) · scripts.ts (script tabs,
 *   saved workspace, share-link restore) · editor-host.ts (the three editors, lazily made) ·
 *   problems.ts · side-panes.ts (tab row, Docs) · results-pane.ts · timeline-pane.ts · ir-pane.ts ·
 *   sql-pane.ts · memory-pane.ts · tables.ts (row/diff tables) · store-session.ts (the store and
 *   its saving) · run.ts (a run → statement views) · files.ts (open/save/export/import/share) ·
 *   test-api.ts (`window.t2m`) · store-bar.ts (which store the script runs on, its rows, Reset) ·
 *   history.ts (each script's runs) · confirm.ts (questions before destructive actions) ·
 *   theme.ts · splitter.ts (the resizable divider) · shortcuts.ts · welcome.ts (lazy) · export.ts.
 *
 * Monaco is not part of the entry chunk: `main.ts` starts `import('./editor.js')` at once, the page
 * shell (header, panes, memory table, status) renders while that chunk downloads, and the editors
 * are created when it arrives (`editor-host.ts`, which imports Monaco only as types). Until then
 * the saved scripts are the text of record. Only `editor.ts` and what it imports may import Monaco.
 */
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { AnalysisClient } from './analysis-client.js';
import { AskPanel } from './ask.js';
import { confirmDialog, promptDialog } from './confirm.js';
import { clear, h } from './dom.js';
import type { EditorModule } from './editor.js';
import { EditorHost } from './editor-host.js';
import { exportStore, importStore, openScriptFile, saveScript, share, type FileContext } from './files.js';
import { renderHeader } from './header.js';
import { RunHistory, type RunRecord } from './history.js';
import { IrPane } from './ir-pane.js';
import { MemoryPane } from './memory-pane.js';
import { analyze, primeAnalysis } from './library.js';
import { renderProblems } from './problems.js';
import { renderResults } from './results-pane.js';
import { runScript, statementsAt, type StatementView } from './run.js';
import { ScriptTabs } from './scripts.js';
import { SidePanes, type Tab } from './side-panes.js';
import { Splitter } from './splitter.js';
import { SqlPane } from './sql-pane.js';
import { Clock, StatusLine } from './status.js';
import { StoreBar } from './store-bar.js';
import { bindingLabel, StoreSession, type StoreBinding } from './store-session.js';
import { testApi } from './test-api.js';
import { Themes } from './theme.js';
import { TimelinePane } from './timeline-pane.js';

/** The shortcut panel is a chunk of its own (with the welcome pane, which lists them too). */
const showShortcuts = (): void => void import('./shortcuts.js').then((m) => m.showShortcuts());

export type { StatementView } from './run.js';

/** "statement 2", "statements 2–3", "statements 1, 4" (1-based, as the page numbers them). */
function partLabel(only: readonly number[]): string {
  const n = only.map((i) => i + 1);
  if (n.length === 1) return `statement ${n[0]}`;
  const consecutive = n.every((v, k) => k === 0 || v === n[k - 1] + 1);
  return `statements ${consecutive ? `${n[0]}–${n[n.length - 1]}` : n.join(', ')}`;
}
export type { PageState } from './test-api.js';

export class App {
  private readonly status = new StatusLine();
  private readonly clock = new Clock();
  private readonly themes = new Themes();
  private readonly editors = new EditorHost();
  private readonly analysis = new AnalysisClient();
  private readonly history = new RunHistory();
  private readonly problems = h('div', { class: 'problems', 'data-testid': 'problems', role: 'list', 'aria-label': 'Problems' });
  private readonly panes = new SidePanes((tab) => this.onTabShown(tab), {
    tryExample: (name, script) => void this.tryExample(name, script),
    openDocs: (page) => void this.panes.openDocs(page),
  });
  private readonly scripts = new ScriptTabs({
    show: (text) => {
      this.editors.setScriptText(text);
      void this.onScriptSwitched();
    },
    closed: (id) => {
      this.history.forget(id);
      void this.session.forgetScript(id);
    },
    status: (text) => this.status.set(text),
    created: () => this.editors.focus(),
  });
  private readonly memoryPane: MemoryPane;
  private readonly session = new StoreSession({
    changed: (memory, vocabulary) => {
      this.editors.setVocabulary(vocabulary);
      this.memoryPane.show(memory);
      this.renderStoreBar();
    },
    status: (text, tone) => this.status.set(text, tone),
  });
  private readonly storeBar = new StoreBar({
    choose: (name) => void this.chooseStore(name),
    create: () => void this.createStore(),
    reset: () => void this.resetStore(),
  });
  private readonly ask = new AskPanel({
    store: () => { try { return this.session.store.engine; } catch { return undefined; } },
    now: () => this.clock.now() ?? new Date(),
    status: (text) => this.status.set(text),
    insert: (request, dsl) => this.editors.appendBlock(`# Ask: ${request.replace(/\s+/g, ' ')}\n${dsl}`, 'ask'),
  });
  private readonly ir = new IrPane(this.editors);
  private readonly sql = new SqlPane(this.editors, {
    store: () => this.session.store,
    scriptText: () => this.scriptText(),
    now: () => this.clock.now() ?? new Date(),
  });
  private readonly timeline = new TimelinePane(this.panes.pane('Timeline'), {
    results: () => this.results,
    span: (statement) => (this.shownIsLatest() ? analyze(this.scriptText()).sourceMaps[statement]?.get('') : undefined),
    highlight: (span) => this.editors.highlight(span),
    restored: () => this.shown?.restored ?? false,
  });
  private readonly files: FileContext = {
    scriptText: () => this.scriptText(),
    scriptName: () => this.scripts.activeName,
    openScript: (text, name) => this.scripts.add(text, name),
    storeBytes: () => this.session.store.exportBytes(),
    loadStore: (bytes) => this.importStoreBytes(bytes),
    status: (text) => this.status.set(text),
  };
  /** The live analysis of the script (from the worker, or of the last Run). */
  private diagnostics: Diagnostic[] = [];
  /** The run shown in Results and Timeline (the latest of the active script, or one picked from its history). */
  private shown?: RunRecord;
  /** The run whose memory table the Results pane compares the shown run's with (undefined: none). */
  private compareWith?: RunRecord;
  /** Per script: the errors of its last Run the checker refused (cleared by its next run). */
  private readonly refusedRuns = new Map<string, Diagnostic[]>();
  private ready = false;

  /** `editorModule`: the pending `import('./editor.js')`, started by the caller before anything else. */
  constructor(private readonly editorModule: Promise<EditorModule>) {
    this.memoryPane = new MemoryPane(this.panes.pane('Memory'), (id) => this.session.store.why(id));
  }

  /** The statements of the run shown. */
  /** The errors of the active script's last refused Run, if its last Run was refused. */
  private get refused(): Diagnostic[] | undefined {
    return this.refusedRuns.get(this.scripts.activeId);
  }

  private set refused(errors: Diagnostic[] | undefined) {
    if (errors) this.refusedRuns.set(this.scripts.activeId, errors);
    else this.refusedRuns.delete(this.scripts.activeId);
  }

  private get results(): readonly StatementView[] {
    return this.shown?.results ?? [];
  }

  /** Whether the last run committed (false: a statement failed and everything was rolled back). */
  private get committed(): boolean {
    return this.shown?.committed ?? true;
  }

  private shownIsLatest(): boolean {
    const list = this.history.list(this.scripts.activeId);
    return this.shown === list[list.length - 1];
  }

  /**
   * Renders the page shell and restores the work while the editor chunk downloads; resolves once
   * the editors exist and hold the active script (so `window.t2m.loaded` means a usable page).
   */
  async mount(root: HTMLElement): Promise<void> {
    const themeButton = h('button', { 'data-testid': 'theme', onclick: () => this.themes.next() });
    this.themes.onChange((theme) => {
      this.editors.setTheme(theme);
      themeButton.textContent = `◐ ${this.themes.choice === 'auto' ? `auto (${theme})` : theme}`;
      themeButton.title = 'Theme: auto follows the system; click for auto → light → dark';
      themeButton.setAttribute('aria-label', `Theme: ${this.themes.choice}`);
    });
    const header = renderHeader({
      openExample: (example) => this.scripts.openExample(example),
      run: () => void this.run(),
      format: () => void this.format(),
      share: () => void share(this.files),
      openScript: () => void openScriptFile(this.files),
      saveScript: (as) => saveScript(this.files, as),
      exportStore: () => exportStore(this.files),
      importStore: () => void importStore(this.files),
      shortcuts: () => showShortcuts(),
    }, this.clock.el, themeButton);
    this.panes.holdEditor('IR', this.ir.note, this.editors.irHost);
    this.panes.holdEditor('SQL', this.sql.note, this.editors.sqlHost);
    const main = h('main', {});
    const splitter = new Splitter(main);
    clear(main,
      h('div', { class: 'left' }, this.ask.el, this.scripts.el, this.storeBar.el, this.editors.scriptHost, this.editors.tabHintEl, this.problems),
      splitter.el,
      h('div', { class: 'right' }, this.panes.tabs, ...this.panes.all()));
    clear(root, header, main, this.status.el);
    // `?` anywhere but a text field opens the shortcut panel (F1 does in the editors).
    document.addEventListener('keydown', (e) => {
      const target = e.target as HTMLElement;
      if (e.key === 'F1' || (e.key === '?' && !target.closest('input, textarea, select, .monaco-editor'))) {
        e.preventDefault();
        showShortcuts();
      }
    });
    this.clock.el.addEventListener('change', () => {
      const error = this.clock.error();
      if (error) this.status.set(error, 'error');
    });

    this.analysis.onResult = (result) => {
      primeAnalysis(result.text, result);
      this.onAnalysis(result.version, result.diagnostics);
    };
    // The editor chunk is already downloading (main.ts started the import); the store and scripts load meanwhile.
    const editorReady = this.editors.load(this.editorModule, {
      run: () => void this.run(),
      runPart: () => void this.runPart(),
      scriptChanged: () => this.onScriptChanged(),
      irEdited: () => this.ir.onEdited(),
      openLink: (url) => this.panes.openDocsLink(url),
      shortcuts: () => showShortcuts(),
      format: () => void this.format(),
    });
    await this.scripts.restore();
    await this.history.restore(this.scripts.ids);
    const saved = this.history.list(this.scripts.activeId);
    this.shown = saved[saved.length - 1];
    await this.session.restoreNames();
    await this.session.bind(this.bindingOfActive());
    this.scripts.render();
    this.panes.show(this.scripts.firstVisit ? 'Welcome' : this.panes.current);
    try {
      await editorReady;
    } catch (e) {
      this.status.set(`the editor could not be loaded: ${(e as Error).message}`, 'error');
      throw e;
    }
    this.editors.setScriptText(this.scripts.activeText);
    // Markers of a run made while the editor loaded (set after the text, which would displace them).
    this.editors.restoreMarkers();
    this.ready = true;
    if (this.status.isEmpty) this.status.set('ready');
  }

  /** The active script's text: the editor's once it exists, else the saved one it will show. */
  private scriptText(): string {
    return this.editors.scriptText() ?? this.scripts.activeText;
  }

  /** The store the active script runs on: its own, or the named one it picked (if that still exists). */
  private bindingOfActive(): StoreBinding {
    const name = this.scripts.activeStore;
    return name !== undefined && this.session.names.includes(name) ? { kind: 'named', name } : { kind: 'own', scriptId: this.scripts.activeId };
  }

  /**
   * Another script is active: its own diagnostics, markers, Problems and status (nothing of the
   * script left behind carries over), its store, its latest run.
   */
  private async onScriptSwitched(): Promise<void> {
    const list = this.history.list(this.scripts.activeId);
    this.shown = list[list.length - 1];
    this.compareWith = undefined;
    this.diagnostics = analyze(this.scriptText()).diagnostics;
    this.editors.setMarkers('t2m', this.diagnostics);
    this.editors.setMarkers('t2m-runtime', this.refused ? [] : this.results.flatMap((r) => r.errors));
    this.renderProblems();
    this.status.set(this.refused
      ? `"${this.scripts.activeName}": its last run was refused (see Results)`
      : `"${this.scripts.activeName}"${this.shown ? `: showing its run ${this.shown.n}` : ''}`, this.refused ? 'error' : undefined);
    await this.session.bind(this.bindingOfActive());
    this.renderRun();
  }

  /** On a narrow screen the panes sit below the editor: after a Run they scroll into view. */
  private revealPanes(): void {
    if (!matchMedia('(max-width: 800px)').matches) return;
    const right = this.panes.pane('Results').closest<HTMLElement>('.right');
    right?.scrollIntoView({ block: 'start', behavior: 'auto' });
  }

  /** Format (button or Shift-Alt-F): the project printer, or why it left the script as it is. */
  private async format(): Promise<void> {
    const outcome = await this.editors.format();
    if ('errors' in outcome) {
      this.status.set(`not formatted: the script has ${outcome.errors} syntax error${outcome.errors === 1 ? '' : 's'} (see Problems); fix ${outcome.errors === 1 ? 'it' : 'them'} first`, 'error');
    } else this.status.set(outcome.changed ? 'formatted' : 'already formatted');
  }

  private renderStoreBar(): void {
    this.storeBar.render(this.session.names, this.session.binding?.kind === 'named' ? this.session.binding.name : undefined, this.session.memory.length);
  }

  private async chooseStore(name: string | undefined): Promise<void> {
    this.scripts.setActiveStore(name);
    await this.session.bind(this.bindingOfActive());
    this.status.set(`"${this.scripts.activeName}" now runs on ${bindingLabel(this.session.binding!)}`);
    this.sql.planSoon();
  }

  private async createStore(): Promise<void> {
    const name = await promptDialog('New named store', 'Name', 'Create', `store ${this.session.names.length + 1}`);
    if (name && await this.session.addName(name)) await this.chooseStore(name);
    else this.renderStoreBar();
  }

  private onTabShown(tab: Tab): void {
    if (tab === 'Results') this.renderResults();
    if (tab === 'Timeline') this.timeline.render();
  }

  private onScriptChanged(): void {
    const text = this.scriptText();
    this.scripts.setActiveText(text);
    this.editors.highlight(undefined);
    this.analysis.request(text);
  }

  private onAnalysis(version: number, diagnostics: Diagnostic[]): void {
    if (version !== this.analysis.latest) return;
    this.diagnostics = diagnostics;
    this.editors.setMarkers('t2m', diagnostics);
    this.renderProblems();
    this.ir.onAnalysis(this.scriptText());
    this.sql.planSoon();
  }

  /**
   * Runs the whole script one statement at a time, snapshotting `memory` around each one, on the
   * script's store (its own store is emptied first). A script with errors, or a clock that is not
   * a time, is not run, and the Results pane says so in place of the previous run's cards.
   */
  async run(): Promise<void> {
    return this.runStatements();
  }

  /**
   * Run selection / statement at cursor (Ctrl/Cmd-Shift-Enter): just those statements, on the
   * store as it is (a script's own store is not emptied first), their results and timeline shown
   * as a run of their own. Errors elsewhere in the script do not stop it.
   */
  async runPart(): Promise<void> {
    const text = this.scriptText();
    const selection = this.editors.selectionOffsets() ?? { start: text.length, end: text.length };
    const picked = statementsAt(text, selection.start, selection.end);
    if (!picked.length) {
      this.status.set(selection.start < selection.end ? 'not run: the selection holds no complete statement' : 'not run: no statement at the cursor (put it inside one, or select some)', 'error');
      return;
    }
    return this.runStatements(picked);
  }

  /** Runs the script, or the statements `only` of it (Run part). */
  private async runStatements(only?: readonly number[]): Promise<void> {
    const text = this.scriptText();
    const { diagnostics, sourceMaps } = analyze(text);
    this.diagnostics = diagnostics;
    this.editors.setMarkers('t2m', diagnostics);
    const now = this.clock.now();
    const spans = only?.map((i) => sourceMaps[i]?.get('')).filter((s) => !!s);
    // A part stops only for its own errors.
    const errors = diagnostics.filter((d) => d.severity === 'error' && (!spans || (d.range
      ? spans.some((s) => d.range!.start.offset < s.end.offset && d.range!.end.offset >= s.start.offset)
      : d.statement !== undefined && only!.includes(d.statement))));
    if (errors.length || !now) {
      this.refused = errors.length ? errors : [{ code: 'invalid-datetime', severity: 'error', message: this.clock.error()! } as Diagnostic];
      this.editors.setMarkers('t2m-runtime', []);
      this.renderProblems();
      this.renderRun();
      if (this.panes.current !== 'Results') this.panes.show('Results');
      this.status.set(errors.length ? `not run: the script has ${errors.length} error${errors.length === 1 ? '' : 's'} (see Problems)` : `not run: ${this.clock.error()}`, 'error');
      this.revealPanes();
      return;
    }
    this.refused = undefined;
    this.status.set('running…');
    const started = performance.now();
    const scriptId = this.scripts.activeId;
    if (!only) await this.session.prepareRun();
    const { results, committed } = runScript(this.session.store, text, now, only);
    this.session.refresh();
    await this.session.persist();
    const part = only && partLabel(only);
    this.shown = this.history.add(scriptId, {
      at: new Date(), store: bindingLabel(this.session.binding!), rows: this.session.memory.length, committed, results, memory: this.session.memory, ...(part ? { part } : {}),
    });
    this.editors.setMarkers('t2m-runtime', results.flatMap((r) => r.errors));
    this.renderProblems();
    this.sql.showRun(results);
    this.timeline.step = 0;
    if (this.panes.current === 'Welcome') this.panes.show('Results');
    this.renderRun();
    this.revealPanes();
    const ms = Math.round(performance.now() - started);
    const rows = `${this.session.memory.length} row${this.session.memory.length === 1 ? '' : 's'}`;
    if (committed) this.status.set(`ran ${part ?? `${results.length} statement${results.length === 1 ? '' : 's'}`}${part ? ` of ${analyze(text).irs.length}` : ''} in ${ms} ms on ${bindingLabel(this.session.binding!)}: ${rows}`);
    else this.status.set(`statement ${(results.at(-1)?.statement ?? 0) + 1} (${results.at(-1)?.op}) refused: rolled back, memory unchanged`, 'error');
    // A run ends when its history entry and its script (whose id keys the history) are stored:
    // a reload right after it finds the run.
    await Promise.all([this.history.saved, this.scripts.saveNow()]);
  }

  /** Opens a welcome example as a new script (or the tab holding it unchanged), on its own store, and runs it. */
  private async tryExample(name: string, script: string): Promise<void> {
    this.scripts.openTry(script, name, `welcome:${name}`);
    await this.editors.ready;
    await this.onScriptSwitched();
    await this.run();
  }

  /** File ▾ → Import store: into the script's named store, or (a script's own store is emptied by every run) a new named one. */
  private async importStoreBytes(bytes: Uint8Array): Promise<void> {
    let binding = this.session.binding!;
    if (binding.kind === 'own') {
      let n = 1;
      while (this.session.names.includes(`imported ${n}`)) n++;
      binding = { kind: 'named', name: `imported ${n}` };
    }
    await this.session.adopt(binding, bytes);
    if (binding.kind === 'named') {
      await this.session.addName(binding.name);
      this.scripts.setActiveStore(binding.name);
    }
    await this.session.persist();
    this.renderStoreBar();
  }

  private async resetStore(): Promise<void> {
    const label = bindingLabel(this.session.binding!);
    const rows = this.session.memory.length;
    if (!await confirmDialog('Empty this store?', `All ${rows} row${rows === 1 ? '' : 's'} of ${label} will be deleted${this.session.binding?.kind === 'named' ? ', for every script that uses it' : ''}. Export it first (File ▾ → Export store) to keep a copy.`, 'Empty store')) {
      this.status.set('store kept');
      return;
    }
    await this.session.replace();
    await this.session.persist();
    this.sql.planSoon();
    this.status.set(`${label} emptied`);
  }

  private renderProblems(): void {
    const all = [...this.diagnostics, ...this.results.flatMap((r) => r.errors)];
    this.editors.setLastDiagnostics(all);
    renderProblems(this.problems, all, (range) => this.editors.reveal(range));
  }

  /** Results and Timeline follow the run shown. */
  private renderRun(): void {
    this.renderResults();
    this.timeline.render();
  }

  private renderResults(): void {
    renderResults(this.panes.pane('Results'), {
      record: this.shown, history: this.history.list(this.scripts.activeId), refused: this.refused,
      compareWith: this.compareWith,
    }, {
      compare: (n) => {
        this.compareWith = n === undefined ? undefined : this.history.list(this.scripts.activeId).find((r) => r.n === n);
        this.renderResults();
      },
      open: (statement) => {
        this.timeline.step = statement;
        this.panes.show('Timeline');
        this.panes.pane('Timeline').querySelector<HTMLElement>('.timeline-list .active')?.focus();
      },
      showRun: (n) => {
        this.shown = this.history.list(this.scripts.activeId).find((r) => r.n === n) ?? this.shown;
        this.refused = undefined;
        this.timeline.step = 0;
        this.renderRun();
        this.status.set(`showing run ${n} of "${this.scripts.activeName}"`);
      },
    });
  }

  testApi() {
    return testApi({
      editors: this.editors,
      scriptText: () => this.scriptText(),
      run: () => this.run(),
      runPart: () => this.runPart(),
      setClock: (iso) => this.clock.set(iso),
      analysisSettled: () => this.analysis.settled(),
      state: () => ({
        script: this.scriptText(), diagnostics: this.diagnostics, results: [...this.results],
        memory: this.session.memory, ready: this.ready, committed: this.committed,
        store: this.session.binding ? bindingLabel(this.session.binding) : '',
        refused: this.refused !== undefined,
        runs: this.ready ? this.history.list(this.scripts.activeId).length : 0,
      }),
      showTab: (tab) => this.panes.show(tab),
      step: (n) => {
        this.panes.show('Timeline');
        this.timeline.go(n);
      },
    });
  }
}
