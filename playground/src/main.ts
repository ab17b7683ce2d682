import './style.css';
import { App } from './app.js';

// Started before anything else so Monaco (a chunk of its own) downloads while the page shell renders.
const editorModule = import('./editor.js');
const app = new App(editorModule);
const api = app.testApi();
declare global {
  /** `loaded` resolves once the editors exist and hold the restored script. */
  interface Window { t2m?: ReturnType<App['testApi']> & { loaded: Promise<void> } }
}
const loaded = app.mount(document.getElementById('app')!);
window.t2m = { ...api, loaded };
loaded.catch((error: unknown) => {
  console.error('playground failed to start', error);
});
