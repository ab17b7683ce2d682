/** The defaults lowering applies, shared with execution and the engine API. */

/**
 * A new record has no weight (NULL: never promoted or demoted); Promote/Demote shift from this
 * neutral base. Archiving caps a record's weight at ARCHIVE_WEIGHT.
 */
export const BASE_WEIGHT = 0.5;
export const ARCHIVE_WEIGHT = 0.1;
/** Shift applied by a Promote/Demote that names neither a weight nor a delta. */
export const DEFAULT_WEIGHT_STEP = 0.2;
export const DEFAULT_MAX_TOKENS = 256;
export const DEFAULT_INCLUDE = ['id', 'text', 'type', 'tags', 'facets', 'time', 'subject', 'location', 'topic', 'source', 'weight'];
/** A read of facts (its WHERE names `attribute`, or HISTORY) without INCLUDE: the value, its key, validity and where it came from. */
export const FACT_INCLUDE = ['id', 'text', 'subject', 'attribute', 'valid_from', 'valid_to', 'confidence', 'source', 'episode'];
/** RETRIEVE … LEVEL: how many candidates the selector keeps without PICK (MERIT injects at most one). */
export const DEFAULT_PICK = 1;
/**
 * A search's mix of vector and keyword scores when `overrides.alpha` is not given (0: BM25 alone,
 * 1: vectors alone), chosen on the retrieval eval's dev split (spec/retrieval.md#fusion-prior-and-explanation).
 */
export const DEFAULT_ALPHA = 0.3;
