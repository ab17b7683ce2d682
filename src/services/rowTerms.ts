/** The tags, types and subjects present in a set of memory rows (live ones), for completion. */
import type { StoreVocabulary } from './completion.js';
import type { Row } from './timeline.js';

function tagsOf(value: unknown): string[] {
  if (typeof value !== 'string') return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

const sorted = (values: Iterable<string>): string[] => [...new Set(values)].filter((v) => v !== '').sort((a, b) => a.localeCompare(b));

export function termsOfRows(rows: readonly Row[]): StoreVocabulary {
  const live = rows.filter((r) => !r.deleted);
  return {
    tags: sorted(live.flatMap((r) => tagsOf(r.tags))),
    types: sorted(live.map((r) => r.type).filter((t): t is string => typeof t === 'string')),
    subjects: sorted(live.map((r) => r.subject).filter((s): s is string => typeof s === 'string')),
  };
}
