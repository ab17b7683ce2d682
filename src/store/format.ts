/**
 * The store format, shared by each dialect's opener (src/dialect/sqlite/open.ts,
 * src/dialect/postgres/open.ts): the version a store
 * is marked with in `t2m_meta`, and the refusals each opener gives in the same words whatever the
 * database (a store too new, one that must be migrated, one missing columns of its version).
 */
import type { Code, Diagnostic } from '../diagnostics/diagnostic.js';
import type { Column } from './columns.js';

/**
 * The store version. 1: the first stores (`text2mem-store/1`), some without the tag index and
 * with an index on `deleted`; 2: the tag index and its triggers are guaranteed, and a store
 * file may be in WAL mode (written in place by the native driver); 3: tenants, typed facts
 * and provenance (memory and audit_log gain a `tenant` column; see src/store/columns.ts),
 * `memory.demote_reason`, experience memory (level, episode_id, utility), and retrieval — the
 * `search_text` and `embedding_f32` columns, the keyword index (memory_term,
 * memory_search_stats) and its triggers (spec/retrieval.md); 4: the keyword index is in memory
 * (src/retrieve/keywords.ts): the `memory_term` postings and their triggers are dropped, and the
 * `memory_index_*` triggers keep the statistics and move the index counter on every write of a
 * record's tokens, vector or liveness; 5: transaction time — `memory.retractions`, the spells a
 * restored record was retracted (spec/semantics.md "Reads in time").
 */
export const STORE_VERSION = 5;
/** Marks a database as a Text2Mem store, with its version (checked when a store is opened). */
export const STORE_FORMAT = `text2mem-store/${STORE_VERSION}`;
const FORMAT = /^text2mem-store\/(\d+)$/;

export const fail = (code: Code, message: string): Diagnostic => ({ code, severity: 'error', message });

/** The version a format marker names, or the diagnostic for a marker that is no store format. */
export function formatVersion(marker: unknown): number | Diagnostic {
  const m = FORMAT.exec(String(marker));
  if (!m) return fail('bad-store-file', `marked '${String(marker)}', which is not a Text2Mem store format`);
  return Number(m[1]);
}

/** A store written by a newer text2mem. */
export const tooNew = (v: number): Diagnostic =>
  fail('store-too-new', `a store of format ${v}, written by a newer text2mem; this version reads formats up to ${STORE_VERSION}: upgrade text2mem to open it`);

/** An older store opened read-only, which only a writable open can migrate. */
export const needsMigration = (v: number, absent: readonly Column[]): Diagnostic =>
  fail('store-needs-migration', `a store of format ${v}; this version writes format ${STORE_VERSION} and must add the columns ${absent.map((c) => c.name).join(', ')}: open it once writable to migrate it`);

/** A store whose `memory` table lacks columns its own version has (damage, not age); `what` is `database` or `schema`. */
export const lacksColumns = (what: 'database' | 'schema', missing: readonly string[]): Diagnostic =>
  fail('bad-store-file', `a ${what} whose 'memory' table lacks the columns ${missing.join(', ')}`);
