/**
 * N clients running scripts at once on one PostgreSQL server database (spec/storage.md
 * "Concurrency on PostgreSQL": SERIALIZABLE, a script that loses a conflict is rerun). Each
 * client, each round, in one script: encodes records tagged with its client and round, and adds
 * its own tag to one shared record (a read-modify-write of `tags`: a lost update would drop a
 * tag); every third round also tries to update a record another client locked read-only, so the
 * script must be refused whole. Counted afterwards: every committed script's records and shared
 * tag are there, every refused one's are not, and the locked and owner-only records never changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../src/engine/index.js';
import { textToIr } from '../../src/index.js';
import { openPostgresStore, type PostgresStore } from '../../src/dialect/postgres/store.js';
import { freshDatabase, postgresBinaries, SKIP_REASON } from '../support/postgres.js';

const hasServer = postgresBinaries() !== null;
if (!hasServer) console.warn(`postgres-concurrency: skipped: ${SKIP_REASON}`);

const CLIENTS = 4;
const ROUNDS = Number(process.env.T2M_PG_CONCURRENCY_ROUNDS ?? 6);
const RECORDS = 5;
const NOW = '2025-10-21T00:00:00Z';

async function open(url: string): Promise<PostgresStore> {
  const opened = await openPostgresStore({ kind: 'postgres', url });
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return opened.store;
}

async function script(store: PostgresStore, text: string, actor: string, onRetry?: () => void) {
  const { irs, diagnostics } = textToIr(text);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return new Session(store, { now: NOW, actor, onRetry }).run(irs);
}

describe.skipIf(!hasServer)('concurrent clients on one PostgreSQL database', () => {
  let url: string;
  let admin: PostgresStore;
  beforeAll(async () => {
    url = await freshDatabase('concurrency');
    admin = await open(url);
    // #1 shared (public), #2 locked read-only, #3 owner-only of alice.
    const setup = await script(admin, [
      'ENCODE "shared" TAGS "shared";',
      'ENCODE "locked" TAGS "locked";',
      'LOCK ID "2" MODE read_only REASON "audit";',
    ].join('\n'), 'admin');
    expect(setup.ok, JSON.stringify(setup.diagnostics)).toBe(true);
    await admin.driver.run(`INSERT INTO memory (text, owner, write_perm_level, deleted) VALUES ('alice only', 'alice', 'owner_only', 0)`);
  });
  afterAll(async () => {
    await admin?.close();
  });

  it(`${CLIENTS} clients × ${ROUNDS} rounds: no lost update, locks and permissions hold, scripts all-or-nothing`, async () => {
    let retries = 0;
    const outcomes = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const store = await open(url);
        const out: { tag: string; ok: boolean; refusedBy?: string }[] = [];
        try {
          for (let r = 0; r < ROUNDS; r++) {
            const tag = `c${c}r${r}`;
            const lines = Array.from({ length: RECORDS }, (_, i) => `ENCODE "${tag} record ${i}" TAGS "${tag}";`);
            lines.push(`LABEL ID "1" TAGS "${tag}" MODE add;`);
            lines.push(`UPDATE ID "3" SET text = "taken by ${tag}";`);
            if (r % 3 === 2) lines.push(`UPDATE ID "2" SET text = "changed by ${tag}";`);
            const res = await script(store, lines.join('\n'), `bob${c}`, () => retries++);
            out.push({ tag, ok: res.ok, refusedBy: res.diagnostics.find((d) => d.severity === 'error')?.code });
          }
        } finally {
          await store.close();
        }
        return out;
      }),
    );
    const all = outcomes.flat();
    // The owner-only record refuses bob every time: every script is refused, whole.
    expect(all.filter((o) => o.ok)).toEqual([]);
    expect(new Set(all.map((o) => o.refusedBy))).toEqual(new Set(['permission-denied']));
    const count = async (sql: string, params: (string | number)[] = []) => Number((await admin.driver.all(sql, params))[0].n);
    expect(await count(`SELECT COUNT(*) AS n FROM memory WHERE id > 3`)).toBe(0);
    expect(await count(`SELECT COUNT(*) AS n FROM audit_log WHERE actor LIKE 'bob%'`)).toBe(0);
    console.log(`postgres concurrency (refusals): ${all.length} scripts, all refused, ${retries} reruns`);
  });

  it(`${CLIENTS} clients × ${ROUNDS} rounds of writes that race on one record: nothing lost`, async () => {
    let retries = 0;
    const outcomes = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const store = await open(url);
        const out: { tag: string; ok: boolean; refusedBy?: string }[] = [];
        try {
          for (let r = 0; r < ROUNDS; r++) {
            const tag = `c${c}r${r}`;
            const lines = Array.from({ length: RECORDS }, (_, i) => `ENCODE "${tag} record ${i}" TAGS "${tag}";`);
            lines.push(`LABEL ID "1" TAGS "${tag}" MODE add;`);
            // Every third round touches the read-only record: the whole script is refused.
            if (r % 3 === 2) lines.push(`UPDATE ID "2" SET text = "changed by ${tag}";`);
            const res = await script(store, lines.join('\n'), `bob${c}`, () => retries++);
            out.push({ tag, ok: res.ok, refusedBy: res.diagnostics.find((d) => d.severity === 'error')?.code });
          }
        } finally {
          await store.close();
        }
        return out;
      }),
    );
    const all = outcomes.flat();
    const committed = all.filter((o) => o.ok).map((o) => o.tag).sort();
    const refused = all.filter((o) => !o.ok);
    expect(committed).toHaveLength(CLIENTS * (ROUNDS - Math.floor((ROUNDS + 0) / 3)));
    expect(new Set(refused.map((o) => o.refusedBy))).toEqual(new Set(['record-locked']));
    // No lost update: the shared record has every committed script's tag, and no refused one's.
    const [shared] = await admin.driver.all(`SELECT tags FROM memory WHERE id = 1`);
    const tags = (JSON.parse(String(shared.tags)) as string[]).filter((t) => t !== 'shared').sort();
    expect(tags).toEqual(committed);
    // All or nothing: each committed script's records are all there, each refused one's none.
    const rows = await admin.driver.all(`SELECT tags->>0 AS tag, COUNT(*) AS n FROM memory WHERE id > 3 GROUP BY 1 ORDER BY 1`);
    expect(rows.map((r) => r.tag)).toEqual(committed);
    expect(new Set(rows.map((r) => Number(r.n)))).toEqual(new Set([RECORDS]));
    const [locked] = await admin.driver.all(`SELECT text FROM memory WHERE id = 2`);
    expect(locked.text).toBe('locked');
    console.log(`postgres concurrency: ${all.length} scripts, ${committed.length} committed, ${refused.length} refused on purpose, ${retries} reruns after serialization failures`);
  });
});
