/**
 * spec/checks.md is tested: every ```t2m block is parsed and checked. A plain block must produce
 * no diagnostics; a block marked `expect-error=<code>` or `expect-warning=<code>` must produce
 * exactly that one diagnostic. Every code a rule can report is documented with a failing example.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleCodes } from '../../src/check/index.ts';
import { textToIr } from '../../src/pipeline.ts';

const SPEC = resolve(import.meta.dirname, '../../spec/checks.md');
const text = readFileSync(SPEC, 'utf8');

interface Block {
  readonly line: number;
  readonly source: string;
  readonly expect?: { severity: string; code: string };
}

/** Fenced ```t2m blocks, with the line they start on and their `expect-…` marker. */
function t2mBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```t2m(?:\s+(.*))?$/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    while (i + 1 < lines.length && !/^```\s*$/.test(lines[i + 1])) i++;
    const source = lines.slice(start, i + 1).join('\n');
    i++;
    const marker = /expect-(error|warning)=([a-z-]+)/.exec(open[1] ?? '');
    blocks.push({ line: start, source, expect: marker ? { severity: marker[1], code: marker[2] } : undefined });
  }
  return blocks;
}

const blocks = t2mBlocks(text);

describe('spec/checks.md', () => {
  it('has examples', () => {
    expect(blocks.length).toBeGreaterThan(40);
  });

  it.each(blocks.map((b) => [`line ${b.line}: ${b.source}`, b] as const))('%s', (_, block) => {
    const got = textToIr(block.source).diagnostics.map((d) => ({ severity: d.severity, code: d.code }));
    expect(got).toEqual(block.expect ? [block.expect] : []);
  });

  it('documents every rule code with a heading or table row and a failing example', () => {
    const failing = new Set(blocks.flatMap((b) => (b.expect ? [b.expect.code] : [])));
    for (const [code, { rule }] of ruleCodes()) {
      expect(text, `${code} (${rule}) is not documented`).toMatch(new RegExp(`^## ${code}$|\`${code}\``, 'm'));
      expect(failing.has(code), `${code} has no failing example`).toBe(true);
      expect(text, `${rule} is not named`).toContain(`\`${rule}\``);
    }
  });

  it("links every rule file's header to an existing section", () => {
    const headings = new Set([...text.matchAll(/^## (.+)$/gm)].map((m) => m[1].trim().toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));
    const dir = resolve(import.meta.dirname, '../../src/check/rules');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('Rule.ts'))) {
      const source = readFileSync(resolve(dir, file), 'utf8');
      const link = /Spec: spec\/checks\.md#([a-z0-9-]+)/.exec(source);
      expect(link?.[1], `${file} has no spec link`).toBeDefined();
      expect(headings.has(link![1]), `${file} links to a missing section #${link![1]}`).toBe(true);
      expect(source, `${file} has no invariant`).toMatch(/^ \* Invariant: /m);
    }
  });
});
