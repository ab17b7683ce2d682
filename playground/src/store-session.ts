/**
 * The memory store the active script runs against. Every script has a binding:
 *
 * - its **own store** (the default): emptied before each run, so a run never sees another
 *   script's rows or its own earlier run's locks; what the last run left is kept (and saved) so
 *   the Memory tab, completion and a reload still show it;
 * - or a **named store** the user picks (or makes) in the store bar: kept across runs and shared
 *   by every script bound to the same name.
 *
 * Stores are saved to IndexedDB under their binding's key after every change; the session
 * reports the rows and vocabulary of the open store whenever they may have changed.
 */
import type { StoreVocabulary } from '../../src/services/completion.js';
import type { Row } from '../../src/services/timeline.js';
import { deleteValue, KEYS, loadValue, saveValue } from './persist.js';
import { openStore, type PlaygroundStore } from './library.js';

/** Which store a script runs on: its own (emptied before each run), or a named, kept one. */
export type StoreBinding = { readonly kind: 'own'; readonly scriptId: string } | { readonly kind: 'named'; readonly name: string };

/** What the store bar and a run record say about a store: "own store" or `store "team"`. */
export function bindingLabel(binding: StoreBinding): string {
  return binding.kind === 'own' ? 'own store (fresh each run)' : `store "${binding.name}"`;
}

function keyOf(binding: StoreBinding): string {
  return binding.kind === 'own' ? KEYS.scriptStore(binding.scriptId) : KEYS.namedStore(binding.name);
}

const sameBinding = (a: StoreBinding | undefined, b: StoreBinding) =>
  !!a && a.kind === b.kind && (a.kind === 'own' ? a.scriptId === (b as { scriptId: string }).scriptId : a.name === (b as { name: string }).name);

export interface StoreSessionEvents {
  /** The store's rows (and so its vocabulary) may have changed. */
  changed(memory: readonly Row[], vocabulary: StoreVocabulary): void;
  status(text: string, tone?: 'error'): void;
}

export class StoreSession {
  private current?: PlaygroundStore;
  private currentBinding?: StoreBinding;
  /** The names of the named stores, in the order they were made. */
  names: string[] = [];
  /** The `memory` table as last read. */
  memory: Row[] = [];

  constructor(private readonly events: StoreSessionEvents) {}

  get store(): PlaygroundStore {
    if (!this.current) throw new Error('the store is not open yet');
    return this.current;
  }

  get binding(): StoreBinding | undefined {
    return this.currentBinding;
  }

  /** Reads the list of named stores; the single shared store of older versions becomes the named store "shared". */
  async restoreNames(): Promise<void> {
    const names = await loadValue<string[]>(KEYS.storeNames).catch(() => undefined);
    if (names) {
      this.names = [...names];
      return;
    }
    const legacy = await loadValue<Uint8Array>(KEYS.legacyStore).catch(() => undefined);
    if (legacy) {
      await saveValue(KEYS.namedStore('shared'), legacy).catch(() => undefined);
      await deleteValue(KEYS.legacyStore).catch(() => undefined);
      this.names = ['shared'];
    }
    await this.saveNames();
  }

  /**
   * Opens the store of `binding` (its saved bytes, or empty); one that no longer opens is
   * replaced by an empty one, with a status. Does nothing when it is already open.
   */
  async bind(binding: StoreBinding): Promise<void> {
    if (sameBinding(this.currentBinding, binding) && this.current) return;
    const bytes = await loadValue<Uint8Array>(keyOf(binding)).catch(() => undefined);
    let next: PlaygroundStore;
    try {
      next = await openStore(bytes);
    } catch (e) {
      // A saved store that no longer opens must not lock the user out of the page.
      next = await openStore();
      this.events.status(`the saved ${bindingLabel(binding)} could not be opened (${(e as Error).message}); started with an empty one`, 'error');
    }
    this.current?.close();
    this.current = next;
    this.currentBinding = binding;
    this.refresh();
  }

  /** Before a run: a script's own store starts empty, so every run is a fresh one. */
  async prepareRun(): Promise<void> {
    if (this.currentBinding?.kind === 'own') await this.replace();
  }

  /** Adds a named store (empty unless it exists); false when the name is not usable. */
  async addName(name: string): Promise<boolean> {
    const trimmed = name.trim();
    if (!trimmed) return false;
    if (!this.names.includes(trimmed)) {
      this.names.push(trimmed);
      await this.saveNames();
    }
    return true;
  }

  /** Replaces the open store's contents (empty, or the bytes of a `.sqlite` file); throws, keeping the current one, if it does not open. */
  async replace(bytes?: Uint8Array): Promise<void> {
    const next = await openStore(bytes);
    this.current?.close();
    this.current = next;
    this.refresh();
  }

  /** Switches to `binding` with the contents of a `.sqlite` file; throws, keeping the current store, if it does not open. */
  async adopt(binding: StoreBinding, bytes: Uint8Array): Promise<void> {
    const next = await openStore(bytes);
    this.current?.close();
    this.current = next;
    this.currentBinding = binding;
    this.refresh();
  }

  /** Forgets a script's own store (the script was closed). */
  async forgetScript(scriptId: string): Promise<void> {
    await deleteValue(KEYS.scriptStore(scriptId)).catch(() => undefined);
  }

  /** Reads the rows again (after a run) and reports them. */
  refresh(): void {
    this.memory = this.store.memoryRows();
    this.events.changed(this.memory, this.store.vocabulary());
  }

  /** Saves the store to IndexedDB under its binding; a failure is reported in the status, not thrown. */
  async persist(): Promise<void> {
    if (!this.currentBinding) return;
    await saveValue(keyOf(this.currentBinding), this.store.exportBytes())
      .catch((e: unknown) => this.events.status(`store not saved: ${(e as Error).message}`, 'error'));
  }

  private async saveNames(): Promise<void> {
    await saveValue(KEYS.storeNames, this.names).catch((e: unknown) => this.events.status(`store names not saved: ${(e as Error).message}`, 'error'));
  }
}
