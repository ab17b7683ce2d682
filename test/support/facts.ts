/**
 * The fact-chain invariant (spec/semantics.md "Fact versions"): for any (tenant, subject,
 * attribute) and any instant, at most one version is valid — asked through the engine's own read
 * SQL (the target select of `RETRIEVE … AS OF t`, and of a plain read at the clock), so the check
 * is of what a reader sees, not of the columns. Works on every store kind (an Io driven by
 * `driveAsync`); `atMostOneValidSync` is the same on a synchronous store.
 */
import { compileTargetSelect, type SqlStatement } from '../../src/compile/index.js';
import type { Selection } from '../../src/lower/operation.js';
import type { AnySqlDriver } from '../../src/store/driver.js';
import { all as ioAll, type Io } from '../../src/store/io.js';
import type { Store } from '../../src/store/store.js';

const q = (s: SqlStatement) => ioAll(s.sql, s.params);

/** A key and an instant at which more than one version is valid, with their ids. */
export interface ChainViolation {
  readonly subject: string;
  readonly attribute: string;
  /** The instant (an AS OF), or `now` for the default (current) read. */
  readonly at: string;
  readonly ids: readonly number[];
}

/**
 * Every violation of "at most one valid version" in `tenant`: each fact key is read AS OF each
 * instant where its answer can change (every valid_from, valid_to, created_at, deleted_at and
 * expire_at of its records: validity is a union of half-open intervals bounded by those), and
 * once as a plain read at `now`.
 */
export function* chainViolationsIo(store: Store<AnySqlDriver>, tenant: string, now: string): Io<ChainViolation[]> {
  const d = store.dialect;
  const qi = d.quoteIdent;
  const keys = yield* q({
    sql: `SELECT DISTINCT ${qi('subject')}, ${qi('attribute')} FROM ${qi('memory')} WHERE ${qi('tenant')} = ${d.placeholder(0)} AND ${qi('attribute')} IS NOT NULL AND ${qi('subject')} IS NOT NULL`,
    params: [tenant],
  });
  const out: ChainViolation[] = [];
  for (const k of keys) {
    const subject = String(k.subject);
    const attribute = String(k.attribute);
    const rows = yield* q({
      sql: `SELECT * FROM ${qi('memory')} WHERE ${qi('tenant')} = ${d.placeholder(0)} AND ${qi('subject')} = ${d.placeholder(1)} AND ${qi('attribute')} = ${d.placeholder(2)}`,
      params: [tenant, subject, attribute],
    });
    const instants = new Set<string>();
    for (const r of rows) {
      for (const c of ['valid_from', 'valid_to', 'created_at', 'deleted_at', 'expire_at']) if (typeof r[c] === 'string') instants.add(r[c] as string);
    }
    const sel = (asOf?: string): Selection => ({
      all: false, orderBy: 'time_desc', asOf,
      filter: { hasTags: [], notTags: [], facets: {}, subject, attribute },
    });
    for (const at of [...instants].sort()) {
      const valid = yield* q(compileTargetSelect(sel(at), d, { tenant, now, applyReadPermissions: false }));
      if (valid.length > 1) out.push({ subject, attribute, at, ids: valid.map((r) => Number(r.id)).sort((a, b) => a - b) });
    }
    const current = yield* q(compileTargetSelect(sel(), d, { tenant, now, applyReadPermissions: false }));
    if (current.length > 1) out.push({ subject, attribute, at: 'now', ids: current.map((r) => Number(r.id)).sort((a, b) => a - b) });
  }
  return out;
}

/** The violations of `tenant` (empty when the invariant holds), on any store. */
export function atMostOneValid(store: Store<AnySqlDriver>, tenant = 'default', now = new Date().toISOString().replace(/\.\d+Z$/, 'Z')): Promise<ChainViolation[]> {
  return store.driveAsync(chainViolationsIo(store, tenant, now));
}

/** `atMostOneValid` on a synchronous store (sql.js, better-sqlite3). */
export function atMostOneValidSync(store: Store, tenant = 'default', now = new Date().toISOString().replace(/\.\d+Z$/, 'Z')): ChainViolation[] {
  return store.drive(chainViolationsIo(store, tenant, now));
}
