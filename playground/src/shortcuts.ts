/** The keyboard shortcuts, listed by the welcome panel and the shortcut panel (F1, or ? outside the editor). */
import { h } from './dom.js';

export const SHORTCUTS: readonly (readonly [keys: string, what: string])[] = [
  ['Ctrl/Cmd-Enter', 'Run the script (in the editor)'],
  ['Ctrl/Cmd-Shift-Enter', 'Run the selection, or the statement at the cursor, on the store as it is'],
  ['F1, or ? outside the editor', 'This list of shortcuts'],
  ['Ctrl-Space', 'Complete: keywords, fields, enum values, tags/types/subjects in the store'],
  ['Ctrl/Cmd-. (on a squiggle)', 'Quick fix, e.g. "did you mean …"'],
  ['Shift-Alt-F', 'Format the script (also the Format button)'],
  ['F8 / Shift-F8', 'Next / previous problem'],
  ['Ctrl-M (Ctrl-Shift-M on a Mac)', 'Tab-focus mode: Tab leaves the editor instead of indenting (press again to turn off)'],
  ['Esc, then Tab / Shift-Tab', 'Leave the editor to the next / previous control (once); Esc closes a suggestion or hover first'],
  ['← / → on the pane tabs', 'Switch between Welcome, Results, Timeline, IR, SQL, Memory, Docs'],
  ['↑ / ↓ in the timeline list', 'Step through the statements of the run'],
  ['← / → on the pane divider', 'Resize the editor and the panes (Home / End: back to half and half)'],
  ['Enter on a problem or a result head', 'Go to its range in the script / open the statement in the timeline'],
];

export function shortcutTable(): HTMLTableElement {
  return h('table', { class: 'shortcuts', 'data-testid': 'shortcut-table' },
    h('tbody', {}, ...SHORTCUTS.map(([keys, what]) => h('tr', {}, h('th', { scope: 'row' }, h('kbd', {}, keys)), h('td', {}, what)))));
}

let open: HTMLDialogElement | undefined;

/** Opens the shortcut panel (a dialog; Escape or Close returns focus where it was). */
export function showShortcuts(): void {
  if (open) return;
  const back = document.activeElement as HTMLElement | null;
  const dialog = h('dialog', { class: 'confirm shortcuts-dialog', 'data-testid': 'shortcuts', 'aria-labelledby': 'shortcuts-title' },
    h('h2', { id: 'shortcuts-title' }, 'Keyboard shortcuts'),
    shortcutTable(),
    h('div', { class: 'buttons' }, h('button', { type: 'button', onclick: () => dialog.close() }, 'Close')));
  dialog.addEventListener('close', () => {
    dialog.remove();
    open = undefined;
    back?.focus();
  });
  document.body.append(dialog);
  open = dialog;
  dialog.showModal();
}
