/**
 * Every ```t2m block in spec/*.md is a tested example: it must parse and convert without
 * diagnostics. (The checker engineer extends this to run the checker on them.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/syntax/index.ts';
import { astToIr } from '../../src/convert/index.ts';

const SPEC = resolve(import.meta.dirname, '../../spec');

export interface SpecExample {
  readonly file: string;
  /** 1-based line of the first line of code in the block. */
  readonly line: number;
  readonly code: string;
}

/** The ```t2m fenced blocks of every spec/*.md file. */
export function specExamples(): SpecExample[] {
  const out: SpecExample[] = [];
  for (const file of readdirSync(SPEC).filter((f) => f.endsWith('.md')).sort()) {
    const lines = readFileSync(join(SPEC, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/^\s*```t2m\s*$/.test(lines[i])) continue;
      const start = i + 1;
      let end = start;
      while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
      out.push({ file, line: start + 1, code: lines.slice(start, end).join('\n') });
      i = end;
    }
  }
  return out;
}

describe('spec examples', () => {
  const examples = specExamples();

  it('finds the examples of spec/syntax.md', () => {
    expect(examples.filter((e) => e.file === 'syntax.md').length).toBeGreaterThanOrEqual(8);
  });

  for (const ex of examples) {
    it(`${ex.file}:${ex.line} parses and converts without diagnostics`, () => {
      const parsed = parse(ex.code);
      const converted = astToIr(parsed.script);
      const diagnostics = [...parsed.diagnostics, ...converted.diagnostics].map(
        (d) => `${ex.file}:${ex.line - 1 + (d.range?.start.line ?? 1)}: ${d.code} ${d.message}`,
      );
      expect(diagnostics).toEqual([]);
      expect(parsed.script.statements.length).toBeGreaterThan(0);
    });
  }
});
