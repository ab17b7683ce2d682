/**
 * The columns of the `memory` table. The first block is the shape the Text2Mem benchmark queries
 * directly (its assertions are SQL over these names); the rest are this engine's own additions.
 */
export type ColumnKind = 'int' | 'real' | 'text' | 'json-array' | 'json-object';

export interface Column {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly sqlType: 'INTEGER' | 'REAL' | 'TEXT';
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
  sqlType: kind === 'int' ? 'INTEGER' : kind === 'real' ? 'REAL' : 'TEXT',
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
];

export const COLUMN_BY_NAME: ReadonlyMap<string, Column> = new Map(MEMORY_COLUMNS.map((c) => [c.name, c]));
