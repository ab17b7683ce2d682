/**
 * The engine workload shared by the engine and storage suites, on one kind of store at one size:
 *   - encode: records/s through the whole pipeline (validate → lower → compile → execute, with
 *     embedding and audit log), in scripts of 1,000 Encodes;
 *   - filtered retrieve: Retrieve statements/s with a tag + time-range filter and a limit 10;
 *   - filtered update: Update statements/s with a tag + one-month filter;
 * each also as "x SQL": the pipeline's time over running the very SQL it issued (taken from the
 * statement results) directly on an identical store of the same kind, in the same transactions,
 * batch by batch right after the pipeline (so load hits both alike); and for encode "x row SQL":
 * over the same records and audit entries written one row at a time (perf/row-sql.ts).
 */
import { rowStatements } from '../row-sql.js';
import { NOW, encodeIr, filter, rng } from '../workload.js';
import type { Figures } from './suite.js';

type Project = typeof import('../../src/node.js');
type AnyStore = import('../../src/node.js').AnyStore;
interface Statement { readonly sql: string; readonly params: readonly unknown[] }

/** A store to measure on, and how to remove it. */
export interface Opened { readonly store: AnyStore; remove(): Promise<void> | void }

const now = () => performance.now() / 1000;

export async function engineWorkload(t2m: Project, open: (name: 'pipeline' | 'replay' | 'rows') => Promise<Opened>, size: number, prefix: string): Promise<Figures> {
  const pipeline = await open('pipeline');
  const replay = await open('replay');
  const rowReplay = await open('rows');
  const store = pipeline.store;
  const runOrDie = async (irs: unknown[]) => {
    // A checkout from before the one-entry engine (`--vs` an older revision) has runAsync for PostgreSQL.
    const pending = ((t2m as { runAsync?: typeof t2m.run }).runAsync ?? t2m.run)(store, irs, { now: NOW });
    const r = pending instanceof Promise ? await pending : pending;
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
    return r;
  };
  const timed = async <T>(f: () => Promise<T>): Promise<[number, T]> => {
    const t = now();
    const value = await f();
    return [now() - t, value];
  };
  /** Seconds to run `statements` directly in one transaction on `on`'s driver (awaiting only promises, so a sync driver pays no microtask per statement). */
  const transaction = async (statements: readonly Statement[], on: AnyStore = replay.store) => {
    const d = on.driver as { begin(): unknown; commit(): unknown; all(sql: string, params: readonly unknown[]): unknown };
    const t = now();
    let p = d.begin();
    if (p instanceof Promise) await p;
    for (const s of statements) {
      p = d.all(s.sql, s.params);
      if (p instanceof Promise) await p;
    }
    p = d.commit();
    if (p instanceof Promise) await p;
    return now() - t;
  };
  const sqlOf = (r: { results: readonly { sql: readonly Statement[] }[] }) => r.results.flatMap((x) => x.sql);

  const rand = rng(size);
  let encodeTime = 0, encodeDirect = 0, encodeRows = 0;
  for (let done = 0; done < size; done += 1000) {
    const batch = Array.from({ length: Math.min(1000, size - done) }, (_, j) => encodeIr(done + j, rand));
    const [t, r] = await timed(() => runOrDie(batch));
    encodeTime += t;
    const sql = sqlOf(r);
    encodeDirect += await transaction(sql);
    encodeRows += await transaction(rowStatements(sql), rowReplay.store);
  }

  // PostgreSQL plans by statistics: gather them for the data just written, on both sides.
  if (t2m.isAsyncDriver(store.driver)) for (const s of [store, replay.store]) await s.driver.exec('ANALYZE');

  const QUERIES = size >= 100_000 ? 100 : 300;
  let retrieveTime = 0, retrieveDirect = 0;
  for (let k = 0; k < QUERIES; k++) {
    const [t, r] = await timed(() => runOrDie([{ stage: 'RET', op: 'Retrieve', target: { filter: { ...filter(k), limit: 10 } }, args: { include: ['id', 'text', 'tags', 'time'] } }]));
    retrieveTime += t;
    retrieveDirect += await transaction(sqlOf(r));
  }

  const UPDATES = QUERIES;
  let updateTime = 0, updateDirect = 0;
  for (let k = 0; k < UPDATES; k++) {
    const [t, r] = await timed(() => runOrDie([{ stage: 'STO', op: 'Update', target: { filter: filter(k + 7, 1) }, args: { set: { type: 'reviewed', weight: 0.8 } } }]));
    updateTime += t;
    updateDirect += await transaction(sqlOf(r));
  }
  await pipeline.remove();
  await replay.remove();
  await rowReplay.remove();
  const at = `${prefix} ${size >= 1000 ? `${size / 1000}k` : size}`;
  return {
    [`${at} encode rec/s`]: size / encodeTime,
    [`${at} encode x SQL`]: encodeTime / encodeDirect,
    [`${at} encode x row SQL`]: encodeTime / encodeRows,
    [`${at} retrieve q/s`]: QUERIES / retrieveTime,
    [`${at} retrieve x SQL`]: retrieveTime / retrieveDirect,
    [`${at} update stmt/s`]: UPDATES / updateTime,
    [`${at} update x SQL`]: updateTime / updateDirect,
  };
}
