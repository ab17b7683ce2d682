/** "Did you mean" suggestions for misspelt verbs, fields and enum values. */
import { distance } from 'fastest-levenshtein';

/** True when `a` turns into `b` by swapping two adjacent characters (a common typo). */
function isTransposition(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i < a.length - 1 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** Edit distance where swapping two adjacent characters counts as one edit. */
export function typoDistance(a: string, b: string): number {
  return isTransposition(a, b) ? 1 : distance(a, b);
}

/**
 * The candidate closest to `word` within `maxDistance` edits (case-insensitive), or undefined.
 * Short words get at most one edit, so that e.g. a facet key `type` is not taken for `time`.
 * Ties go to the earlier candidate so suggestions are stable.
 */
export function closest(word: string, candidates: Iterable<string>, maxDistance = 2): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  const allowed = w.length <= 5 ? Math.min(maxDistance, 1) : maxDistance;
  for (const c of candidates) {
    // Lengths further apart than the allowed edits cannot be within them (and a word of
    // megabytes is not measured against every keyword).
    if (Math.abs(c.length - w.length) > allowed) continue;
    const d = typoDistance(w, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= allowed ? best : undefined;
}
