/** "Did you mean" suggestions for misspelt verbs, fields and enum values. */
import { distance } from 'fastest-levenshtein';

/**
 * The candidate closest to `word` within `maxDistance` edits (case-insensitive), or undefined.
 * Ties go to the earlier candidate so suggestions are stable.
 */
export function closest(word: string, candidates: Iterable<string>, maxDistance = 2): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(w, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.min(maxDistance, Math.max(1, Math.floor(w.length / 2))) ? best : undefined;
}
