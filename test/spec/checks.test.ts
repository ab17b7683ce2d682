/**
 * spec/checks.md is tested: every ```t2m block is parsed and checked. A plain block must produce
 * no diagnostics; a block marked `expect-error=<code>` or `expect-warning=<code>` must produce
 * exactly the marked diagnostics, in order (the marker syntax is `./blocks.ts`'s). Every code a
 * rule can report is documented with a failing example.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleCodes } from '../../src/check/index.js';
import { textToIr } from '../../src/pipeline.js';
import { SPEC_DIR, t2mBlocks } from './blocks.js';

const SPEC = resolve(SPEC_DIR, 'checks.md');
const text = readFileSync(SPEC, 'utf8');

const blocks = t2mBlocks(text, 'checks.md');

describe('spec/checks.md', () => {
  it('has examples', () => {
    expect(blocks.length).toBeGreaterThan(40);
  });

  it.each(blocks.map((b) => [`line ${b.line}: ${b.source}`, b] as const))('%s', (_, block) => {
    const got = textToIr(block.source).diagnostics.map((d) => ({ severity: d.severity, code: d.code }));
    expect(got).toEqual(block.expect);
  });

  it('documents every rule code with a heading or table row and a failing example', () => {
    const failing = new Set(blocks.flatMap((b) => b.expect.map((e) => e.code)));
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
