/**
 * The slice of Monaco the playground uses, loaded the way monaco-editor ≥ 0.56 documents for ESM
 * bundlers: the API from `monaco-editor/editor`, each editor feature from
 * `monaco-editor/features/<name>/register`, each language from `monaco-editor/languages/…`.
 * Importing the package root would pull in every language and the TypeScript worker.
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/codeAction/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/format/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/indentation/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/placeholderText/register';
import 'monaco-editor/features/semanticTokens/register';
import 'monaco-editor/features/snippet/register';
import 'monaco-editor/features/suggest/register';
import 'monaco-editor/features/toggleTabFocusMode/register';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/wordOperations/register';
// In 0.57 `features/suggest/register` only wires inline completions and `features/gotoError`
// lacks the status entry, `features/semanticTokens` only the viewport half; `editor.main` imports these modules directly, and so do we.
import 'monaco-editor/editor/browser/coreCommands';
import 'monaco-editor/editor/common/standaloneStrings';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/editor/contrib/gotoError/browser/markerSelectionStatus';
import 'monaco-editor/editor/contrib/semanticTokens/browser/documentSemanticTokens';
import 'monaco-editor/languages/definitions/sql/register';
import 'monaco-editor/languages/features/json/register';
// `?worker` makes Vite bundle each worker entry with its imports; a bare URL would copy one file.
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker';
import { workerErrors } from './worker-errors.js';

function watched(worker: Worker, label: string): Worker {
  worker.addEventListener('error', (event) => {
    const message = `Monaco worker "${label}" failed: ${event.message || 'could not load'}`;
    workerErrors.push(message);
    // Loud on purpose: Monaco would otherwise fall back to running on the main thread.
    console.error(message);
  });
  return worker;
}

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    if (label === 'json') return watched(new JsonWorker(), label);
    if (label === 'editorWorkerService') return watched(new EditorWorker(), label);
    // Only the languages above are bundled; any other label means a missing worker.
    throw new Error(`No Monaco worker bundled for label "${label}"`);
  },
};

export { monaco };
export { jsonDefaults } from 'monaco-editor/languages/features/json/register';
