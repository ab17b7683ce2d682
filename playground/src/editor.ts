/**
 * Everything that needs Monaco, in one module the page loads with `import()` (see `main.ts`):
 * Monaco's core is most of the page's JavaScript, so it becomes a chunk of its own, fetched while
 * the page shell renders instead of blocking it.
 */
export { monaco } from './monaco.js';
export { IR_MODEL_URI, registerT2mLanguage, setLastDiagnostics, setStoreVocabulary, toMarkers } from './language.js';

export { format } from '../../src/services/format.js';

export type EditorModule = typeof import('./editor.js');
