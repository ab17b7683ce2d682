/** Soft keywords: a keyword that is also a value word reads as that word where a value is expected. */
import { describe, expect, it } from 'vitest';
import { SOFT_KEYWORDS } from '../../src/language/index.js';
import type { IR } from '../../src/ir/schema.js';
import { irsToText, textToIr } from '../../src/pipeline.js';

const irOf = (text: string) => {
  const r = textToIr(text);
  expect(r.diagnostics.filter((d) => d.severity === 'error'), text).toEqual([]);
  return r.irs[0] as IR & { args?: Record<string, unknown> };
};

describe('soft keywords', () => {
  it('are the keywords that are also an enum or level value', () => {
    expect([...SOFT_KEYWORDS].sort()).toEqual(['DEMOTE', 'EPISODE']);
  });

  it('read as the value word after a value clause, and stay keywords elsewhere', () => {
    expect(irOf('EXPIRE IDS 1 TTL P1D THEN demote;').args?.on_expire).toBe('demote');
    expect(irOf('ENCODE "x" LEVEL episode;').args?.level).toBe('episode');
    expect(irOf('RETRIEVE WHERE search CONTEXT "state" K 5 LEVEL turn EXPAND episode;').args?.expand).toBe('episode');
    expect(irOf('ENCODE "2026-06-30" SUBJECT mira ATTRIBUTE deadline EPISODE "e2";').args?.episode).toBe('e2');
    expect(textToIr('DEMOTE IDS 1 BY 0.1;').diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('print bare in a value position and round-trip', () => {
    const text = irsToText([irOf('EXPIRE IDS 1 TTL P1D THEN demote;'), irOf('ENCODE "x" LEVEL episode;')]);
    expect(text).toContain('THEN demote');
    expect(text).toContain('LEVEL episode');
    expect(textToIr(text).irs.map((ir) => (ir as { args?: unknown }).args)).toEqual([irOf('EXPIRE IDS 1 TTL P1D THEN demote;').args, irOf('ENCODE "x" LEVEL episode;').args]);
  });
});
