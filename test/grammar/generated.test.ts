import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIR, GENERATED_FILES, renderDiagrams, renderEbnf } from '../../grammar/generate.ts';

describe('generated grammar artefacts', () => {
  for (const [name, render] of GENERATED_FILES) {
    it(`grammar/generated/${name} is up to date (run \`npm run grammar\`)`, () => {
      expect(readFileSync(join(GENERATED_DIR, name), 'utf8')).toBe(render());
    });
  }

  it('the diagrams page is self-contained (no external scripts or styles)', () => {
    const html = renderDiagrams();
    expect(html).not.toMatch(/<script src=|<link rel=|https?:\/\/unpkg/);
    expect(html).toContain('drawDiagramsFromSerializedGrammar');
  });

  it('the EBNF lists every rule once', () => {
    const ebnf = renderEbnf();
    for (const rule of ['script', 'statement', 'whereClause', 'searchCondition', 'timeRange', 'value', 'object']) {
      expect(ebnf.match(new RegExp(`^${rule} ::=`, 'gm'))).toHaveLength(1);
    }
  });
});
