/**
 * Every ```t2m block of every spec/*.md file is a tested example: it goes through the whole
 * front end (`textToIr`: parse, convert, validate, check) and must produce exactly the
 * diagnostics its fence marks (`expect-error=<code>`, `expect-warning=<code>`), none otherwise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textToIr } from '../../src/pipeline.js';
import { SPEC_DIR, sortExpected, specBlocks, t2mBlocks } from './blocks.js';

describe('spec examples', () => {
  const blocks = specBlocks();

  it('reads every spec file and finds the examples of syntax.md and checks.md', () => {
    const files = readdirSync(SPEC_DIR).filter((f) => f.endsWith('.md'));
    expect(files).toEqual(expect.arrayContaining(['checks.md', 'semantics.md', 'syntax.md']));
    // Every file is scanned: a block added to any of them (semantics.md has none yet) is tested.
    const scanned = files.flatMap((f) => t2mBlocks(readFileSync(join(SPEC_DIR, f), 'utf8'), f));
    expect(blocks).toEqual(expect.arrayContaining(scanned));
    expect(blocks.length).toBe(scanned.length);
    expect(blocks.filter((b) => b.file === 'syntax.md').length).toBeGreaterThanOrEqual(8);
    expect(blocks.filter((b) => b.file === 'checks.md').length).toBeGreaterThan(40);
  });

  it('reads repeated markers from a fence', () => {
    const [block] = t2mBlocks('```t2m expect-error=exclusive-args expect-error=exclusive-args expect-warning=write-without-limit\nX;\n```\n');
    expect(block.expect).toEqual([
      { severity: 'error', code: 'exclusive-args' },
      { severity: 'error', code: 'exclusive-args' },
      { severity: 'warning', code: 'write-without-limit' },
    ]);
  });

  for (const block of blocks) {
    it(`${block.file}:${block.line} parses and checks as marked`, () => {
      const result = textToIr(block.source);
      const got = result.diagnostics.map((d) => ({ severity: d.severity as 'error' | 'warning', code: d.code }));
      const where = result.diagnostics.map((d) => `${block.file}:${block.line - 1 + (d.range?.start.line ?? 1)}: ${d.severity} ${d.code} ${d.message}`);
      expect(sortExpected(got), where.join('\n')).toEqual(sortExpected(block.expect));
      expect(result.script?.statements.length ?? 0).toBeGreaterThan(0);
    });
  }
});
