/**
 * The columns of the `memory` table (and of `audit_log`): the store's layout, which every dialect's
 * DDL and migration and the compiler's statements are written from. The first block is the shape
 * the Text2Mem benchmark queries directly (its assertions are SQL over these names); the rest are
 * this engine's own additions.
 */
export type ColumnKind = 'int' | 'real' | 'text' | 'json-array' | 'json-object' | 'blob';

export interface Column {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly sqlType: 'INTEGER' | 'REAL' | 'TEXT' | 'BLOB';
  /**
   * The store version that added the column (1: there from the start). Opening an older store
   * adds it (`ALTER TABLE memory ADD COLUMN`, with `defaultSql`) inside the migration transaction.
   */
  readonly since: number;
  /** A constant SQL default (e.g. `0`, `'default'`), or undefined for NULL. */
  readonly defaultSql?: string;
}

export interface ColumnOptions {
  readonly since?: number;
  readonly defaultSql?: string;
}

const col = (name: string, kind: ColumnKind, options: ColumnOptions = {}): Column => ({
  name,
  kind,
  sqlType: kind === 'int' ? 'INTEGER' : kind === 'real' ? 'REAL' : kind === 'blob' ? 'BLOB' : 'TEXT',
  since: options.since ?? 1,
  ...(options.defaultSql !== undefined ? { defaultSql: options.defaultSql } : {}),
});

export const MEMORY_COLUMNS: readonly Column[] = [
  col('id', 'int'),
  col('text', 'text'),
  col('type', 'text'),
  col('tags', 'json-array'),
  col('facets', 'json-object'),
  col('weight', 'real'),
  col('time', 'text'),
  col('subject', 'text'),
  col('location', 'text'),
  col('topic', 'text'),
  col('source', 'text'),
  col('expire_at', 'text'),
  col('expire_action', 'text'),
  col('expire_reason', 'text'),
  col('lock_mode', 'text'),
  col('lock_reason', 'text'),
  col('lock_policy', 'json-object'),
  col('lock_expires', 'text'),
  col('lineage_parents', 'json-array'),
  col('lineage_children', 'json-array'),
  col('read_perm_level', 'text'),
  col('write_perm_level', 'text'),
  col('read_whitelist', 'json-array'),
  col('read_blacklist', 'json-array'),
  col('write_whitelist', 'json-array'),
  col('write_blacklist', 'json-array'),
  col('auto_frequency', 'text'),
  col('next_auto_update_at', 'text'),
  col('embedding', 'json-array'),
  col('embedding_model', 'text'),
  col('deleted', 'int', { defaultSql: '0' }),
  // Engine additions.
  col('owner', 'text'),
  col('created_at', 'text'),
  col('updated_at', 'text'),
  col('deleted_at', 'text'),
  /** The reason of the Demote that last gave one (issue 14: the reason is on the record, not only in the audit). */
  col('demote_reason', 'text', { since: 3 }),
  // Store version 3: tenants, typed facts and provenance (spec/semantics.md "Tenants", "Facts").
  col('tenant', 'text', { since: 3, defaultSql: "'default'" }),
  col('attribute', 'text', { since: 3 }),
  col('valid_from', 'text', { since: 3 }),
  col('valid_to', 'text', { since: 3 }),
  col('supersedes', 'int', { since: 3 }),
  col('episode', 'text', { since: 3 }),
  col('confidence', 'real', { since: 3 }),
  col('schema_version', 'int', { since: 3 }),
  col('retention', 'text', { since: 3 }),
  col('trace_id', 'text', { since: 3 }),
  col('statement_index', 'int', { since: 3 }),
  // Experience memory (store format 3): a record's level ('episode' | 'turn'; NULL for an ordinary
  // memory), a turn's episode, and the utility learned from feedback (a running mean of rewards
  // and how many there were; spec/semantics.md#experience-memory).
  col('level', 'text', { since: 3 }),
  col('episode_id', 'int', { since: 3 }),
  col('utility', 'real', { since: 3 }),
  col('utility_n', 'int', { since: 3, defaultSql: '0' }),
  // Retrieval (store version 3, spec/retrieval.md). Both are derived and written by the engine:
  // the search tokens of text + tags + subject + topic, space-separated (the keyword index is
  // built from them by triggers), and the engine's own embedding as packed little-endian
  // Float32 (the JSON `embedding` column keeps only a caller-supplied vector).
  col('search_text', 'text', { since: 3 }),
  col('embedding_f32', 'blob', { since: 3 }),
  // Transaction time (store version 5, spec/semantics.md "Reads in time"): a record is believed
  // from its `created_at` until its `deleted_at` (both the engine's clock); an undo that restores
  // it keeps the spell it was retracted here, as `"from/to"` instants, so that what the store
  // believed at an earlier time never changes.
  col('retractions', 'json-array', { since: 5 }),
];

/** Columns the engine derives from others: never shown in results, before/after images or the audit log. */
export const DERIVED_COLUMNS: ReadonlySet<string> = new Set(['search_text', 'embedding_f32']);

/** Columns of `audit_log` added after version 1 (the table's first columns are in the dialect's DDL). */
export const AUDIT_COLUMNS: readonly Column[] = [
  col('tenant', 'text', { since: 3, defaultSql: "'default'" }),
  col('trace_id', 'text', { since: 3 }),
];

/** The tenant of a store opened before tenants existed, and of a caller that names none. */
export const DEFAULT_TENANT = 'default';

export const COLUMN_BY_NAME: ReadonlyMap<string, Column> = new Map(MEMORY_COLUMNS.map((c) => [c.name, c]));
