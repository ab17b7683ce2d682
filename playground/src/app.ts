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
 *   test-api.ts (`window.t2m`).
 *
 * Monaco is not part of the entry chunk: `main.ts` starts `import('./editor.js')` at once, the page
 * shell (header, panes, memory table, status) renders while that chunk downloads, and the editors
 * are created when it arrives (`editor-host.ts`, which imports Monaco only as types). Until then
 * the saved scripts are the text of record. Only `editor.ts` and what it imports may import Monaco.
 */
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { AnalysisClient } from './analysis-client.js';
import { AskPanel } from './ask.js';
import { clear, h } from './dom.js';
import type { EditorModule } from './editor.js';
import { EditorHost } from './editor-host.js';
import { exportStore, importStore, openScriptFile, saveScript, share, type FileContext } from './files.js';
import { renderHeader } from './header.js';
import { IrPane } from './ir-pane.js';
import { renderMemory } from './memory-pane.js';
import { analyze, primeAnalysis } from './pipeline.js';
import { renderProblems } from './problems.js';
import { renderResults } from './results-pane.js';
import { runScript, type StatementView } from './run.js';
import { ScriptTabs } from './scripts.js';
import { SidePanes, type Tab } from './side-panes.js';
import { SqlPane } from './sql-pane.js';
import { Clock, StatusLine } from './status.js';
import { StoreSession } from './store-session.js';
import { testApi } from './test-api.js';
import { TimelinePane } from './timeline-pane.js';

export type { StatementView } from './run.js';
export type { PageState } from './test-api.js';

export class App {
  private readonly status = new StatusLine();
  private readonly clock = new Clock();
  private readonly editors = new EditorHost();
  private readonly analysis = new AnalysisClient();
  private readonly problems = h('div', { class: 'problems', 'data-testid': 'problems' });
  private readonly panes = new SidePanes((tab) => this.onTabShown(tab));
  private readonly scripts = new ScriptTabs({
    show: (text) => this.editors.setScriptText(text),
    status: (text) => this.status.set(text),
  });
  private readonly session = new StoreSession({
    changed: (memory, vocabulary) => {
      this.editors.setVocabulary(vocabulary);
      renderMemory(this.panes.pane('Memory'), memory);
    },
    status: (text) => this.status.set(text),
  });
  private readonly ask = new AskPanel({
    store: () => { try { return this.session.store.engine; } catch { return undefined; } },
    now: () => this.clock.now(),
    status: (text) => this.status.set(text),
    insert: (request, dsl) => this.editors.appendBlock(`# Ask: ${request.replace(/\s+/g, ' ')}\n${dsl}`, 'ask'),
  });
  private readonly ir = new IrPane(this.editors);
  private readonly sql = new SqlPane(this.editors, {
    store: () => this.session.store,
    scriptText: () => this.scriptText(),
    now: () => this.clock.now(),
  });
  private readonly timeline = new TimelinePane(this.panes.pane('Timeline'), {
    results: () => this.results,
    span: (statement) => analyze(this.scriptText()).sourceMaps[statement]?.get(''),
    highlight: (span) => this.editors.highlight(span),
  });
  private readonly files: FileContext = {
    scriptText: () => this.scriptText(),
    scriptName: () => this.scripts.activeName,
    openScript: (text, name) => this.scripts.add(text, name),
    storeBytes: () => this.session.store.exportBytes(),
    loadStore: (bytes) => this.loadStore(bytes),
    status: (text) => this.status.set(text),
  };
  /** The live analysis of the script (from the worker, or of the last Run). */
  private diagnostics: Diagnostic[] = [];
  /** The statements of the last run. */
  private results: StatementView[] = [];
  private ready = false;
  /** Whether the last run committed (false: a statement failed and everything was rolled back). */
  private committed = true;

  /** `editorModule`: the pending `import('./editor.js')`, started by the caller before anything else. */
  constructor(private readonly editorModule: Promise<EditorModule>) {}

  /**
   * Renders the page shell and restores the work while the editor chunk downloads; resolves once
   * the editors exist and hold the active script (so `window.t2m.loaded` means a usable page).
   */
  async mount(root: HTMLElement): Promise<void> {
    const header = renderHeader({
      openExample: (example) => this.scripts.openExample(example),
      run: () => void this.run(),
      format: () => this.editors.format(),
      share: () => void share(this.files),
      resetStore: () => void this.resetStore(),
      openScript: () => void openScriptFile(this.files),
      saveScript: (as) => saveScript(this.files, as),
      exportStore: () => exportStore(this.files),
      importStore: () => void importStore(this.files),
    }, this.clock.el, this.status.el);
    this.panes.holdEditor('IR', this.ir.note, this.editors.irHost);
    this.panes.holdEditor('SQL', this.sql.note, this.editors.sqlHost);
    clear(root, header, h('main', {},
      h('div', { class: 'left' }, this.ask.el, this.scripts.el, this.editors.scriptHost, this.problems),
      h('div', { class: 'right' }, this.panes.tabs, ...this.panes.all())));

    this.analysis.onResult = (result) => {
      primeAnalysis(result.text, result);
      this.onAnalysis(result.version, result.diagnostics);
    };
    // The editor chunk is already downloading (main.ts started the import); the store and scripts load meanwhile.
    const editorReady = this.editors.load(this.editorModule, {
      run: () => void this.run(),
      scriptChanged: () => this.onScriptChanged(),
      irEdited: () => this.ir.onEdited(),
      openLink: (url) => this.panes.openDocsLink(url),
    });
    await this.scripts.restore();
    await this.session.restore();
    this.scripts.render();
    this.panes.show(this.panes.current);
    try {
      await editorReady;
    } catch (e) {
      this.status.set(`the editor could not be loaded: ${(e as Error).message}`);
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

  /** Runs the whole script one statement at a time, snapshotting `memory` around each one. */
  async run(): Promise<void> {
    const text = this.scriptText();
    const { diagnostics } = analyze(text);
    this.diagnostics = diagnostics;
    this.editors.setMarkers('t2m', diagnostics);
    if (diagnostics.some((d) => d.severity === 'error')) {
      this.results = [];
      this.editors.setMarkers('t2m-runtime', []);
      this.renderProblems();
      this.status.set('not run: the script has errors');
      return;
    }
    this.status.set('running…');
    const started = performance.now();
    const { results, committed } = runScript(this.session.store, text, this.clock.now());
    this.committed = committed;
    this.results = results;
    this.session.refresh();
    await this.session.persist();
    this.editors.setMarkers('t2m-runtime', results.flatMap((r) => r.errors));
    this.renderProblems();
    this.renderResults();
    this.sql.showRun(results);
    this.timeline.go(0);
    const ms = Math.round(performance.now() - started);
    this.status.set(committed
      ? `ran ${results.length} statement${results.length === 1 ? '' : 's'} in ${ms} ms`
      : `statement ${results.length} (${results[results.length - 1]?.op}) refused: rolled back, memory unchanged`);
  }

  /** Switches to a new store (empty, or a `.sqlite` file's bytes; throws if it does not open) and forgets the last run. */
  private async loadStore(bytes?: Uint8Array): Promise<void> {
    await this.session.replace(bytes);
    this.results = [];
    await this.session.persist();
    this.renderResults();
    this.timeline.render();
  }

  private async resetStore(): Promise<void> {
    await this.loadStore();
    this.sql.showRun(this.results);
    this.status.set('store emptied');
  }

  private renderProblems(): void {
    const all = [...this.diagnostics, ...this.results.flatMap((r) => r.errors)];
    this.editors.setLastDiagnostics(all);
    renderProblems(this.problems, all, (range) => this.editors.reveal(range));
  }

  private renderResults(): void {
    renderResults(this.panes.pane('Results'), this.results, this.committed, (statement) => {
      this.timeline.step = statement;
      this.panes.show('Timeline');
    });
  }

  testApi() {
    return testApi({
      editors: this.editors,
      scriptText: () => this.scriptText(),
      run: () => this.run(),
      setClock: (iso) => this.clock.set(iso),
      analysisSettled: () => this.analysis.settled(),
      state: () => ({
        script: this.scriptText(), diagnostics: this.diagnostics, results: this.results,
        memory: this.session.memory, ready: this.ready, committed: this.committed,
      }),
      showTab: (tab) => this.panes.show(tab),
      step: (n) => {
        this.panes.show('Timeline');
        this.timeline.go(n);
      },
    });
  }
}
