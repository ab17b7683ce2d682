import { monaco, workerErrors } from './monaco.ts';

const el = document.getElementById('app')!;
el.style.height = '100vh';
const editor = monaco.editor.create(el, { value: 'PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9\n', language: 'sql' });
(window as any).t2m = { editor, workerErrors };
