/**
 * What a suite of the perf harness (perf/run.ts) is, and how it reaches the project it measures:
 * the checkout at `root` (this one, or the `--vs` worktree), through its public entries only.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** One round's figures: name (with its unit) → value. */
export type Figures = Record<string, number>;

export interface Suite {
  /** Rounds when `--rounds` is not given. */
  readonly rounds: number;
  /** Suite flags (`--name value`), passed to each round. */
  readonly flags: readonly string[];
  /** Whether the suite runs the built CLI (dist/cli/t2m.js): `--vs` then builds the other side. */
  readonly needsBuild: boolean;
  /** A problem with the flags, reported before any round runs. */
  check?(flags: Record<string, string>): string | undefined;
  /** Runs one round on the checkout at `root` (in a fresh process) and returns its figures. */
  round(root: string, flags: Record<string, string>): Promise<Figures>;
  /** Printed under the table. */
  readonly notes?: string;
}

/** The project's Node entry (src/node.ts, which re-exports src/index.ts) in the checkout at `root`. */
export async function project(root: string): Promise<typeof import('../../src/node.js')> {
  return import(pathToFileURL(join(root, 'src/node.ts')).href);
}

/** The median of `xs`. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** `--sizes 1000,10000` as numbers, or a problem. */
export function sizes(flags: Record<string, string>, fallback: readonly number[]): number[] {
  return flags.sizes === undefined ? [...fallback] : flags.sizes.split(',').map(Number);
}

export function checkSizes(flags: Record<string, string>): string | undefined {
  if (flags.sizes === undefined) return undefined;
  return flags.sizes.split(',').every((s) => /^[1-9]\d*$/.test(s)) ? undefined : `--sizes takes whole numbers separated by commas, not ${flags.sizes}`;
}

/** What a suite measured at `--sizes` on the sources in-process (no build) declares besides its rounds. */
export const SIZED = { flags: ['sizes'], needsBuild: false, check: checkSizes } as const;

/** The `p` quantile of `xs` (0.5: the upper median; 0.95: p95), by the nearest rank below. */
export function quantile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

/** The upstream benchmark file of this checkout (the same data for both sides). */
export const BENCHMARK = join(import.meta.dirname, '../../fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl');
