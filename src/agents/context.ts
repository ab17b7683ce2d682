/**
 * What the planner tells the model about the store: its vocabulary (the tags, types and subjects
 * in use, with counts, read by one parameterised query and filtered by the caller's read
 * permissions) and the memories most related to the request (a RETRIEVE search run through the
 * engine as a dry run, so governance applies and nothing is written).
 */
import { decodeRow } from '../compile/index.js';
import { explain, type Store } from '../engine/index.js';
import { canRead } from '../execute/governance.js';

export interface Vocabulary {
  readonly tags: readonly { readonly value: string; readonly count: number }[];
  readonly types: readonly { readonly value: string; readonly count: number }[];
  readonly subjects: readonly { readonly value: string; readonly count: number }[];
  /** Live memories the caller may read (among the `scan` most recent). */
  readonly memories: number;
}

/**
 * The vocabulary of the live, readable memories: the `scan` most recent records are read with
 * one parameterised query and each kept only when `actor` may read it (the engine's own rule).
 */
export function storeVocabulary(store: Store, options: { actor?: string; limit?: number; scan?: number; now?: string } = {}): Vocabulary {
  const limit = options.limit ?? 40;
  const now = options.now ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const rows = store.query(
    `SELECT tags, type, subject, read_perm_level, owner, read_whitelist, read_blacklist FROM memory
     WHERE deleted = 0 AND (expire_at IS NULL OR expire_at > ?) ORDER BY id DESC LIMIT ?`,
    [now, options.scan ?? 5000],
  ).map((r) => decodeRow(r as Parameters<typeof decodeRow>[0])).filter((r) => canRead(r, options.actor));
  const count = (values: unknown[]) => {
    const counts = new Map<string, number>();
    for (const v of values) if (typeof v === 'string' && v) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit).map(([value, n]) => ({ value, count: n }));
  };
  return {
    tags: count(rows.flatMap((r) => (Array.isArray(r.tags) ? r.tags : []))),
    types: count(rows.map((r) => r.type)),
    subjects: count(rows.map((r) => r.subject)),
    memories: rows.length,
  };
}

export interface RelatedMemory {
  readonly id: string;
  readonly text: string;
  readonly type?: string;
  readonly tags?: readonly string[];
  readonly time?: string;
}

/** The `k` memories a semantic search for `request` finds, as the caller may see them. */
export function relatedMemories(store: Store, request: string, k: number, options: { actor?: string; now?: Date | string } = {}): RelatedMemory[] {
  if (k <= 0 || !request.trim()) return [];
  const ir = { stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: request }, limit: k } }, args: { include: ['id', 'text', 'type', 'tags', 'time'] } };
  const result = explain(store, [ir], { actor: options.actor, now: options.now });
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

/** The store part of the system prompt. */
export function describeStore(vocabulary: Vocabulary | undefined, related: readonly RelatedMemory[]): string {
  const parts: string[] = [];
  if (vocabulary) {
    const list = (xs: Vocabulary['tags']) => (xs.length ? xs.map((x) => `${JSON.stringify(x.value)} (${x.count})`).join(', ') : '(none)');
    parts.push(
      `## The store\n\n${vocabulary.memories} live memories. Prefer these existing values in filters (value (count)):`,
      `- tags: ${list(vocabulary.tags)}`,
      `- types: ${list(vocabulary.types)}`,
      `- subjects: ${list(vocabulary.subjects)}`,
    );
  }
  if (related.length) {
    parts.push('', '## Memories related to the request (id, type, tags, time, text)', '');
    for (const m of related) parts.push(`- #${m.id} ${m.type ?? ''} ${JSON.stringify(m.tags ?? [])} ${m.time ?? ''} ${JSON.stringify(m.text)}`);
  }
  return parts.join('\n');
}
