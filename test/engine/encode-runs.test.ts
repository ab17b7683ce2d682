/**
 * Runs of consecutive Encodes executed together (src/execute/index.ts `executeEncodeRunIo`,
 * spec/semantics.md "Runs of Encodes"): the same script run with `batch: true` and `batch: false` on two
 * fresh stores leaves the same memory rows (ids, embeddings, search tokens, provenance) and the
 * same audit log, and gives the same results but for `sql` — on random scripts mixing Encodes of
 * many shapes with other verbs, LET bindings, dry runs and refusals, and at the chunk boundaries.
 * The batched results' `sql`, replayed in order on a third store, rebuilds the same tables: each
 * statement issued is listed once, in the order issued. The file runs again on PGlite
 * (test/store/pglite-suite.test.ts) and on store files (native-suite.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { auditLog, run, undo, why, type RunOptions, type RunResult, type Store } from '../../src/engine/index.js';
import { NgramEmbedder, type EmbedResult } from '../../src/text/text.js';
import { ENCODE_CHUNK } from '../../src/execute/index.js';
import { freshStore, NOW } from './harness.js';
import { rng } from '../../perf/workload.js';

const WORDS = ['budget', 'meeting', 'Ünïcödé', '会议', 'réunion', 'встреча', '🙂 emoji', 'launch', 'review', "it's", '"quoted"', 'back\\slash', 'tab\there'];
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

function text(r: () => number): string {
  const n = r() < 0.1 ? 260 : 1 + Math.floor(r() * 12);
  return Array.from({ length: n }, () => pick(r, WORDS)).join(' ');
}

/** An Encode of a random shape: the plain one (any of its args), or with facets, weight, expiry, permissions, retention, a caller's vector, no embedding. */
function randomEncode(r: () => number, k: number): Record<string, unknown> {
  const args: Record<string, unknown> = { payload: { text: text(r) } };
  if (r() < 0.6) args.type = pick(r, ['note', 'task', '事件']);
  if (r() < 0.7) args.tags = Array.from({ length: Math.floor(r() * 4) }, () => pick(r, ['a', 'b', 'c', 'ü', 'a']));
  if (r() < 0.5) args.time = `2025-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}T10:00:00Z`;
  for (const key of ['subject', 'location', 'topic', 'source']) if (r() < 0.2) args[key] = pick(r, ['alice', 'Zürich', 'plans', 'chat']);
  const extra = r();
  if (extra < 0.06) args.facets = { mood: 'ok', n: k };
  else if (extra < 0.1) args.weight = 0.3;
  else if (extra < 0.13) args.ttl = 'P3D';
  else if (extra < 0.16) args.read_perm_level = 'private';
  else if (extra < 0.19) args.retention = 'ephemeral';
  else if (extra < 0.21) args.skip_embedding = true;
  else if (extra < 0.23) args.embedding = [0.5, -0.25, 1, 0];
  else if (extra < 0.25) args.payload = { text: text(r), knowledge_type: 'fact' };
  const ir: Record<string, unknown> = { stage: 'ENC', op: 'Encode', args };
  if (r() < 0.15) ir._let = `e${k}`;
  return ir;
}

/** A random script: runs of Encodes between other statements, some bound and referenced later. */
function randomScript(seed: number): Record<string, unknown>[] {
  const r = rng(seed);
  const out: Record<string, unknown>[] = [];
  const lets: string[] = [];
  const n = 5 + Math.floor(r() * 40);
  for (let k = 0; k < n; k++) {
    const x = r();
    if (x < 0.75) {
      const e = randomEncode(r, k);
      if (e._let) lets.push(String(e._let));
      out.push(e);
    } else if (x < 0.8) {
      const { _let: _bound, ...dry } = randomEncode(r, k);
      out.push({ ...dry, meta: { dry_run: true } });
    } else if (x < 0.85) {
      // A fact: supersession reads the versions before it (not runnable).
      out.push({ stage: 'ENC', op: 'Encode', args: { payload: { text: text(r) }, subject: 'alice', attribute: 'city', valid_from: `2025-0${1 + (k % 9)}-01T00:00:00Z` } });
    } else if (x < 0.9 && lets.length) {
      out.push({ stage: 'STO', op: 'Update', target: { ids: [{ $ref: pick(r, lets) }] }, args: { set: { type: 'seen' } } });
    } else if (x < 0.95 && lets.length) {
      out.push({ stage: 'RET', op: 'Retrieve', target: { ids: [{ $ref: pick(r, lets) }] }, args: { include: ['id', 'text', 'tags'] } });
    } else {
      out.push({ stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['a'], limit: 5 } }, args: { include: ['id'] } });
    }
  }
  return out;
}

const TENANT = 'acme';
const OPTIONS: RunOptions = { now: NOW, actor: 'alice', traceId: 'trace-1', tenant: TENANT };

/** Everything the store holds that a script writes. */
function tables(store: Store): { memory: unknown[]; audit: unknown[]; stats: unknown[] } {
  return {
    memory: store.query('SELECT * FROM memory ORDER BY id'),
    audit: store.query('SELECT * FROM audit_log ORDER BY id'),
    stats: store.query('SELECT * FROM memory_search_stats'),
  };
}

const withoutSql = (r: RunResult) => ({ ...r, results: r.results.map(({ sql: _sql, ...rest }) => rest) });

/** The script run batched and one statement at a time on two fresh stores (after the same `before` script). */
async function both(irs: readonly unknown[], before: readonly unknown[] = []) {
  const batched = await freshStore();
  const single = await freshStore();
  for (const s of [batched, single]) if (before.length) expect(run(s, before, OPTIONS).ok).toBe(true);
  const a = run(batched, irs, { ...OPTIONS, batch: true });
  const b = run(single, irs, { ...OPTIONS, batch: false });
  return { a, b, batched, single };
}

/** The batched results' SQL (but dry runs') replayed in order on a fresh store (after the same `before` script): what the tables hold. */
async function replayed(r: RunResult, before: readonly unknown[] = []): Promise<ReturnType<typeof tables>> {
  const store = await freshStore();
  if (before.length) expect(run(store, before, OPTIONS).ok).toBe(true);
  store.transaction(() => {
    // A dry run's statements were rolled back (its savepoint): not replayed.
    for (const res of r.results) if (!res.dryRun) for (const s of res.sql) store.all(s);
    return { commit: true, value: undefined };
  });
  return tables(store);
}

describe('runs of Encodes', () => {
  it('random scripts: batched and one at a time leave the same tables and give the same results', async () => {
    let multiRow = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const irs = randomScript(seed);
      const { a, b, batched, single } = await both(irs);
      expect(a.ok, JSON.stringify(a.diagnostics)).toBe(true);
      expect(withoutSql(a)).toEqual(withoutSql(b));
      expect(tables(batched)).toEqual(tables(single));
      multiRow += a.results.flatMap((x) => x.sql).filter((s) => /^INSERT INTO "memory" .*\), \(/s.test(s.sql)).length;
      // Every statement issued, once, in order: the replay rebuilds the same tables.
      expect(await replayed(a)).toEqual(tables(batched));
    }
    // The scripts did form runs.
    expect(multiRow).toBeGreaterThan(20);
  });

  it('each run lists its two statements per chunk in its first statement; a lone Encode keeps its own', async () => {
    const e = (t: string, extra: Record<string, unknown> = {}) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t } }, ...extra });
    const irs = [e('one'), e('two'), e('three'), { stage: 'RET', op: 'Retrieve', target: { ids: ['1'] }, args: { include: ['id'] } }, e('four')];
    const { a, b } = await both(irs);
    const kinds = (r: RunResult) => r.results.map((x) => x.sql.map((s) => s.sql.match(/^\w+ \w+ "?(\w+)"?/)?.[1] ?? s.sql.slice(0, 6)));
    expect(kinds(a)).toEqual([['memory', 'audit_log'], [], [], ['SELECT'], ['memory', 'audit_log']]);
    expect(kinds(b)).toEqual([['memory', 'audit_log'], ['memory', 'audit_log'], ['memory', 'audit_log'], ['SELECT'], ['memory', 'audit_log']]);
    expect(a.results[0].sql[0].params.length).toBe(3 * b.results[0].sql[0].params.length);
    expect(a.results[0].sql[1].params.length).toBe(27);
    expect(a.results[4].sql).toEqual(b.results[4].sql);
  });

  for (const n of [ENCODE_CHUNK - 1, ENCODE_CHUNK, ENCODE_CHUNK + 1, 2 * ENCODE_CHUNK + 1]) {
    it(`a run of ${n} Encodes (chunks of ${ENCODE_CHUNK})`, async () => {
      const r = rng(n);
      const irs = Array.from({ length: n }, (_, k) => randomEncode(r, k));
      const { a, b, batched, single } = await both(irs, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'before' } } }]);
      expect(a.ok).toBe(true);
      expect(withoutSql(a)).toEqual(withoutSql(b));
      expect(tables(batched)).toEqual(tables(single));
      const statements = a.results.flatMap((x) => x.sql);
      expect(statements.length).toBe(2 * Math.ceil(n / ENCODE_CHUNK));
      expect(a.results.map((x, i) => (x.sql.length ? i : -1)).filter((i) => i >= 0)).toEqual(Array.from({ length: Math.ceil(n / ENCODE_CHUNK) }, (_, c) => c * ENCODE_CHUNK));
      expect(await replayed(a, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'before' } } }])).toEqual(tables(batched));
    });
  }

  it('LET bindings of a run are set before the next statement; a dry run splits a run', async () => {
    const irs = [
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'a' }, tags: ['x'] }, _let: 'a' },
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'b' } }, _let: 'b' },
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'dry' } }, meta: { dry_run: true } },
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'c' } } },
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'd' } }, _let: 'd' },
      { stage: 'STO', op: 'Label', target: { ids: [{ $ref: 'a' }, { $ref: 'd' }] }, args: { tags: ['y'] } },
      { stage: 'RET', op: 'Retrieve', target: { ids: [{ $ref: 'b' }] }, args: { include: ['id', 'text'] } },
    ];
    const { a, b, batched, single } = await both(irs);
    expect(a.ok).toBe(true);
    expect(withoutSql(a)).toEqual(withoutSql(b));
    expect(tables(batched)).toEqual(tables(single));
    expect(a.results[5].ids).toEqual([1, 4]);
    expect(a.results[6].rows).toEqual([{ id: 2, text: 'b' }]);
    expect(a.results[2].dryRun).toBe(true);
  });

  it('a statement refused after a run rolls the whole script back, with the same results and diagnostics', async () => {
    const irs = [
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'a' } } },
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'b' } } },
      { stage: 'STO', op: 'Delete', target: { all: true }, args: {} },
    ];
    const { a, b, batched, single } = await both(irs, [{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'kept' } } }]);
    expect(a.ok).toBe(false);
    expect(a.diagnostics.map((d) => d.code)).toEqual(['all-requires-confirmation']);
    expect(withoutSql(a)).toEqual(withoutSql(b));
    expect(tables(batched)).toEqual(tables(single));
    expect((tables(batched).memory as { text: string }[]).map((m) => m.text)).toEqual(['kept']);
  });

  it('an Encode refused in the middle of a run (its embedder cannot answer) stops it there, as one at a time would', async () => {
    const e = (t: string, skip: boolean) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t }, ...(skip ? { skip_embedding: true } : {}) } });
    const irs = [e('a', true), e('b', true), e('c', false), e('d', true)];
    const outcomes = [];
    for (const batch of [true, false]) {
      const store = await freshStore();
      // A remote embedder that is down: the first Encode that embeds is refused.
      (store as { embedder: unknown }).embedder = {
        model: 'remote-test',
        embedMany: async () => ({ ok: false, diagnostics: [{ code: 'embeddings-unreachable', severity: 'error', message: 'the embedding model remote-test failed: down' }] }),
      };
      outcomes.push({ r: await run(store, irs, { ...OPTIONS, batch }), t: tables(store) });
    }
    const [a, b] = outcomes;
    expect(a.r.ok).toBe(false);
    expect(a.r.diagnostics.map((d) => [d.code, d.statement])).toEqual([['embeddings-unreachable', 2]]);
    expect(a.r.results.map((x) => x.ids)).toEqual([[1], [2]]);
    expect(withoutSql(a.r)).toEqual(withoutSql(b.r));
    expect(a.t).toEqual(b.t);
  });

  /** A remote embedder (the offline default's vectors) that fails on any request holding `bad`, and counts its requests. */
  function remoteEmbedder(bad: string | undefined, alsoFails?: (texts: readonly string[]) => boolean) {
    const local = new NgramEmbedder();
    const requests: number[] = [];
    return {
      requests,
      embedder: {
        model: local.model,
        async embedMany(texts: readonly string[]): Promise<EmbedResult> {
          requests.push(texts.length);
          if ((bad !== undefined && texts.includes(bad)) || alsoFails?.(texts)) return { ok: false, diagnostics: [{ code: 'embeddings-http-error', severity: 'error', message: `HTTP 400 (${texts.length} texts)` }] };
          return { ok: true, vectors: texts.map((t) => local.embed(t)) };
        },
      },
    };
  }

  it('a run asks a remote embedder once for all its texts; a failure is charged to the statement whose text fails, as one at a time', async () => {
    const e = (t: string, skip = false) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t }, ...(skip ? { skip_embedding: true } : {}) } });
    const ok = [e('alpha'), e('beta', true), e('gamma'), e('delta')];
    const failing = [e('alpha'), e('beta', true), e('gamma'), e('bad text'), e('omega')];
    for (const irs of [ok, failing]) {
      const outcomes = [];
      for (const batch of [true, false]) {
        const store = await freshStore();
        const remote = remoteEmbedder('bad text');
        (store as { embedder: unknown }).embedder = remote.embedder;
        outcomes.push({ r: await run(store, irs, { ...OPTIONS, batch }), t: tables(store), requests: remote.requests });
      }
      const [a, b] = outcomes;
      expect(withoutSql(a.r)).toEqual(withoutSql(b.r));
      expect(a.t).toEqual(b.t);
      // One at a time: one request per embedded text (up to the failure).
      expect(b.requests.every((n) => n === 1)).toBe(true);
      if (irs === ok) {
        expect(a.r.ok).toBe(true);
        expect(a.requests).toEqual([3]);
        expect((a.t.memory as { embedding_model: unknown }[]).map((m) => m.embedding_model)).toEqual(['t2m-ngram-256', null, 't2m-ngram-256', 't2m-ngram-256']);
      } else {
        expect(a.r.ok).toBe(false);
        expect(a.r.diagnostics.map((d) => [d.code, d.statement])).toEqual([['embeddings-http-error', 3]]);
        expect(a.r.results.map((x) => x.ids)).toEqual([[1], [2], [3]]);
        // The run's request failed, then each record asked on its own up to the one that fails.
        expect(a.requests).toEqual([4, 1, 1, 1]);
      }
    }
  });

  it('a run whose one request fails, though each text alone is answered, is written as one at a time writes it', async () => {
    const irs = Array.from({ length: 7 }, (_, k) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: `text ${k}` } } }));
    const outcomes = [];
    for (const batch of [true, false]) {
      const store = await freshStore();
      const remote = remoteEmbedder(undefined, (texts) => texts.length > 1);
      (store as { embedder: unknown }).embedder = remote.embedder;
      outcomes.push({ r: await run(store, irs, { ...OPTIONS, batch }), t: tables(store), requests: remote.requests });
    }
    const [a, b] = outcomes;
    expect(a.r.ok).toBe(true);
    expect(a.requests).toEqual([7, 1, 1, 1, 1, 1, 1, 1]);
    expect(withoutSql(a.r)).toEqual(withoutSql(b.r));
    expect(a.t).toEqual(b.t);
  });

  it('the audit log, why and undo read a batched run as they read one at a time (long texts stored once)', async () => {
    const long = 'a long text that the audit entry shares with its after image '.repeat(20);
    const irs = [
      { stage: 'ENC', op: 'Encode', args: { payload: { text: long }, tags: ['x'] } },
      { stage: 'ENC', op: 'Encode', args: { payload: { text: `${long} ü` }, subject: 'bob' } },
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'short' } } },
    ];
    const { a, batched, single } = await both(irs);
    expect(a.ok).toBe(true);
    expect(a.results[0].sql).toHaveLength(2);
    const later = [{ stage: 'STO', op: 'Delete', target: { ids: ['2'] }, args: { soft: true } }];
    for (const s of [batched, single]) expect(run(s, later, OPTIONS).ok).toBe(true);
    const logs = [batched, single].map((s) => auditLog(s, undefined, TENANT));
    expect(logs[0]).toEqual(logs[1]);
    expect((logs[0][0].ir as { args: { payload: { text: string } } }).args.payload.text).toBe(long);
    expect(String(batched.query('SELECT ir FROM audit_log WHERE id = 1')[0].ir)).toContain('$refs');
    expect(logs[0]).toHaveLength(4);
    expect(why(batched, 2, { tenant: TENANT })).toEqual(why(single, 2, { tenant: TENANT }));
    expect(why(batched, 2, { tenant: TENANT }).ok).toBe(true);
    const undone = [batched, single].map((s) => undo(s, logs[0][3].id, { now: NOW, actor: 'alice', tenant: TENANT }));
    expect(undone[0]).toMatchObject({ ok: true, restored: [2] });
    expect(undone[0]).toEqual(undone[1]);
    expect(tables(batched)).toEqual(tables(single));
  });

  it('explain lists each Encode of a run with its own statements', async () => {
    const store = await freshStore();
    const e = (t: string) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t } } });
    const r = run(store, [e('a'), e('b')], { ...OPTIONS, dryRun: true });
    expect(r.results.map((x) => x.sql.length)).toEqual([2, 2]);
  });
});
