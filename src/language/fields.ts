/**
 * The record's fields as statements may write them: what UPDATE's `SET` writes as a column, the
 * columns no `SET` may name (with the verb that writes each instead), and the record types the
 * upstream IR suggests. The lowering and the checker refuse by these lists; the language card
 * prints them, so a planner sees the same list the checker applies.
 */

/** Fields UPDATE `SET` writes as columns (`ttl` as the expiry); any other key becomes a facet. */
export const UPDATE_COLUMNS = [
  'text', 'type', 'tags', 'time', 'subject', 'location', 'topic', 'source', 'weight', 'ttl', 'expire_at', 'facets',
  'auto_frequency', 'next_auto_update_at', 'read_perm_level', 'write_perm_level', 'read_whitelist', 'read_blacklist', 'write_whitelist', 'write_blacklist',
  'retention',
] as const;

/** Columns the engine keeps itself: no statement writes them (the owner is the caller's actor). */
export const ENGINE_COLUMNS = ['id', 'owner', 'created_at', 'updated_at', 'deleted', 'deleted_at', 'embedding_model', 'lineage_parents', 'lineage_children'] as const;
/** Columns only LOCK (lock_*) and EXPIRE (expire_action, on_expire, expire_reason) write. */
export const LOCK_OR_EXPIRE_COLUMNS = ['lock_mode', 'lock_reason', 'lock_policy', 'lock_expires', 'expire_action', 'on_expire', 'expire_reason'] as const;
/** The learned utility (experience memory): only feedback, `PROMOTE … REWARD r`, writes it. */
export const FEEDBACK_COLUMNS = ['utility', 'utility_n'] as const;
/** Every column an UPDATE `SET` may not name (`governed-column`). */
export const GOVERNED_COLUMNS: readonly string[] = [...ENGINE_COLUMNS, 'embedding', ...LOCK_OR_EXPIRE_COLUMNS, ...FEEDBACK_COLUMNS];

/**
 * Record types: free text (any word is valid), these are the upstream IR's suggestions plus
 * `knowledge`, the type the upstream benchmark stores notes, minutes and records under.
 */
export const TYPE_SUGGESTIONS = ['note', 'event', 'task', 'knowledge', 'profile', 'preference', 'generic'] as const;

/**
 * The weight scale (upstream IR: a number in [0, 1], higher is more important) and the
 * upstream's suggested words for it; a record never weighed reads as the neutral 0.5.
 */
export const WEIGHT_WORDS: Readonly<Record<string, number>> = { low: 0.2, normal: 0.5, high: 0.8, urgent: 1.0 };
