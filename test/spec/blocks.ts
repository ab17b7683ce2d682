/**
 * The ```t2m fenced blocks of the spec, with their `expect-…` markers. A block opened as
 * ```` ```t2m expect-error=<code> expect-warning=<code> ```` must produce exactly those
 * diagnostics (one per marker, a marker may repeat); a plain block must produce none.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SPEC_DIR = resolve(import.meta.dirname, '../../spec');

export interface Expected {
  readonly severity: 'error' | 'warning';
  readonly code: string;
}

export interface Block {
  readonly file: string;
  /** 1-based line of the first line of code in the block. */
  readonly line: number;
  readonly source: string;
  readonly expect: readonly Expected[];
}

/** The ```t2m blocks of one markdown text. */
export function t2mBlocks(markdown: string, file = ''): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```t2m(?:\s+(.*))?$/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    while (i + 1 < lines.length && !/^\s*```\s*$/.test(lines[i + 1])) i++;
    const source = lines.slice(start, i + 1).join('\n');
    i++;
    const expect = [...(open[1] ?? '').matchAll(/expect-(error|warning)=([a-z-]+)/g)].map((m) => ({ severity: m[1] as Expected['severity'], code: m[2] }));
    blocks.push({ file, line: start + 1, source, expect });
  }
  return blocks;
}

/** The ```t2m blocks of every spec/*.md file, in file order. */
export function specBlocks(): Block[] {
  return readdirSync(SPEC_DIR)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .flatMap((file) => t2mBlocks(readFileSync(join(SPEC_DIR, file), 'utf8'), file));
}

/** A diagnostic list in a canonical order, so two multisets compare with `toEqual`. */
export function sortExpected(list: readonly Expected[]): Expected[] {
  return [...list].sort((a, b) => a.severity.localeCompare(b.severity) || a.code.localeCompare(b.code));
}
