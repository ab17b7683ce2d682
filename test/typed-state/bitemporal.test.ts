/**
 * Both time axes (spec/semantics.md "Reads in time"): the seed's Mira example extended with a
 * back-dated correction, a retraction and its undo, read AS OF a valid time and KNOWN AT a
 * transaction time — the same answers on sql.js, better-sqlite3, PGlite and a PostgreSQL server.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { auditLog, run, undo, why, type RunOptions, type Store } from '../../src/engine/index.js';
import type { AnySqlDriver } from '../../src/store/driver.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { openMemoryStore } from '../../src/dialect/sqlite/native.js';
import { openPostgresStore } from '../../src/dialect/postgres/store.js';
import { textToIr } from '../../src/pipeline.js';
import { freshDatabase, postgresBinaries, SKIP_REASON } from '../support/postgres.js';

type AnyStore = Store<AnySqlDriver>;
const opened: AnyStore[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
});
const keep = (s: AnyStore) => (opened.push(s), s);
const pg = async (target: Parameters<typeof openPostgresStore>[0]) => {
  const o = await openPostgresStore(target);
  if (!o.ok) throw new Error(o.diagnostics.map((d) => d.message).join('; '));
  return keep(o.store as AnyStore);
};

const stores: [string, () => Promise<AnyStore>][] = [
  ['sql.js', async () => keep((await createStore()) as AnyStore)],
  ['better-sqlite3', async () => keep(openMemoryStore() as AnyStore)],
  ['PGlite', () => pg({ kind: 'pglite' })],
];
if (postgresBinaries()) stores.push(['a PostgreSQL server', async () => pg({ kind: 'postgres', url: await freshDatabase('bitemporal') })]);
else describe('both time axes on a PostgreSQL server', () => it.skip(SKIP_REASON, () => {}));

const KEY = 'WHERE subject = "mira" AND attribute = "passport_deadline"';

describe.each(stores)('both time axes on %s', (_name, open) => {
  it('the Mira example: as of June 2, known before the correction 2026-07-15, known now 2026-06-30; a retraction and its undo keep what was believed', async () => {
    const store = await open();
    const exec = async (text: string, now: string, options: RunOptions = {}) => {
      const parsed = textToIr(text);
      expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const r = await run(store, parsed.irs, { now, sourceMaps: parsed.sourceMaps, ...options });
      expect(r.diagnostics.filter((d) => d.severity === 'error'), JSON.stringify(r.diagnostics)).toEqual([]);
      return r;
    };
    const texts = async (read: string, now = '2026-06-10T00:00:00Z') => (await exec(read, now)).results.map((x) => (x.rows ?? []).map((row) => row.text));

    await exec(`ENCODE "2026-07-15" SUBJECT "mira" ATTRIBUTE "passport_deadline" VALID FROM 2026-06-01T09:00:00Z EPISODE "e1";
ENCODE "a note about mira" SUBJECT "mira" TAGS "note";`, '2026-06-01T09:00:00Z');
    // The correction, recorded on June 5, back-dated to June 1: the deadline was June 30 all along.
    await exec(`ENCODE "2026-06-30" SUBJECT "mira" ATTRIBUTE "passport_deadline" VALID FROM 2026-06-01T09:00:00Z EPISODE "e2";`, '2026-06-05T00:00:00Z');
    // A later change, valid from July 1 (recorded June 6), and the note deleted on June 7.
    await exec(`ENCODE "2026-08-01" SUBJECT "mira" ATTRIBUTE "passport_deadline" VALID FROM 2026-07-01T00:00:00Z EPISODE "e3";`, '2026-06-06T00:00:00Z');
    await exec('DELETE WHERE tags HAS "note" LIMIT 1 SOFT;', '2026-06-07T00:00:00Z');

    expect(await texts(`RETRIEVE ${KEY} AS OF 2026-06-02T00:00:00Z KNOWN AT 2026-06-03T00:00:00Z INCLUDE text;
RETRIEVE ${KEY} AS OF 2026-06-02T00:00:00Z KNOWN AT 2026-06-10T00:00:00Z INCLUDE text;
RETRIEVE ${KEY} AS OF 2026-06-02T00:00:00Z INCLUDE text;
RETRIEVE ${KEY} KNOWN AT 2026-06-03T00:00:00Z INCLUDE text;
RETRIEVE ${KEY} AS OF 2026-07-02T00:00:00Z KNOWN AT 2026-06-05T12:00:00Z INCLUDE text;
RETRIEVE ${KEY} AS OF 2026-07-02T00:00:00Z KNOWN AT 2026-06-06T12:00:00Z INCLUDE text;
RETRIEVE WHERE tags HAS "note" KNOWN AT 2026-06-06T00:00:00Z INCLUDE text;
RETRIEVE WHERE tags HAS "note" KNOWN AT 2026-06-08T00:00:00Z INCLUDE text;
RETRIEVE WHERE search "2026" LIMIT 10 KNOWN AT 2026-06-03T00:00:00Z INCLUDE text;
RETRIEVE ${KEY} AS OF 2026-05-01T00:00:00Z KNOWN AT 2026-06-10T00:00:00Z INCLUDE text;`)).toEqual([
      ['2026-07-15'], ['2026-06-30'], ['2026-06-30'], ['2026-07-15'], ['2026-06-30'], ['2026-08-01'],
      ['a note about mira'], [], ['2026-07-15'], [],
    ]);
    // A Summarize reads the same versions.
    expect((await exec(`SUMMARIZE ${KEY} AS OF 2026-06-02T00:00:00Z KNOWN AT 2026-06-03T00:00:00Z;`, '2026-06-10T00:00:00Z')).results[0].ids).toEqual([1]);

    // HISTORY shows both intervals; KNOWN AT gives the chain as it stood then.
    const include = 'INCLUDE text, valid_from, valid_to, believed_from, believed_to';
    const [now, then] = (await exec(`RETRIEVE ${KEY} HISTORY ${include}; RETRIEVE ${KEY} HISTORY KNOWN AT 2026-06-05T12:00:00Z ${include};`, '2026-06-10T00:00:00Z')).results.map((x) => x.rows);
    expect(now).toEqual([
      { id: 1, text: '2026-07-15', valid_from: '2026-06-01T09:00:00Z', valid_to: '2026-06-01T09:00:00Z', believed_from: '2026-06-01T09:00:00Z', believed_to: '2026-06-05T00:00:00Z' },
      { id: 3, text: '2026-06-30', valid_from: '2026-06-01T09:00:00Z', valid_to: '2026-07-01T00:00:00Z', believed_from: '2026-06-05T00:00:00Z', believed_to: null },
      { id: 4, text: '2026-08-01', valid_from: '2026-07-01T00:00:00Z', valid_to: null, believed_from: '2026-06-06T00:00:00Z', believed_to: null },
    ]);
    expect(then).toEqual([
      { id: 1, text: '2026-07-15', valid_from: '2026-06-01T09:00:00Z', valid_to: '2026-06-01T09:00:00Z', believed_from: '2026-06-01T09:00:00Z', believed_to: '2026-06-05T00:00:00Z' },
      { id: 3, text: '2026-06-30', valid_from: '2026-06-01T09:00:00Z', valid_to: null, believed_from: '2026-06-05T00:00:00Z', believed_to: null },
    ]);

    // The correction retracted on June 11 and restored by undo on June 12: the spell between stays.
    await exec('DELETE IDS "3" SOFT;', '2026-06-11T00:00:00Z');
    const entry = (await auditLog(store)).at(-1)!;
    expect(await undo(store, entry.id, { now: '2026-06-12T00:00:00Z' })).toMatchObject({ ok: true, restored: [3] });
    const read = (k: string) => `RETRIEVE ${KEY} AS OF 2026-06-02T00:00:00Z KNOWN AT ${k} INCLUDE text;`;
    expect(await texts(read('2026-06-04T00:00:00Z') + read('2026-06-11T12:00:00Z') + read('2026-06-12T12:00:00Z') + `RETRIEVE ${KEY} AS OF 2026-06-02T00:00:00Z INCLUDE text;`, '2026-06-13T00:00:00Z'))
      .toEqual([['2026-07-15'], ['2026-07-15'], ['2026-06-30'], ['2026-06-30']]);

    // why: when each version was believed.
    const w = await why(store, 3);
    expect(w.ok && w.chain.map((p) => [p.id, p.believed])).toEqual([
      [3, [['2026-06-05T00:00:00Z', '2026-06-11T00:00:00Z'], ['2026-06-12T00:00:00Z', null]]],
      [1, [['2026-06-01T09:00:00Z', '2026-06-05T00:00:00Z'], ['2026-06-11T00:00:00Z', '2026-06-12T00:00:00Z']]],
    ]);
  });

  it('KNOWN AT and HISTORY combine; AS OF and HISTORY still do not; a KNOWN AT that is no date-time is refused', async () => {
    const store = await open();
    const codes = async (text: string) => {
      const parsed = textToIr(text);
      const r = await run(store, parsed.irs, { now: '2026-06-10T00:00:00Z', sourceMaps: parsed.sourceMaps });
      return r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
    };
    expect(await codes(`RETRIEVE ${KEY} HISTORY KNOWN AT 2026-06-03T00:00:00Z;`)).toEqual([]);
    expect(await codes(`RETRIEVE ${KEY} HISTORY AS OF 2026-06-03T00:00:00Z;`)).toEqual(['as-of-with-history']);
    expect((await run(store, [{ stage: 'RET', op: 'Retrieve', target: { filter: { subject: 'mira' } }, args: { known_at: 'yesterday' } }], { now: '2026-06-10T00:00:00Z' })).ok).toBe(false);
  });
});
