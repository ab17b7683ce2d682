/**
 * What retrieval asks of the engine's async seam (src/store/io.ts): reads, writes and
 * embeddings, yielded as queries and answered by whoever holds the driver. Declared here as the
 * subset retrieval uses, so that retrieval (and experience memory) sit below the engine: every
 * query here is one of the seam's, and a generator of them runs wherever the engine's do.
 */
import type { Dialect, SqlValue } from '../store/dialect.js';

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

/** The store an index or a search belongs to, as retrieval sees it (src/store/store.ts's Store is one). */
export interface SearchStore {
  readonly dialect: Dialect;
  readonly embedder: { readonly model: string };
}
