/**
 * The memory store the page runs against: opened from IndexedDB on load (or empty), replaced by
 * Reset and Import, saved back after every change, and its `memory` rows and vocabulary, which
 * it reports to the page whenever they may have changed.
 */
import type { StoreVocabulary } from '../../src/services/completion.js';
import type { Row } from '../../src/services/timeline.js';
import { KEYS, loadValue, saveValue } from './persist.js';
import { openStore, type PlaygroundStore } from './pipeline.js';

export interface StoreSessionEvents {
  /** The store's rows (and so its vocabulary) may have changed. */
  changed(memory: readonly Row[], vocabulary: StoreVocabulary): void;
  status(text: string): void;
}

export class StoreSession {
  private current?: PlaygroundStore;
  /** The `memory` table as last read. */
  memory: Row[] = [];

  constructor(private readonly events: StoreSessionEvents) {}

  get store(): PlaygroundStore {
    if (!this.current) throw new Error('the store is not open yet');
    return this.current;
  }

  /** Opens the saved store; one that no longer opens is replaced by an empty one (with a status). */
  async restore(): Promise<void> {
    const bytes = await loadValue<Uint8Array>(KEYS.store).catch(() => undefined);
    try {
      this.current = await openStore(bytes);
    } catch (e) {
      // A saved store that no longer opens must not lock the user out of the page.
      this.current = await openStore();
      this.events.status(`the saved store could not be opened (${(e as Error).message}); started with an empty one`);
    }
    this.refresh();
  }

  /** Switches to a new store (empty, or the bytes of a `.sqlite` file); throws, keeping the current one, if it does not open. */
  async replace(bytes?: Uint8Array): Promise<void> {
    const next = await openStore(bytes);
    this.current?.close();
    this.current = next;
    this.refresh();
  }

  /** Reads the rows again (after a run) and reports them. */
  refresh(): void {
    this.memory = this.store.memoryRows();
    this.events.changed(this.memory, this.store.vocabulary());
  }

  /** Saves the store to IndexedDB; a failure is reported in the status, not thrown. */
  async persist(): Promise<void> {
    await saveValue(KEYS.store, this.store.exportBytes())
      .catch((e: unknown) => this.events.status(`store not saved: ${(e as Error).message}`));
  }
}
