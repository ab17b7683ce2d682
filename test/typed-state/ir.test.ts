/**
 * The typed-state IR extension (spec/syntax.md §12.1): its clauses round-trip DSL → IR → DSL, no
 * upstream IR uses its keys (so the upstream round trip cannot change), and the formatter writes
 * the two-word clauses `VALID FROM` and `AS OF` in their canonical place.
 */
import { describe, expect, it } from 'vitest';
import { corpusIrs } from '../ir-corpus.js';
import { irsToScript } from '../../src/convert/index.js';
import { print } from '../../src/convert/index.js';
import { textToIr } from '../../src/pipeline.js';

const ARGS = ['attribute', 'valid_from', 'episode', 'confidence', 'retention', 'schema_version', 'as_of', 'history', 'tenant'];

describe('the typed-state IR extension', () => {
  it('writes each clause to its documented path and prints it back canonically', () => {
    const text = `ENCODE "2026-06-30" SUBJECT "mira" ATTRIBUTE "passport_deadline" VALID FROM 2026-06-03T10:00:00Z EPISODE "e2" CONFIDENCE 0.9 RETENTION durable;
RETRIEVE WHERE subject = "mira" AND attribute = "passport_deadline" AS OF 2026-06-02T00:00:00Z INCLUDE text AS "ops";
RETRIEVE WHERE subject = "mira" HISTORY;
SUMMARIZE WHERE subject = "mira" AS OF 2026-06-02T00:00:00Z;
`;
    const r = textToIr(text);
    expect(r.diagnostics).toEqual([]);
    expect(r.irs).toEqual([
      { stage: 'ENC', op: 'Encode', args: { payload: { text: '2026-06-30' }, subject: 'mira', attribute: 'passport_deadline', valid_from: '2026-06-03T10:00:00Z', episode: 'e2', confidence: 0.9, retention: 'durable' } },
      { stage: 'RET', op: 'Retrieve', target: { filter: { subject: 'mira', attribute: 'passport_deadline' } }, args: { as_of: '2026-06-02T00:00:00Z', include: ['text'] }, meta: { actor: 'ops' } },
      { stage: 'RET', op: 'Retrieve', target: { filter: { subject: 'mira' } }, args: { history: true } },
      { stage: 'RET', op: 'Summarize', target: { filter: { subject: 'mira' } }, args: { as_of: '2026-06-02T00:00:00Z' } },
    ]);
    const printed = print(irsToScript(r.irs));
    expect(printed).toContain('AS OF 2026-06-02T00:00:00Z');
    expect(printed).toContain('VALID FROM 2026-06-03T10:00:00Z');
    expect(textToIr(printed).irs).toEqual(r.irs);
  });

  it('AS "actor" and AS OF t are told apart by the word after AS', () => {
    const r = textToIr('RETRIEVE ALL AS OF 2026-06-02T00:00:00Z AS "of" CONFIRM;');
    expect(r.irs[0]).toMatchObject({ args: { as_of: '2026-06-02T00:00:00Z' }, meta: { actor: 'of', confirmation: true } });
  });

  it('is used by no upstream IR', () => {
    const keys = (v: unknown, out: Set<string>): Set<string> => {
      if (Array.isArray(v)) v.forEach((x) => keys(x, out));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (out.add(k), keys(x, out));
      return out;
    };
    const used = new Set<string>();
    for (const { ir } of corpusIrs()) {
      const args = (ir as { args?: unknown }).args;
      if (args && typeof args === 'object') for (const k of Object.keys(args)) used.add(k);
      keys((ir as { target?: { filter?: unknown } }).target?.filter, used);
    }
    expect(ARGS.filter((k) => used.has(k))).toEqual([]);
  });
});
