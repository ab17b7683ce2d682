/**
 * The PostgreSQL dialect on both PostgreSQL drivers, below the engine: a store is prepared, the
 * compiler's statements (inserts, target selects with every filter, read permissions) run on it,
 * and rows come back in the SQLite shape. Runs on PGlite always, and on a throwaway server when
 * PostgreSQL's binaries are installed (test/support/postgres.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileInsert, compileTargetSelect, compileUpdateById, decodeRow } from '../../src/compile/index.js';
import { postgres } from '../../src/dialect/postgres/dialect.js';
import type { AsyncSqlDriver } from '../../src/store/driver.js';
import type { Selection } from '../../src/lower/operation.js';
import { preparePostgresStore } from '../../src/dialect/postgres/open.js';
import { PgDriver } from '../../src/dialect/postgres/pg-driver.js';
import { PgliteDriver } from '../../src/dialect/postgres/pglite-driver.js';
import { toPositional } from '../../src/dialect/postgres/params.js';
import { STORE_FORMAT } from '../../src/store/format.js';
import { freshDatabase, postgresBinaries, SKIP_REASON } from '../support/postgres.js';

const NOW = '2025-05-01T00:00:00Z';
const hasServer = postgresBinaries() !== null;
if (!hasServer) console.warn(`postgres-dialect: server half skipped: ${SKIP_REASON}`);

const BACKENDS: [string, boolean, () => Promise<AsyncSqlDriver>][] = [
  ['pglite', true, () => PgliteDriver.open()],
  ['postgres server', hasServer, async () => PgDriver.connect(await freshDatabase('dialect'))],
];

const sel = (s: Partial<Selection>): Selection => ({ all: false, orderBy: 'time_desc', ...s }) as Selection;
const filter = (f: Record<string, unknown>) => ({ hasTags: [], notTags: [], facets: {}, ...f });

describe('named parameters', () => {
  it('numbers :name, @name and $name; leaves strings, casts and dollar quotes alone', () => {
    const r = toPositional(`SELECT ':x', "a:x", $fn$ :x $fn$, y::text FROM t WHERE a = :x AND b = @y AND c = :x AND d = $z`, { x: 1, y: 'b', z: null });
    expect(r.sql).toBe(`SELECT ':x', "a:x", $fn$ :x $fn$, y::text FROM t WHERE a = $1 AND b = $2 AND c = $1 AND d = $3`);
    expect(r.values).toEqual([1, 'b', null]);
  });
});

for (const [name, available, open] of BACKENDS) {
  describe.skipIf(!available)(`postgres dialect on ${name}`, () => {
    let d: AsyncSqlDriver;
    beforeAll(async () => {
      d = await open();
      expect(await preparePostgresStore(d)).toEqual([]);
    });
    afterAll(async () => d?.close());

    const insert = async (values: Record<string, unknown>) => {
      const s = compileInsert({ deleted: 0, ...values }, postgres);
      const [row] = await d.all(s.sql, s.params);
      return Number(row.id);
    };
    const ids = async (s: Selection, actor?: string, read = false) => {
      const stmt = compileTargetSelect(s, postgres, { tenant: 'default', now: NOW, readerActor: actor, applyReadPermissions: read });
      return (await d.all(stmt.sql, stmt.params)).map((r) => Number(r.id));
    };

    it('opens again as the same store (idempotent) and marks its format', async () => {
      expect(await preparePostgresStore(d)).toEqual([]);
      expect(await d.all(`SELECT value FROM t2m_meta WHERE key = 'format'`)).toEqual([{ value: STORE_FORMAT }]);
    });

    it('runs the compiled statements; rows come back in the SQLite shape', async () => {
      const a = await insert({ text: 'Q2 OKR review', type: 'note', tags: ['OKR', 'review'], facets: { status: 'open', n: 3 }, weight: 0.5, time: '2025-04-10T15:30:00+08:00' });
      const b = await insert({ text: 'incident', type: 'incident', tags: ['incident'], facets: { status: 'done' }, weight: 0.9, time: '2025-04-11T20:48:00+08:00', read_perm_level: 'private', owner: 'ling' });
      const c = await insert({ text: 'old', tags: [], time: '2025-01-01T00:00:00Z', expire_at: '2025-02-01T00:00:00Z' });
      const [row] = await d.all(`SELECT * FROM memory WHERE id = $1`, [a]);
      expect(typeof row.id).toBe('number');
      expect(row.weight).toBe(0.5);
      expect(row.time).toBe('2025-04-10T15:30:00+08:00');
      expect(decodeRow(row)).toMatchObject({ tags: ['OKR', 'review'], facets: { status: 'open', n: 3 } });
      expect(typeof row.tags).toBe('string');

      expect(await ids(sel({ filter: filter({ hasTags: ['OKR'] }) as never }))).toEqual([a]);
      expect(await ids(sel({ filter: filter({ notTags: ['OKR'] }) as never }))).toEqual([b]);
      expect(await ids(sel({ filter: filter({ facets: { status: 'open' } }) as never }))).toEqual([a]);
      expect(await ids(sel({ filter: filter({ facets: { n: 3 } }) as never }))).toEqual([a]);
      expect(await ids(sel({ filter: filter({ weightGte: 0.8 }) as never }))).toEqual([b]);
      expect(await ids(sel({ filter: filter({ time: { from: '2025-04-11T00:00:00+08:00' } }) as never }))).toEqual([b]);
      expect(await ids(sel({ ids: [a, b, c], orderBy: 'weight_desc' }))).toEqual([b, a]);
      expect(await ids(sel({ all: true, limit: 1 }))).toEqual([b]);
      // Read permissions: the private record is the owner's only.
      expect(await ids(sel({ all: true }), undefined, true)).toEqual([a]);
      expect(await ids(sel({ all: true }), 'ling', true)).toEqual([b, a]);

      const u = compileUpdateById(a, { tags: ['OKR'], weight: 0.7 }, postgres, 'default');
      expect(await d.run(u.sql, u.params)).toBe(1);
      expect(await ids(sel({ filter: filter({ hasTags: ['review'] }) as never }))).toEqual([]);
    });

    it('SQLite-shaped values from expressions: COUNT as a number, booleans as 1/0', async () => {
      expect(await d.all('SELECT COUNT(*) AS n, true AS t, 1.5::numeric AS x FROM memory')).toEqual([{ n: 3, t: 1, x: 1.5 }]);
    });

    it('refuses a schema with a trigger it did not create', async () => {
      await d.exec(`CREATE FUNCTION t2m_test_noop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`);
      await d.exec(`CREATE TRIGGER sneaky BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION t2m_test_noop()`);
      const problems = await preparePostgresStore(d);
      expect(problems.map((p) => p.code)).toEqual(['store-schema']);
      expect(problems[0].message).toContain('trigger sneaky on audit_log');
      await d.exec('DROP TRIGGER sneaky ON audit_log');
    });

    it('refuses a store from a newer version', async () => {
      await d.run(`UPDATE t2m_meta SET value = 'text2mem-store/99' WHERE key = 'format'`);
      expect((await preparePostgresStore(d)).map((p) => p.code)).toEqual(['store-too-new']);
      await d.run(`UPDATE t2m_meta SET value = $1 WHERE key = 'format'`, [STORE_FORMAT]);
    });

    it('loads pgvector where it can (PGlite always)', async () => {
      if (d.kind !== 'pglite') return;
      expect(await d.all(`SELECT '[1,2,3]'::vector <-> '[1,2,4]'::vector AS dist`)).toEqual([{ dist: 1 }]);
    });
  });
}
