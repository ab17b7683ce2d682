/**
 * The open scripts: the tab strip above the editor (switch, new, close, rename), opening an
 * example or a file as a script, and keeping the list in IndexedDB (restored on load, with a
 * script from a share link added). Until the editor exists the saved text is the text of record.
 */
import { confirmDialog } from './confirm.js';
import { clear, debouncer, h } from './dom.js';
import { EXAMPLES, type Example } from './examples.js';
import { KEYS, loadValue, saveValue, type SavedScript, type Workspace } from './persist.js';
import { decodeShareHash } from './share.js';

/** A first visit opens the first example (the paper's B.1.1) in its own tab. */
const DEFAULT_WORKSPACE: SavedScript[] = EXAMPLES[0]
  ? [{ name: EXAMPLES[0].title, text: EXAMPLES[0].text, example: EXAMPLES[0].name }]
  : [{ name: 'script 1', text: '' }];

const newId = (): string => crypto.randomUUID();
const SAVE_DEBOUNCE_MS = 300;

export interface ScriptTabsEvents {
  /** Another script became active (or its store binding changed): show its text, open its store. */
  show(text: string): void;
  /** A script was closed: its own store and history can go. */
  closed(id: string): void;
  status(text: string): void;
  /** The + button opened an empty script: the editor takes the focus. */
  created(): void;
}

export class ScriptTabs {
  /** The strip: the tabs (which scroll sideways), then + and ×. */
  readonly el = h('div', { class: 'scripts' });
  private scripts: SavedScript[] = [];
  private active = 0;
  private readonly saveLater = debouncer(SAVE_DEBOUNCE_MS);

  constructor(private readonly events: ScriptTabsEvents) {
    new ResizeObserver(() => this.revealActive()).observe(this.el);
  }

  /** The active script as last saved (the editor's text is newer once it exists). */
  get activeText(): string {
    return this.scripts[this.active]?.text ?? '';
  }

  get activeName(): string {
    return this.scripts[this.active].name;
  }

  /** Every open script's id. */
  get ids(): string[] {
    return this.scripts.map((s) => s.id!);
  }

  get activeId(): string {
    return this.scripts[this.active].id!;
  }

  /** The named store the active script runs on; undefined: its own store. */
  get activeStore(): string | undefined {
    return this.scripts[this.active]?.store;
  }

  /** Binds the active script to a named store (undefined: its own store). */
  setActiveStore(name: string | undefined): void {
    const { store: _old, ...rest } = this.scripts[this.active];
    this.scripts[this.active] = name === undefined ? rest : { ...rest, store: name };
    this.persist();
  }

  /** First visit: no saved workspace was found (the page shows its welcome). */
  firstVisit = false;

  /** Loads the saved scripts (or the default one) and adds the script of a share link in the URL. */
  async restore(): Promise<void> {
    const saved = await loadValue<Workspace>(KEYS.workspace).catch(() => undefined);
    this.firstVisit = !saved?.scripts.length;
    this.scripts = (saved?.scripts.length ? [...saved.scripts] : [...DEFAULT_WORKSPACE]).map((s) => (s.id ? s : { ...s, id: newId() }));
    this.active = Math.min(saved?.active ?? 0, this.scripts.length - 1);
    const shared = await decodeShareHash(location.hash);
    if (shared !== undefined) {
      // Share keeps the link in the address bar, so a reload brings it back: a tab holding that text already is the one to show.
      const open = this.scripts.findIndex((s) => s.text === shared);
      if (open >= 0) this.active = open;
      else {
        this.scripts.push({ name: `shared ${this.scripts.length + 1}`, text: shared, id: newId() });
        this.active = this.scripts.length - 1;
      }
      history.replaceState(null, '', location.pathname + location.search);
    }
  }

  /** The editor's text changed: it becomes the active script's. */
  setActiveText(text: string): void {
    this.scripts[this.active] = { ...this.scripts[this.active], text };
    this.persist();
  }

  render(): void {
    const tabs = h('div', { class: 'script-tabs', 'data-testid': 'script-tabs' },
      ...this.scripts.map((s, i) => h('button', {
        class: i === this.active ? 'active' : undefined, title: `${s.name} (double-click to rename)`,
        onclick: () => this.switchTo(i),
        ondblclick: () => {
          const name = prompt('Script name', s.name);
          if (name) { this.scripts[i] = { ...s, name }; this.render(); this.persist(); }
        },
      }, s.name)));
    clear(this.el, tabs,
      h('button', { title: 'New script', 'aria-label': 'New script', 'data-testid': 'new-script', onclick: () => { this.add(''); this.events.created(); } }, '+'),
      this.scripts.length > 1 ? h('button', { title: 'Close this script (asks first)', 'aria-label': 'Close this script', 'data-testid': 'close-script', onclick: () => void this.close() }, '×') : null);
    this.revealActive();
  }

  /** Opens a new tab holding `text` and makes it active. */
  add(text: string, name = `script ${this.scripts.length + 1}`, example?: string): void {
    this.scripts.push({ name, text, example, id: newId() });
    this.switchTo(this.scripts.length - 1);
  }

  /**
   * Opens an example: in the tab it is already open in (edits kept), else in the current tab
   * when that is an empty script, else in a new tab.
   */
  openExample(example: Example): void {
    const open = this.scripts.findIndex((s) => s.example === example.name
      // Workspaces saved before tabs remembered their example.
      || (s.example === undefined && s.name === example.title && s.text === example.text));
    if (open >= 0) {
      this.switchTo(open);
      this.events.status(this.scripts[open].text === example.text
        ? `"${example.title}" is already open`
        : `"${example.title}" is already open, with your edits; close its tab and pick it again for a fresh copy`);
      return;
    }
    const current = this.scripts[this.active];
    if (current && current.example === undefined && current.text.trim() === '') {
      this.scripts[this.active] = { name: example.title, text: example.text, example: example.name, id: current.id ?? newId() };
      this.switchTo(this.active);
      return;
    }
    this.add(example.text, example.title, example.name);
  }

  /**
   * Opens `text` as the example `example`: in the tab already holding it unchanged, else in a new
   * tab. True when a new tab was opened.
   */
  openTry(text: string, name: string, example: string): boolean {
    const open = this.scripts.findIndex((s) => s.example === example && s.text === text);
    if (open >= 0) {
      this.switchTo(open);
      return false;
    }
    this.add(text, name, example);
    return true;
  }

  private switchTo(i: number): void {
    this.active = i;
    this.render();
    this.events.show(this.scripts[i].text);
    this.persist();
  }

  /** Closes the active script after asking (unless it is empty): its text, own store and run history go. */
  async close(): Promise<void> {
    const script = this.scripts[this.active];
    if (script.text.trim() && !await confirmDialog('Close this script?', `"${script.name}" and its own store and run history will be gone (a named store stays). Save it first (File ▾ → Save .t2m) to keep it.`, 'Close script')) return;
    this.scripts.splice(this.active, 1);
    this.switchTo(Math.max(0, this.active - 1));
    this.events.closed(script.id!);
    this.events.status(`closed "${script.name}"`);
  }

  /** The strip scrolls sideways; keeps the active tab in view (after a switch, or when the window narrows). */
  private revealActive(): void {
    (this.el.querySelector('.script-tabs')?.children[this.active] as HTMLElement | undefined)
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  private persist(): void {
    this.saveLater(() => void this.saveNow());
  }

  /** Stores the scripts now (a run's history is kept under its script's id, which must outlive a reload). */
  saveNow(): Promise<void> {
    return saveValue(KEYS.workspace, { scripts: this.scripts, active: this.active } satisfies Workspace)
      .catch((e: unknown) => this.events.status(`scripts not saved: ${(e as Error).message}`));
  }
}
