/**
 * A modal question with two answers, for destructive actions (Reset store, closing a script):
 * a `<dialog>` (focus trapped, Escape cancels), the safe answer focused first.
 */
import { h } from './dom.js';

export function confirmDialog(title: string, message: string, ok: string): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'confirm', 'data-testid': 'confirm-dialog', 'aria-labelledby': 'confirm-title' });
    const finish = (answer: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    const cancel = h('button', { type: 'button', 'data-testid': 'confirm-cancel', onclick: () => finish(false) }, 'Cancel');
    dialog.append(
      h('h2', { id: 'confirm-title' }, title),
      h('p', {}, message),
      h('div', { class: 'buttons' },
        cancel,
        h('button', { type: 'button', class: 'danger', 'data-testid': 'confirm-ok', onclick: () => finish(true) }, ok)));
    dialog.addEventListener('cancel', (e) => { e.preventDefault(); finish(false); });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}

/** A modal asking for one line of text; resolves undefined when cancelled. */
export function promptDialog(title: string, label: string, ok: string, value = ''): Promise<string | undefined> {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'confirm', 'data-testid': 'prompt-dialog', 'aria-labelledby': 'prompt-title' });
    const input = h('input', { type: 'text', value, 'aria-label': label, 'data-testid': 'prompt-input' });
    const finish = (answer: string | undefined) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    const form = h('form', { method: 'dialog', onsubmit: (e: Event) => { e.preventDefault(); finish(input.value.trim() || undefined); } },
      h('h2', { id: 'prompt-title' }, title),
      h('label', {}, label, input),
      h('div', { class: 'buttons' },
        h('button', { type: 'button', 'data-testid': 'prompt-cancel', onclick: () => finish(undefined) }, 'Cancel'),
        h('button', { type: 'submit', class: 'primary', 'data-testid': 'prompt-ok' }, ok)));
    dialog.append(form);
    dialog.addEventListener('cancel', (e) => { e.preventDefault(); finish(undefined); });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
    input.select();
  });
}
