/**
 * What retrieval asks of the engine's async seam (src/store/io.ts): reads, writes and
 * embeddings, yielded as queries and answered by whoever holds the driver. Declared here as the
 * subset retrieval uses, so that retrieval (and experience memory) sit below the engine: every
 * query here is one of the seam's, and a generator of them runs wherever the engine's do.
 */
import type { Dialect, SqlStatement, SqlValue } from '../store/dialect.js';

type Params = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

/** One request retrieval makes of its driver (a query of the seam). */
export type RetrievalQuery =
  | { readonly kind: 'all'; readonly sql: string; readonly params?: Params }
  | { readonly kind: 'run'; readonly sql: string; readonly params?: Params }
  | { readonly kind: 'embed'; readonly texts: readonly string[] }
  | { readonly kind: 'call'; readonly call: (canWait: boolean) => unknown };

/** A computation that yields retrieval's queries and returns a T once they are answered. */
export type Io<T> = Generator<RetrievalQuery, T, unknown>;

/** The rows an `all` query is answered with, as the driver gives them. */
export type SqlRows = Record<string, SqlValue>[];

/** A memory record as read from the store (decoded), with its id. */
export type Row = Record<string, unknown> & { id: number };

/**
 * Keyword scoring in the database instead of the engine's in-memory index (spec/retrieval.md,
 * "Keywords on PostgreSQL"): the statements a dialect that offers it gives, chosen by the caller
 * when the store is opened (`keywords=server`). Each returns exactly what the in-memory index
 * would: `totals` one row (`docs`, `tokens`: the tenant's indexed records and their length);
 * `df` one row per query term (its position `i` from 1, its `df`, and `committed`: 1 when the
 * transaction has written nothing yet, so that totals read now may be kept); `score` rows (`id`, `score`)
 * of the records holding one of the `holding` terms (default: any), best first, ties by id;
 * `neighbours` per indexed record of `ids`, the ids of the `reach` indexed records written just
 * `before` (nearest first) and `after` it, space-separated.
 */
export interface KeywordRanking {
  readonly name: 'server';
  totals(tenant: string): SqlStatement;
  df(tenant: string, terms: readonly string[]): SqlStatement;
  score(tenant: string, terms: readonly string[], idf: readonly number[], meanLength: number, k1: number, b: number, n: number, among?: readonly number[], holding?: readonly string[]): SqlStatement;
  neighbours(tenant: string, ids: readonly number[], reach: number): SqlStatement;
}

/** The store an index or a search belongs to, as retrieval sees it (src/store/store.ts's Store is one). */
export interface SearchStore {
  /** `keywords`: the dialect scores keywords in the database (the caller asked for it); absent, the engine's index does. */
  readonly dialect: Dialect & { readonly keywords?: KeywordRanking };
  readonly embedder: { readonly model: string };
}
