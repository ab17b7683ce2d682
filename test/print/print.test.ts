import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from '../../src/syntax/index.js';
import { print } from '../../src/convert/index.js';
import { astToIr } from '../../src/convert/index.js';

function fmt(src: string): string {
  const r = parse(src);
  expect(r.diagnostics).toEqual([]);
  return print(r.script);
}

describe('print', () => {
  it('prints every number literal exactly as written in the source it is given', () => {
    const src = 'ENCODE "big" SET n = 12345678901234567890, f = 1.50, e = 1E3, z = -0.0, k = 1.5, again = 1.50;\nRETRIEVE WHERE time IN LAST 7 DAYS LIMIT 1e1;';
    const r = parse(src);
    expect(print(r.script, { source: src })).toBe(
      'ENCODE "big" SET n = 12345678901234567890, f = 1.50, e = 1E3, z = -0.0, k = 1.5, again = 1.50;\nRETRIEVE WHERE time IN LAST 7 DAYS LIMIT 1e1;\n',
    );
    // A tree built from IR has only values: shortest form.
    expect(print(r.script)).toContain('n = 12345678901234567000, f = 1.5, e = 1000, z = -0');
  });

  it('keeps number literals as written when the statement is wrapped (each pass spells them again)', () => {
    const src = 'RETRIEVE WHERE weight >= 0.50 AND weight <= 0.90 AND tags HAS "a" LIMIT 1E1 INCLUDE id, text';
    expect(print(parse(src).script, { source: src, width: 40 })).toBe(
      'RETRIEVE\n  WHERE tags HAS "a"\n    AND weight >= 0.50\n    AND weight <= 0.90 LIMIT 1E1\n  INCLUDE id, text;\n',
    );
  });

  it('keeps number literals as written in a statement with comments inside too', () => {
    const src = 'PROMOTE ID "1"\n  # why\n  SET weight 0.90;';
    expect(print(parse(src).script, { source: src })).toBe('PROMOTE ID "1"\n  # why\n  SET weight = 0.90;\n');
  });

  it('upper-cases keywords, orders clauses, ends statements with ;', () => {
    expect(fmt('encode "x" tags "a" type note source "s"')).toBe('ENCODE "x" TYPE note TAGS "a" SOURCE "s";\n');
    expect(fmt('promote where search "OKR progress" limit 5 set weight 0.9')).toBe('PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight = 0.9;\n');
    expect(fmt('delete confirm soft all')).toBe('DELETE ALL SOFT CONFIRM;\n');
  });

  it('puts the search first so its LIMIT stays its own, and the filter LIMIT last', () => {
    expect(fmt('RETRIEVE WHERE tags HAS "a" AND search "q" LIMIT 5;')).toBe('RETRIEVE WHERE search "q" LIMIT 5 AND tags HAS "a";\n');
    expect(fmt('RETRIEVE WHERE search "q" LIMIT 5 AND tags HAS "a" LIMIT 9;')).toBe('RETRIEVE WHERE search "q" LIMIT 5 AND tags HAS "a" LIMIT 9;\n');
  });

  it('writes bare words only where they read back as the same string', () => {
    expect(fmt('ENCODE "x" TYPE "all" TIME "2025-01-01T00:00:00Z" SOURCE "src";')).toBe('ENCODE "x" TYPE "all" TIME 2025-01-01T00:00:00Z SOURCE "src";\n');
    expect(fmt('RETRIEVE ALL INCLUDE "id", "text" CONFIRM;')).toBe('RETRIEVE ALL INCLUDE id, text CONFIRM;\n');
  });

  it('wraps long statements one clause per line, and long WHERE clauses at AND', () => {
    const long = 'LOCK WHERE tags HAS "incident:p1-network", "postmortem", "database" AND time IN LAST 7 DAYS AND type = incident LIMIT 200 MODE read_only REASON "audit after the incident" AS "sre-ling";';
    expect(fmt(long)).toBe([
      'LOCK',
      '  WHERE tags HAS "incident:p1-network", "postmortem", "database"',
      '    AND time IN LAST 7 DAYS',
      '    AND type = incident LIMIT 200',
      '  MODE read_only',
      '  REASON "audit after the incident"',
      '  AS "sre-ling";',
      '',
    ].join('\n'));
  });

  it('keeps comments in place and single blank lines between statements', () => {
    const src = '# header\nENCODE "a"; # first\n\n\n# about b\nENCODE "b" # inside\n  TAGS "t";\n# end\n';
    expect(fmt(src)).toBe('# header\nENCODE "a"; # first\n\n# about b\nENCODE "b"\n  # inside\n  TAGS "t";\n\n# end\n');
  });

  it('keeps comments inside a statement with their clauses', () => {
    const src = [
      'LOCK WHERE tags HAS "x" # which records',
      '  # why read-only:',
      '  MODE read_only',
      '  REASON "audit" # for legal',
      '  AS "sre"; # done',
      '',
    ].join('\n');
    expect(fmt(src)).toBe(src);
    expect(fmt('DELETE ALL # everything\n SOFT;')).toBe('DELETE ALL # everything\n  SOFT;\n');
    expect(fmt('DELETE ALL SOFT # soft\n;')).toBe('DELETE ALL SOFT; # soft\n');
    expect(fmt('DELETE ALL # a\n SOFT # b\n; # c')).toBe('DELETE ALL # a\n  # b\n  SOFT; # c\n');
  });

  it('is idempotent and does not change the meaning', () => {
    const srcs = [
      'lock where tags has "x" and time in last 7 days limit 200 mode read_only reason "audit" policy { allow: [Retrieve, Summarize], deny: [Delete] } as "sre-ling";',
      'update id "001" set text = "新的文本\\n", tags = ["a"] with meta = {}; # c',
      'delete where expires before 2025-01-01 hard older than P30D within from 2024-01-01 to 2024-02-01 confirm dry run',
    ];
    for (const src of srcs) {
      const once = fmt(src);
      expect(fmt(once)).toBe(once);
      expect(astToIr(parse(once).script).irs).toStrictEqual(astToIr(parse(src).script).irs);
    }
  });

  it('does not mutate its input', () => {
    const { script } = parse('ENCODE "x" TAGS "b" TYPE a;');
    const before = JSON.stringify(script);
    print(script);
    expect(JSON.stringify(script)).toBe(before);
  });

  it('prints an empty script as empty text', () => {
    expect(print(parse('').script)).toBe('');
  });
});

describe('kitchen sink: parse → print → parse keeps the tree', () => {
  /** The tree without source positions. */
  function shape(node: unknown): unknown {
    return JSON.parse(JSON.stringify(node, (k, v) => (k === 'loc' || k.endsWith('Loc') ? undefined : v)));
  }
  it('a canonical script reparses to the same tree', async () => {
    const { readFileSync } = await import('node:fs');
    const spec = readFileSync(new URL('../../spec/syntax.md', import.meta.url), 'utf8');
    const blocks = [...spec.matchAll(/```t2m\n([\s\S]*?)```/g)].map((m) => m[1]);
    const canonical = print(parse(blocks.join('\n')).script);
    const once = parse(canonical);
    expect(once.diagnostics).toEqual([]);
    const twice = parse(print(once.script));
    expect(shape(twice.script)).toEqual(shape(once.script));
  });
});

describe('comments anywhere', () => {
  it('formatting is idempotent wherever comments are put', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL('../corpus/paper_b12_incident_postmortem.t2m', import.meta.url), 'utf8');
    const lines = text.split('\n');
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.nat(lines.length - 1), fc.boolean()), { maxLength: 6, selector: ([i]) => i }), (spots) => {
        const damaged = lines.map((l, i) => {
          const spot = spots.find(([at]) => at === i);
          if (!spot) return l;
          return spot[1] ? `# own line ${i}\n${l}` : /#/.test(l) ? l : `${l} # end ${i}`;
        }).join('\n');
        const parsed = parse(damaged);
        expect(parsed.diagnostics).toEqual([]);
        const once = print(parsed.script);
        expect(print(parse(once).script)).toBe(once);
        const count = (t: string) => (t.match(/# (own line|end) \d+/g) ?? []).length;
        expect(count(once)).toBe(count(damaged));
        expect(astToIr(parse(once).script).irs).toStrictEqual(astToIr(parsed.script).irs);
      }),
      { numRuns: 300 },
    );
  });
});
