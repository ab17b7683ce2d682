/**
 * The generated GBNF (grammar/generated/grammar.gbnf) is matched, with the small interpreter in
 * ./gbnf.ts, against every canonical DSL text the project has: the corpus scripts, the spec's and
 * README's examples (formatted), and upstream IRs printed by `irsToText`. Constrained decoding
 * under a grammar that rejects the printer's output could never emit it. It must also reject
 * what the parser or the clause table rejects.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIR } from '../../scripts/grammar-artefacts.js';
import { formatText, irsToText, textToIr } from '../../src/pipeline.js';
import { validateIr } from '../../src/ir/validate.js';
import type { IR } from '../../src/ir/schema.js';
import { VERBS, parse, type VerbName } from '../../src/syntax/index.js';
import { verbTakesClause } from '../../src/syntax/verbClauses.js';
import { astToIr } from '../../src/convert/index.js';
import { corpusIrs } from '../ir-corpus.js';
import { specBlocks, t2mBlocks } from '../spec/blocks.js';
import { Gbnf } from './gbnf.js';

const ROOT = resolve(import.meta.dirname, '../..');
const gbnf = new Gbnf(readFileSync(join(GENERATED_DIR, 'grammar.gbnf'), 'utf8'));

function formatted(source: string, where: string): string {
  const f = formatText(source);
  if (f.text === undefined) throw new Error(`${where} does not format: ${f.diagnostics.map((d) => d.message).join('; ')}`);
  return f.text;
}

describe('the GBNF matcher', () => {
  it('matches literals, classes, groups and repetition, and can fail', () => {
    const g = new Gbnf('root ::= "a" ( [0-9]+ | [^a-z\\n] )? "-"* [xX]\nother ::= root');
    expect(g.accepts('a12--x')).toBe(true);
    expect(g.accepts('a#X')).toBe(true);
    expect(g.accepts('ax')).toBe(true);
    expect(g.accepts('abx')).toBe(false);
    expect(g.accepts('a12--')).toBe(false);
    expect(() => new Gbnf('root ::= missing')).toThrow(/undefined missing/);
  });
});

describe('grammar.gbnf accepts every canonical DSL text', () => {
  it('the corpus scripts, formatted', () => {
    const dir = join(ROOT, 'test/corpus');
    const files = readdirSync(dir).filter((f) => f.endsWith('.t2m'));
    expect(files.length).toBeGreaterThanOrEqual(10);
    const rejected = files.filter((f) => !gbnf.accepts(formatted(readFileSync(join(dir, f), 'utf8'), f)));
    expect(rejected).toEqual([]);
  });

  it('the t2m examples of spec/*.md and README.md, formatted (except those with a clause the verb does not take)', () => {
    const blocks = [...specBlocks(), ...t2mBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'), 'README.md')];
    let checked = 0;
    const rejected: string[] = [];
    for (const b of blocks) {
      const f = formatText(b.source);
      if (f.text === undefined) continue; // a syntax error on purpose: see the negative cases below
      if (textToIr(f.text).diagnostics.some((d) => d.code === 'clause-not-allowed')) {
        expect(gbnf.accepts(f.text), `${b.file}:${b.line} has a clause its verb does not take`).toBe(false);
        continue;
      }
      checked++;
      if (!gbnf.accepts(f.text)) rejected.push(`${b.file}:${b.line}`);
    }
    expect(rejected).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(50);
  });

  it('300 upstream IRs printed by irsToText, one by one and as one script', () => {
    const all = corpusIrs();
    const step = Math.floor(all.length / 300);
    const irs: IR[] = [];
    for (let i = 0; i < all.length && irs.length < 300; i += step) {
      const v = validateIr(all[i].ir);
      if (v.ir) irs.push(v.ir);
    }
    expect(irs.length).toBeGreaterThanOrEqual(280);
    const rejected = irs.map((ir) => irsToText([ir])).filter((text) => !gbnf.accepts(text));
    expect(rejected).toEqual([]);
    expect(gbnf.accepts(irsToText(irs.slice(0, 40)))).toBe(true);
  });

  it('keywords in any case, a final comment without a line break, and CRLF', () => {
    for (const text of ['retrieve all confirm;', 'Retrieve ALL Confirm', 'PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight = 0.9;',
      'ENCODE "a";\n# the end', 'ENCODE "a" TAGS "x",\r\n  "y";\r\nDELETE ID "1" SOFT;\r\n', 'EXPIRE ID "1" TTL PT1.5S UNTIL 2025-01-01T00:00:00+0800;']) {
      expect(gbnf.accepts(text), text).toBe(true);
      expect(parse(text).diagnostics, text).toEqual([]);
    }
  });
});

describe('grammar.gbnf rejects what the parser or the clause table rejects', () => {
  it('statements not separated by ;', () => {
    expect(gbnf.accepts('ENCODE "a" RETRIEVE ALL CONFIRM')).toBe(false);
    expect(gbnf.accepts('ENCODE "a"; RETRIEVE ALL CONFIRM')).toBe(true);
  });

  it('a comment that swallows the rest of its line, and other syntax errors', () => {
    // A comment runs to the end of its line, for the GBNF as for the lexer: only a line break ends it.
    expect(gbnf.accepts('ENCODE "a" # note TAGS "x"')).toBe(true);
    expect(parse('ENCODE "a" # note TAGS "x"').script.statements[0].clauses).toEqual([]);
    expect(gbnf.accepts('ENCODE "a" # note\nTAGS "x"')).toBe(true);
    expect(gbnf.accepts('ENCODE "a" # note\nTAGS "x" "y"')).toBe(false);
    for (const bad of ['ENCOD "a";', 'ENCODE "a" TYPE;', 'RETRIEVE WHERE tags HAS;', 'ENCODE "a" TAGS "x" "y";', 'ENCODE "a\\q";', 'RETRIEVE ID 1 2;']) {
      expect(gbnf.accepts(bad), bad).toBe(false);
      expect(parse(bad).diagnostics.length, bad).toBeGreaterThan(0);
    }
  });

  it('for each verb, exactly the clauses astToIr lets it take', () => {
    // One sample of each clause, by its first keyword.
    const samples: Record<string, string> = {
      ID: 'ID "1"', IDS: 'IDS "1", "2"', ALL: 'ALL', WHERE: 'WHERE tags HAS "x"', SET: 'SET a = 1', WITH: 'WITH meta.x = 1', STAGE: 'STAGE STO',
      TYPE: 'TYPE note', TAGS: 'TAGS "a"', TIME: 'TIME 2025-01-01', SOURCE: 'SOURCE "s"', SUBJECT: 'SUBJECT "s"', LOCATION: 'LOCATION "l"',
      TOPIC: 'TOPIC "t"', URL: 'URL "u"', STRUCTURED: 'STRUCTURED { a: 1 }', PAYLOAD: 'PAYLOAD { context: "c" }', FACETS: 'FACETS { a: "b" }',
      MODE: 'MODE read_only', REASON: 'REASON "r"', POLICY: 'POLICY { allow: [Retrieve] }', INTO: 'INTO "1"', STRATEGY: 'STRATEGY merge_into_primary',
      TTL: 'TTL P1D', UNTIL: 'UNTIL 2025-01-01', THEN: 'THEN soft_delete', FOCUS: 'FOCUS "f"', REMIND: 'REMIND "FREQ=DAILY"', BY: 'BY 0.1',
      INCLUDE: 'INCLUDE id, text', MAX: 'MAX 100 TOKENS', OLDER: 'OLDER THAN P30D', WITHIN: 'WITHIN LAST 7 DAYS',
      ARCHIVE: 'ARCHIVE', SOFT: 'SOFT', HARD: 'HARD', CONFIRM: 'CONFIRM', DRY: 'DRY RUN',
      AS: 'AS "me"', LANG: 'LANG "en"', TRACE: 'TRACE "t"', AT: 'AT 2025-01-01T00:00:00Z', COMMENT: 'COMMENT "c"',
    };
    let accepted = 0;
    for (const verb of VERBS as VerbName[]) {
      for (const [keyword, clause] of Object.entries(samples)) {
        const text = `${verb}${verb === 'ENCODE' ? ' "t"' : ''} ${clause};`;
        const parsed = parse(text);
        expect(parsed.diagnostics, text).toEqual([]);
        const allowed = !astToIr(parsed.script).diagnostics.some((d) => d.code === 'clause-not-allowed');
        expect(verbTakesClause(verb, keyword), text).toBe(allowed);
        expect(gbnf.accepts(text), text).toBe(allowed);
        if (allowed) accepted++;
      }
      // Only ENCODE starts with a text.
      expect(gbnf.accepts(`${verb} "t" ALL;`), verb).toBe(verb === 'ENCODE');
    }
    expect(accepted).toBeGreaterThan(100);
    expect(gbnf.accepts('DELETE ALL TYPE note;')).toBe(false);
  });
});
