/** Store format 3: an older store file gains the experience columns when opened writable, and its records are ordinary memories. */
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';
import { textToIr } from '../../src/pipeline.js';
import { NOW, tempDir } from '../engine/harness.js';

describe('store format 3', () => {
  it('a v1 store is migrated: old records have no level and no feedback, and experience statements run on it', () => {
    const path = join(tempDir(), 'v1.sqlite');
    copyFileSync(resolve(import.meta.dirname, '../fixtures/stores/v1.sqlite'), path);
    const opened = openStoreFile(path);
    if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
    const store = opened.store;
    const old = store.all({ sql: 'SELECT level, episode_id, utility, utility_n FROM memory LIMIT 1', params: [] });
    expect(old).toEqual([{ level: null, episode_id: null, utility: null, utility_n: 0 }]);
    const { irs } = textToIr('LET $e = ENCODE "request: count orders" LEVEL episode;\nPROMOTE IDS $e REWARD 1;\nRETRIEVE WHERE search "count orders" LEVEL episode INCLUDE id, utility;');
    const r = run(store, irs, { now: NOW });
    expect(r.ok).toBe(true);
    expect(r.results[2].rows).toEqual([{ id: r.results[0].ids[0], utility: 1 }]);
    store.close();
  });
});
