/**
 * The header row: title, Examples menu, Run, Format, Share, the File ▾ menu (Open, Save .t2m/.json,
 * Export/Import store), the clock, the theme toggle and the shortcuts button. Only the elements
 * and their wiring to the page's actions; the actions live elsewhere. (The status is the bar at
 * the foot of the page; Reset store is in the store bar above the editor.)
 */
import { h } from './dom.js';
import { EXAMPLES, type Example } from './examples.js';

export interface HeaderActions {
  openExample(example: Example): void;
  run(): void;
  format(): void;
  share(): void;
  shortcuts(): void;
  openScript(): void;
  saveScript(as: 'dsl' | 'json'): void;
  exportStore(): void;
  importStore(): void;
}

export function renderHeader(actions: HeaderActions, clock: HTMLElement, themeButton: HTMLElement): HTMLElement {
  const examples = h('select', {
    'aria-label': 'Examples',
    onchange: (e: Event) => {
      const select = e.target as HTMLSelectElement;
      const example = EXAMPLES[Number(select.value)];
      select.value = '';
      if (example) actions.openExample(example);
    },
  },
  h('option', { value: '' }, 'Examples…'),
  ...[...new Set(EXAMPLES.map((ex) => ex.group))].map((group) => h('optgroup', { label: group },
    ...EXAMPLES.map((ex, i) => (ex.group === group ? h('option', { value: String(i) }, ex.title) : null)))));
  return h('header', {},
    h('h1', {}, 'Text2Mem playground'),
    examples,
    h('button', { class: 'primary', title: 'Run the script (Ctrl/Cmd-Enter)', 'data-testid': 'run', onclick: () => actions.run() }, '▶ Run'),
    h('button', { title: 'Format with the project printer', 'data-testid': 'format', onclick: () => actions.format() }, 'Format'),
    h('button', { title: 'Copy a link with the script in it', onclick: () => actions.share() }, 'Share'),
    fileMenu(actions),
    clock,
    h('span', { class: 'spacer' }),
    themeButton,
    h('button', { title: 'Keyboard shortcuts (F1, or ? outside the editor)', 'aria-label': 'Keyboard shortcuts', 'data-testid': 'shortcuts-button', onclick: () => actions.shortcuts() }, '?'));
}

/** The file actions share one menu so the header (with the clock) fits one row at 1440 px. */
function fileMenu(actions: HeaderActions): HTMLDetailsElement {
  const menu = h('details', { class: 'menu', 'data-testid': 'file-menu' },
    h('summary', { title: 'Save, open, export or import' }, 'File ▾'),
    h('div', { class: 'menu-items', role: 'menu' },
      h('button', { role: 'menuitem', title: 'Open a .t2m or IR .json file', onclick: () => actions.openScript() }, 'Open…'),
      h('button', { role: 'menuitem', title: 'Download the script as DSL', onclick: () => actions.saveScript('dsl') }, 'Save .t2m'),
      h('button', { role: 'menuitem', title: 'Download the script as IR JSON', onclick: () => actions.saveScript('json') }, 'Save .json'),
      h('button', { role: 'menuitem', title: 'Download the store as a .sqlite file', onclick: () => actions.exportStore() }, 'Export store'),
      h('button', { role: 'menuitem', title: 'Load a .sqlite file into the store this script runs on', onclick: () => actions.importStore() }, 'Import store')));
  // A chosen item, a click elsewhere or Escape closes the menu.
  menu.querySelector('.menu-items')!.addEventListener('click', () => { menu.open = false; });
  document.addEventListener('click', (e) => { if (!menu.contains(e.target as Node)) menu.open = false; });
  menu.addEventListener('keydown', (e) => { if (e.key === 'Escape') menu.open = false; });
  return menu;
}
