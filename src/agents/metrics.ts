/** The string-match measures of spec/planning.md#metrics (SMA_lev, SMA_cos) over IR lists. */

/** JSON with object keys sorted recursively and no whitespace. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** Levenshtein distance over code points (two rows). */
export function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  if (!x.length) return y.length;
  if (!y.length) return x.length;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  let cur = new Array<number>(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length];
}

/** 1 − lev / max length (1 for two empty strings). */
export function levenshteinSimilarity(a: string, b: string): number {
  const n = Math.max([...a].length, [...b].length);
  return n === 0 ? 1 : 1 - levenshtein(a, b) / n;
}

const TOKEN = /\p{Script=Han}|[\p{L}\p{N}_]+/gu;

/** Cosine of the token-count vectors (1 for two texts without tokens, 0 when one has none). */
export function cosineSimilarity(a: string, b: string): number {
  const count = (s: string) => {
    const m = new Map<string, number>();
    for (const t of s.toLowerCase().match(TOKEN) ?? []) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  };
  const x = count(a);
  const y = count(b);
  if (!x.size && !y.size) return 1;
  if (!x.size || !y.size) return 0;
  let dot = 0;
  for (const [t, n] of x) dot += n * (y.get(t) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((s, n) => s + n * n, 0));
  return dot / (norm(x) * norm(y));
}
