/**
 * Retention's key cases on the native SQLite file store (better-sqlite3): legal_hold holds, and
 * the erasure of an ephemeral record leaves no text in the file's bytes (secure_delete).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditLog, run, sweep, type Store } from '../../src/engine/index.js';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';
import { textToIr } from '../../src/pipeline.js';

const NOW = '2026-06-10T00:00:00Z';

function open(path: string): Store {
  const opened = openStoreFile(path);
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return opened.store;
}

function dsl(store: Store, text: string) {
  const r = run(store, textToIr(text).irs, { now: NOW });
  expect(r.diagnostics.filter((d) => d.severity === 'error'), JSON.stringify(r.diagnostics)).toEqual([]);
  return r;
}

/** The store file's bytes, with its WAL's when one is left. */
function bytesOf(path: string): Buffer {
  return Buffer.concat([readFileSync(path), ...(existsSync(`${path}-wal`) ? [readFileSync(`${path}-wal`)] : [])]);
}

describe('retention on a store file', () => {
  it('a hard-deleted ephemeral record leaves no text in the file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 't2m-retention-')), 'store.sqlite');
    const store = open(path);
    const secret = 'zanzibar-quokka-'.repeat(40);
    dsl(store, `ENCODE "${secret}" RETENTION ephemeral TAGS "marmalade-tag"; ENCODE "kept note";`);
    dsl(store, 'DELETE IDS "1" HARD;');
    store.close();
    const bytes = bytesOf(path);
    expect(bytes.includes(Buffer.from('kept note'))).toBe(true);
    for (const word of ['zanzibar', 'quokka', 'marmalade']) expect(bytes.includes(Buffer.from(word)), word).toBe(false);
  });

  it('the sweep erases an ephemeral fact version and leaves no text in the file; a held version stays', () => {
    const path = join(mkdtempSync(join(tmpdir(), 't2m-retention-')), 'store.sqlite');
    const store = open(path);
    dsl(store, `ENCODE "held-evidence" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-01T00:00:00Z RETENTION legal_hold;
ENCODE "fleeting-ocelot" SUBJECT "mira" ATTRIBUTE "mood" VALID FROM 2026-06-02T00:00:00Z RETENTION ephemeral;
ENCODE "held-note" RETENTION legal_hold;`);
    dsl(store, 'DELETE IDS "2" SOFT;');
    expect(sweep(store, '2026-06-12T00:00:00Z')).toMatchObject({ applied: [{ id: 2, action: 'hard_delete' }] });
    expect(store.query('SELECT id, text FROM memory ORDER BY id')).toEqual([{ id: 1, text: 'held-evidence' }, { id: 3, text: 'held-note' }]);
    expect(JSON.stringify(auditLog(store).map((e) => e.after))).toContain('held-evidence');
    const refused = run(store, textToIr('UPDATE ID "3" SET text = "forged";').irs, { now: NOW });
    expect(refused.diagnostics.filter((d) => d.severity === 'error')).toEqual([expect.objectContaining({ code: 'retention-held' })]);
    store.close();
    const bytes = bytesOf(path);
    expect(bytes.includes(Buffer.from('held-evidence'))).toBe(true);
    expect(bytes.includes(Buffer.from('fleeting'))).toBe(false);
    expect(bytes.includes(Buffer.from('ocelot'))).toBe(false);
    expect(bytes.includes(Buffer.from('forged'))).toBe(false);
  });
});
