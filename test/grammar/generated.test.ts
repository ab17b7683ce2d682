import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIR, GENERATED_FILES, renderDiagrams, renderEbnf } from '../../scripts/grammar-artefacts.js';
import { renderGbnf } from '../../src/syntax/gbnf.js';

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

  it('the GBNF defines every rule it uses, and needs white space only between words', () => {
    const gbnf = renderGbnf();
    const defined = new Set([...gbnf.matchAll(/^([a-z][a-z-]*) ::=/gm)].map((m) => m[1]));
    const bodies = gbnf.split('\n').filter((l) => l.includes('::=')).map((l) => l.split('::=')[1].replace(/"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]/g, ''));
    const used = new Set(bodies.flatMap((b) => b.match(/[a-z][a-z-]*/g) ?? []));
    for (const name of used) expect(defined, name).toContain(name);
    expect(gbnf).toMatch(/^where-clause ::= \[wW\]\[hH\]\[eE\]\[rR\]\[eE\] sp condition \( sp \[aA\]\[nN\]\[dD\] sp condition \)\* \( sp \[lL\]\[iI\]\[mM\]\[iI\]\[tT\] sp value \)\?$/m);
    expect(gbnf).toMatch(/^entry ::= key ws ":" ws element$/m);
    expect(gbnf).toMatch(/^script ::= \( statement \( ws ";" ws statement \)\* \( ws ";" \)\? \)\?$/m);
    // One statement rule per verb; no rule is left that nothing uses.
    for (const name of defined) if (!['root'].includes(name)) expect(used, name).toContain(name);
  });
});
