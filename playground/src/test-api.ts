/**
 * `window.t2m`, the page's API for the browser tests (test/e2e): drive the editors, run, step the
 * timeline, and read the page's state as plain JSON. The editor functions throw until the editors
 * have loaded (`window.t2m.loaded`).
 */
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { Row } from '../../src/services/timeline.js';
import type { EditorHost } from './editor-host.js';
import { shareUrl } from './files.js';
import type { StatementView } from './run.js';
import type { Tab } from './side-panes.js';
import { workerErrors } from './worker-errors.js';

export interface PageState {
  readonly script: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly results: readonly StatementView[];
  readonly memory: readonly Row[];
  readonly workerErrors: readonly string[];
  readonly ready: boolean;
  readonly committed: boolean;
  /** The store the active script runs on, as the store bar names it. */
  readonly store: string;
  /** The last Run was refused by the checker (the Results pane says so). */
  readonly refused: boolean;
  /** How many runs of the active script the history holds. */
  readonly runs: number;
}

/** What the test API reads and drives; the page provides it. */
export interface TestablePage {
  readonly editors: EditorHost;
  scriptText(): string;
  run(): Promise<void>;
  runPart(): Promise<void>;
  setClock(iso: string): void;
  /** Resolves once the analysis worker has answered the newest request. */
  analysisSettled(): Promise<void>;
  /** The page's state with the memory snapshots kept (the API drops them). */
  state(): Omit<PageState, 'workerErrors'>;
  showTab(tab: Tab): void;
  step(n: number): void;
}

export function testApi(page: TestablePage) {
  const { editors } = page;
  return {
    /** Replaces the script and puts the cursor at its end, in the focused editor. */
    setScript: (text: string) => {
      const { editor } = editors.loaded();
      editor.setValue(text);
      const end = editor.getModel()!.getPositionAt(text.length);
      editor.setPosition(end);
      editor.focus();
    },
    run: () => page.run(),
    /** Ctrl/Cmd-Shift-Enter: the selection, or the statement at the cursor. */
    runPart: () => page.runPart(),
    /** Selects script offsets [start, end) in the editor (start = end: the cursor). */
    select: (start: number, end: number) => {
      const { editor } = editors.loaded();
      const model = editor.getModel()!;
      const a = model.getPositionAt(start);
      const b = model.getPositionAt(end);
      editor.setSelection({ startLineNumber: a.lineNumber, startColumn: a.column, endLineNumber: b.lineNumber, endColumn: b.column });
      editor.focus();
    },
    shareUrl: () => shareUrl(page.scriptText()),
    setClock: (iso: string) => page.setClock(iso),
    /** Resolves after the editor has loaded and the worker has checked the current text. */
    settled: () => editors.ready.then(() => page.analysisSettled()),
    state: (): PageState => {
      const s = page.state();
      return JSON.parse(JSON.stringify({
        script: s.script,
        diagnostics: s.diagnostics,
        results: s.results.map(({ before: _b, after: _a, ...rest }) => rest),
        memory: s.memory,
        workerErrors,
        ready: s.ready,
        committed: s.committed,
        store: s.store,
        refused: s.refused,
        runs: s.runs,
      }, (_key, value) => (value instanceof Uint8Array ? `<${value.length} bytes>` : value)));
    },
    markers: () => {
      const { m, editor } = editors.loaded();
      return m.monaco.editor.getModelMarkers({ resource: editor.getModel()!.uri })
        .map((mk) => ({ owner: mk.owner, severity: mk.severity, message: mk.message, line: mk.startLineNumber, column: mk.startColumn, endLine: mk.endLineNumber, endColumn: mk.endColumn }));
    },
    showTab: (tab: Tab) => page.showTab(tab),
    editorInstance: () => editors.loaded().editor,
    step: (n: number) => page.step(n),
    irText: () => editors.loaded().irEditor.getValue(),
    irMarkers: () => {
      const { m, irEditor } = editors.loaded();
      return m.monaco.editor.getModelMarkers({ resource: irEditor.getModel()!.uri }).map((mk) => ({ owner: mk.owner, message: mk.message, line: mk.startLineNumber }));
    },
    setIrText: (text: string) => { const { irEditor } = editors.loaded(); irEditor.focus(); irEditor.setValue(text); },
    sqlText: () => editors.loaded().sqlModel.getValue(),
  };
}

export type TestApi = ReturnType<typeof testApi>;
