/**
 * Re-embedding a store (`t2m reindex`): every record's search tokens and vector derived again by
 * the store's embedder or another (spec/retrieval.md), written in one transaction.
 */
import { DEFAULT_TENANT } from '../store/columns.js';
import { compileUpdateById, decodeRow } from '../compile/index.js';
import { compileSetMeta } from '../compile/meta.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { forgetKeywordIndex } from '../retrieve/keywords.js';
import { TOKENS_META_KEY } from '../retrieve/retokenize.js';
import { isRemoteEmbedder, searchedText, searchTextOf, TOKENS_VERSION, type AnyEmbedder, type EmbedResult } from '../text/text.js';
import { forgetVectorIndex } from '../retrieve/vectors.js';
import type { AnySqlDriver } from '../store/driver.js';
import { all, run } from '../store/io.js';
import type { Store } from '../store/store.js';

export interface ReindexOptions {
  /** The model; default the store's own embedder (the offline default unless the store was given another). */
  readonly embedder?: AnyEmbedder;
  /** Called after each batch with the records done and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  readonly batchSize?: number;
}

export type ReindexResult = { readonly ok: true; readonly records: number; readonly model: string } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * Re-derives every record's search tokens and re-embeds its text (records carrying a caller's
 * own vector keep it), then writes them all in one transaction: a failure part-way (a server
 * error) changes nothing. Soft-deleted records are re-embedded too, so an undo finds them ready.
 * Any store: an SQLite one or a PostgreSQL one (its asynchronous driver is awaited).
 */
export async function reindexStore(store: Store<AnySqlDriver>, options: ReindexOptions = {}): Promise<ReindexResult> {
  const read = { sql: 'SELECT id, tenant, text, tags, subject, topic, embedding_model FROM memory ORDER BY id', params: [] };
  const rows = (await store.driveAsync(all(read.sql, read.params))).map(decodeRow);
  const embedder: AnyEmbedder = options.embedder ?? store.embedder;
  const model = embedder.model;
  const batchSize = options.batchSize ?? 64;
  const updates: { id: number; tenant: string; set: Record<string, unknown> }[] = [];
  for (let i = 0; i < rows.length; i += batchSize) {
    const part = rows.slice(i, i + batchSize);
    const embed = part.filter((r) => r.embedding_model !== 'caller');
    const texts = embed.map((row) => searchedText({ text: row.text }));
    let vectors: Float32Array[];
    if (isRemoteEmbedder(embedder)) {
      const r: EmbedResult = await embedder.embedMany(texts).catch((e: unknown) => ({ ok: false, diagnostics: [diagnostic('embeddings-unreachable', `the embedding model ${model} failed: ${(e as Error)?.message ?? String(e)}`)] }));
      if (!r.ok) return r;
      vectors = r.vectors;
    } else vectors = texts.map((t) => Float32Array.from(embedder.embed(t)));
    const byId = new Map(embed.map((row, k) => [row.id, vectors[k]]));
    for (const row of part) {
      const set: Record<string, unknown> = { search_text: searchTextOf(row) };
      const v = byId.get(row.id);
      if (v) Object.assign(set, { embedding: null, embedding_f32: v, embedding_model: model });
      updates.push({ id: Number(row.id), tenant: String(row.tenant ?? DEFAULT_TENANT), set });
    }
    options.onProgress?.(Math.min(i + batchSize, rows.length), rows.length);
  }
  await store.driveAsync(store.transactionIo(function* () {
    for (const u of updates) {
      const stmt = compileUpdateById(u.id, u.set, store.dialect, u.tenant);
      yield* run(stmt.sql, stmt.params);
    }
    const meta = compileSetMeta(TOKENS_META_KEY, String(TOKENS_VERSION), store.dialect);
    yield* run(meta.sql, meta.params);
    return { commit: true, value: undefined };
  }));
  forgetVectorIndex(store);
  forgetKeywordIndex(store);
  return { ok: true, records: rows.length, model };
}
