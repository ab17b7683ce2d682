/**
 * The store bar under the script tabs: which store the active script runs on (its own store,
 * emptied before each run, or a named store kept across runs and shared by the scripts that pick
 * it), how many rows it holds, and Reset (after asking).
 */
import { clear, h } from './dom.js';

export interface StoreBarActions {
  /** Picks the store of the active script: undefined for its own, or a name. */
  choose(name: string | undefined): void;
  /** Asks for a name and binds the active script to a new named store. */
  create(): void;
  reset(): void;
}

const OWN = '';
const NEW = '\u0000new';

export class StoreBar {
  readonly el = h('div', { class: 'store-bar', 'data-testid': 'store-bar' });
  private readonly select = h('select', {
    'aria-label': 'Store this script runs on', 'data-testid': 'store-select',
    title: 'Own store: emptied before every run of this script. A named store: kept across runs, shared by every script that picks it.',
    onchange: () => {
      const value = this.select.value;
      if (value === NEW) this.actions.create();
      else this.actions.choose(value === OWN ? undefined : value);
    },
  });
  private readonly indicator = h('span', { class: 'store-indicator', 'data-testid': 'store-indicator' });

  constructor(private readonly actions: StoreBarActions) {
    clear(this.el,
      h('label', { class: 'store-label' }, 'Store ', this.select),
      this.indicator,
      h('button', { title: 'Empty this store (asks first)', 'data-testid': 'reset-store', onclick: () => this.actions.reset() }, 'Reset store'));
  }

  /** Shows the choices, the active script's store and its row count. */
  render(names: readonly string[], current: string | undefined, rows: number): void {
    clear(this.select,
      h('option', { value: OWN }, 'own store (fresh each run)'),
      names.length ? h('optgroup', { label: 'Named stores (kept)' }, ...names.map((n) => h('option', { value: n }, n))) : null,
      h('option', { value: NEW }, 'New named store…'));
    this.select.value = current ?? OWN;
    this.indicator.textContent = `${current === undefined ? 'own store' : `"${current}"`}: ${rows} row${rows === 1 ? '' : 's'}`;
    this.indicator.dataset.rows = String(rows);
    this.indicator.dataset.store = current ?? '';
  }
}
