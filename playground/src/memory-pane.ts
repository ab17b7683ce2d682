/** The Memory pane: the store's `memory` table and its row count. */
import type { Row } from '../../src/services/timeline.js';
import { clear, h } from './dom.js';
import { rowsTable } from './tables.js';

export function renderMemory(pane: HTMLElement, memory: readonly Row[]): void {
  clear(pane,
    h('div', { class: 'pane-note' }, `The memory table: ${memory.length} row${memory.length === 1 ? '' : 's'}.`),
    memory.length ? rowsTable(memory) : null);
}
