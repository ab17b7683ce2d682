/**
 * What the planner tells the model about the store: its vocabulary (the tags, types and subjects
 * in use, with counts, over the memories the caller may read: ./store-terms.ts) and the memories
 * most related to the request (a RETRIEVE search run through the engine as a dry run, so
 * governance applies and nothing is written).
 */
import { explain, type AnySqlDriver, type Limits, type RunResult, type Store } from '../engine/index.js';
import { vocabulary, vocabularyAsync, type Term } from './store-terms.js';

export interface Vocabulary {
  readonly tags: readonly Term[];
  readonly types: readonly Term[];
  readonly subjects: readonly Term[];
  /** Live memories the caller may read. */
  readonly memories: number;
}

/**
 * The vocabulary of the live memories `actor` may read, the `limit` most used of each kind: the
 * same count the MCP server's vocabulary resource serves (./store-terms.ts: one compiled,
 * parameterised select with the engine's read permissions, records hidden by a lock left out).
 */
export function storeVocabulary(store: Store, options: { actor?: string; limit?: number; now?: string; tenant?: string; limits?: Limits } = {}): Vocabulary {
  return limited(vocabulary(store, options.actor, options.now ? new Date(options.now) : new Date(), options.tenant), options);
}

/** `storeVocabulary` on any store (a PostgreSQL one answers after an await). */
export async function storeVocabularyAsync(store: Store<AnySqlDriver>, options: { actor?: string; limit?: number; now?: string; tenant?: string; limits?: Limits } = {}): Promise<Vocabulary> {
  return limited(await vocabularyAsync(store, options.actor, options.now ? new Date(options.now) : new Date(), options.tenant), options);
}

function limited(v: ReturnType<typeof vocabulary>, options: { limit?: number; limits?: Limits }): Vocabulary {
  const limit = Math.min(options.limit ?? 40, options.limits?.maxRows ?? Infinity);
  return { tags: v.tags.slice(0, limit), types: v.types.slice(0, limit), subjects: v.subjects.slice(0, limit), memories: v.records };
}

export interface RelatedMemory {
  readonly id: string;
  readonly text: string;
  readonly type?: string;
  readonly tags?: readonly string[];
  readonly time?: string;
}

/**
 * The `k` memories a semantic search for `request` finds, as the caller may see them: a Retrieve
 * run through the engine (tenant, read permissions, locks, expiry and the caller's `limits`).
 */
export function relatedMemories(store: Store, request: string, k: number, options: { actor?: string; now?: Date | string; tenant?: string; limits?: Limits } = {}): RelatedMemory[] {
  if (k <= 0 || !request.trim()) return [];
  return relatedOf(explain(store, [relatedIr(request, k)], { actor: options.actor, now: options.now, tenant: options.tenant, limits: options.limits }));
}

/** `relatedMemories` on any store (a PostgreSQL one answers after an await). */
export async function relatedMemoriesAsync(store: Store<AnySqlDriver>, request: string, k: number, options: { actor?: string; now?: Date | string; tenant?: string; limits?: Limits } = {}): Promise<RelatedMemory[]> {
  if (k <= 0 || !request.trim()) return [];
  return relatedOf(await explain(store, [relatedIr(request, k)], { actor: options.actor, now: options.now, tenant: options.tenant, limits: options.limits }));
}

const relatedIr = (request: string, k: number) => ({ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: request }, limit: k } }, args: { include: ['id', 'text', 'type', 'tags', 'time'] } });

function relatedOf(result: RunResult): RelatedMemory[] {
  if (!result.ok) return [];
  const rows = (result.results[0]?.rows ?? []) as Record<string, unknown>[];
  return rows.map((r) => ({
    id: String(r.id),
    text: String(r.text ?? '').slice(0, 300),
    ...(typeof r.type === 'string' ? { type: r.type } : {}),
    ...(Array.isArray(r.tags) ? { tags: r.tags as string[] } : {}),
    ...(typeof r.time === 'string' ? { time: r.time } : {}),
  }));
}
