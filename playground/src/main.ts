import './style.css';
import { App } from './app.ts';

const app = new App();
const api = app.testApi();
declare global {
  interface Window { t2m?: ReturnType<App['testApi']> & { loaded: Promise<void> } }
}
const loaded = app.mount(document.getElementById('app')!);
window.t2m = { ...api, loaded };
loaded.catch((error: unknown) => {
  console.error('playground failed to start', error);
});
