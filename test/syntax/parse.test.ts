import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse, tokenize, KEYWORDS, VERBS } from '../../src/syntax/index.js';
import { astToIr } from '../../src/convert/index.js';

/** `[code, "line:col"]` of every diagnostic, the harness the rest of the tests use. */
function diagnostics(src: string): Array<[string, string]> {
  const r = parse(src);
  const c = astToIr(r.script);
  return [...r.diagnostics, ...c.diagnostics].map((d) => [d.code, d.range ? `${d.range.start.line}:${d.range.start.column}` : '-']);
}
function ir(src: string): unknown[] {
  const r = parse(src);
  expect(r.diagnostics).toEqual([]);
  const c = astToIr(r.script);
  expect(c.diagnostics).toEqual([]);
  return c.irs;
}

describe('parse: the brief', () => {
  it('parses the PROMOTE statement of the brief', () => {
    expect(ir('PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9')).toStrictEqual([
      { stage: 'STO', op: 'Promote', target: { search: { intent: { query: 'OKR progress' }, limit: 5 } }, args: { weight: 0.9 } },
    ]);
  });

  it('parses the illustration of the issue', () => {
    const irs = ir(`
      ENCODE "Q2 OKR review: marketing reach +25%" TYPE note TAGS "OKR", "review"
        TIME 2025-04-10T15:30:00+08:00 SOURCE "meeting_minutes"
        FACETS { subject: "Q2 performance", topic: "OKR progress" };
      LOCK WHERE tags HAS "incident:p1-network" AND time IN LAST 7 DAYS LIMIT 200
        MODE read_only REASON "audit" POLICY { allow: [Retrieve, Summarize], deny: [Delete] }
        AS "sre-ling";
      DELETE ALL SOFT CONFIRM;`);
    expect(irs).toStrictEqual([
      {
        stage: 'ENC', op: 'Encode',
        args: {
          payload: { text: 'Q2 OKR review: marketing reach +25%' }, type: 'note', tags: ['OKR', 'review'],
          time: '2025-04-10T15:30:00+08:00', source: 'meeting_minutes', facets: { subject: 'Q2 performance', topic: 'OKR progress' },
        },
      },
      {
        stage: 'STO', op: 'Lock',
        target: { filter: { has_tags: ['incident:p1-network'], time_range: { relative: 'last', amount: 7, unit: 'days' }, limit: 200 } },
        args: { mode: 'read_only', reason: 'audit', policy: { allow: ['Retrieve', 'Summarize'], deny: ['Delete'] } },
        meta: { actor: 'sre-ling' },
      },
      { stage: 'STO', op: 'Delete', target: { all: true }, args: { soft: true }, meta: { confirmation: true } },
    ]);
  });
});

describe('parse: literals and keywords', () => {
  it('decodes string escapes and keeps raw Unicode', () => {
    const [e] = ir('ENCODE "a\\n\\"b\\" \\u4e2d 文 \\\\ \\t";') as any[];
    expect(e.args.payload.text).toBe('a\n"b" 中 文 \\ \t');
  });

  it('reads numbers as JSON numbers: negative, decimal, exponent; 1.0 is 1', () => {
    const [p] = ir('PROMOTE ID "1" SET a = -3, b = 1.0, c = 2.5e-3, d = 0;') as any[];
    expect(p.args).toStrictEqual({ a: -3, b: 1, c: 0.0025, d: 0 });
  });

  it('keeps datetimes and durations verbatim, offsets and fractions included', () => {
    const [x] = ir('EXPIRE ID "001" TTL PT1H30M UNTIL 2025-04-10T15:30:00.250+08:00;') as any[];
    expect(x).toStrictEqual({ stage: 'STO', op: 'Expire', target: { ids: '001' }, args: { ttl: 'PT1H30M', until: '2025-04-10T15:30:00.250+08:00' } });
  });

  it('is case-insensitive for keywords; values keep their case', () => {
    expect(ir('lock id "A" mode Read_Only;')).toStrictEqual([{ stage: 'STO', op: 'Lock', target: { ids: 'A' }, args: { mode: 'Read_Only' } }]);
  });

  it('accepts keywords as object keys and bare list words, and a key with a space', () => {
    const [e] = ir('ENCODE "x" SET " facets" = { type: "a", tags: [Retrieve, note], "a b": true, null: null };') as any[];
    expect(e.args[' facets']).toStrictEqual({ type: 'a', tags: ['Retrieve', 'note'], 'a b': true, null: null });
  });

  it('tells ID (one id) from IDS (a list), and keeps "001" a string', () => {
    expect(ir('DELETE ID "7"; DELETE IDS "7"; DELETE IDS ["7", "001"]; DELETE ID 7;').map((x: any) => x.target.ids)).toStrictEqual(['7', ['7'], ['7', '001'], 7]);
  });

  it('passes unknown enum values through for the checker', () => {
    expect((ir('LOCK ID "1" MODE readonly;')[0] as any).args.mode).toBe('readonly');
  });

  it('keeps comments as tokens and lists keywords for the playground', () => {
    const { tokens } = tokenize('ENCODE "x" # note\n');
    expect(tokens.map((t) => t.kind)).toEqual(['verb', 'string', 'comment']);
    expect(KEYWORDS).toContain('WHERE');
    expect(VERBS).toHaveLength(12);
  });
});

describe('parse: every target mode and clause', () => {
  it('reads search with all options next to a filter; the LIMIT after the search is the search limit', () => {
    const [r] = ir(`RETRIEVE WHERE search "q" VECTOR [0.1, -2] CONTEXT "ctx" K 10 ALPHA 0.5 ORDER BY time_desc LIMIT 5
      AND tags HAS "a", "b" AND tags NOT HAS "c" AND type = note AND subject = "s" AND weight >= 0.2 AND weight <= 0.9
      AND expires BEFORE 2026-01-01 AND expires AFTER 2025-01-01 AND time FROM 2025-01-01T00:00:00Z TO 2025-02-01T00:00:00Z
      LIMIT 20 INCLUDE id, text;`) as any[];
    expect(r.target).toStrictEqual({
      search: { intent: { query: 'q', vector: [0.1, -2], context: 'ctx' }, overrides: { k: 10, alpha: 0.5, order_by: 'time_desc' }, limit: 5 },
      filter: {
        has_tags: ['a', 'b'], not_tags: ['c'], type: 'note', subject: 's', weight_gte: 0.2, weight_lte: 0.9,
        expire_before: '2026-01-01', expire_after: '2025-01-01', time_range: { start: '2025-01-01T00:00:00Z', end: '2025-02-01T00:00:00Z' }, limit: 20,
      },
    });
    expect(r.args).toStrictEqual({ include: ['id', 'text'] });
  });

  it('reads every verb-specific clause', () => {
    const irs = ir(`
      UPDATE ID "1" SET text = "new", tags = ["x"], status = "done";
      LABEL IDS "1", "2" TAGS "a" FACETS { topic: "t" } MODE replace;
      PROMOTE ID "1" BY 0.1 REMIND "FREQ=WEEKLY" UNTIL 2025-12-31T00:00:00Z REASON "r";
      DEMOTE ID "1" ARCHIVE BY -0.2 REASON "old";
      MERGE IDS "1", "2" INTO "1" STRATEGY merge_into_primary SET soft_delete_children = true;
      SPLIT ID "1" STRATEGY by_sentences SET params = { by_sentences: { lang: "en", max_sentences: 2 } };
      EXPIRE ID "1" TTL P30D THEN soft_delete;
      DELETE WHERE tags HAS "tmp" LIMIT 10 HARD OLDER THAN P90D WITHIN LAST 2 WEEKS REASON "cleanup";
      SUMMARIZE WHERE search "budget" FOCUS "numbers" MAX 200 TOKENS AS "ann" LANG en TRACE "t-1" AT 2025-01-01T00:00:00Z DRY RUN;
      RETRIEVE ALL CONFIRM COMMENT "everything" STAGE RET;`) as any[];
    expect(irs.map((x) => x.args)).toStrictEqual([
      { set: { text: 'new', tags: ['x'], status: 'done' } },
      { tags: ['a'], facets: { topic: 't' }, mode: 'replace' },
      { weight_delta: 0.1, remind: { rrule: 'FREQ=WEEKLY', until: '2025-12-31T00:00:00Z' }, reason: 'r' },
      { archive: true, weight_delta: -0.2, reason: 'old' },
      { primary_id: '1', strategy: 'merge_into_primary', soft_delete_children: true },
      { strategy: 'by_sentences', params: { by_sentences: { lang: 'en', max_sentences: 2 } } },
      { ttl: 'P30D', on_expire: 'soft_delete' },
      { soft: false, older_than: 'P90D', time_range: { relative: 'last', amount: 2, unit: 'weeks' }, reason: 'cleanup' },
      { focus: 'numbers', max_tokens: 200 },
      undefined,
    ]);
    expect(irs[8].meta).toStrictEqual({ actor: 'ann', lang: 'en', trace_id: 't-1', timestamp: '2025-01-01T00:00:00Z', dry_run: true });
    expect(irs[9]).toStrictEqual({ stage: 'RET', op: 'Retrieve', target: { all: true }, meta: { confirmation: true }, _comment: 'everything' });
  });

  it('keeps an explicit stage that differs from the verb', () => {
    expect((ir('ENCODE "x" STAGE RET;')[0] as any).stage).toBe('RET');
  });

  it('sets any path with WITH', () => {
    expect(ir('RETRIEVE WITH target.time_from = "2025-01-01" WITH target.filter = {};')[0]).toStrictEqual({
      stage: 'RET', op: 'Retrieve', target: { time_from: '2025-01-01', filter: {} },
    });
  });
});

describe('parse: errors', () => {
  it('reports several errors at once, each at its token', () => {
    expect(diagnostics('ENCOD "x";\nRETRIEVE WHERE tags HAS ;\nLABEL ID "1" TAGZ "a";\n')).toEqual([
      ['unknown-verb', '1:1'],
      ['unexpected-token', '2:25'],
      ['unknown-keyword', '3:14'],
    ]);
  });

  it('suggests the closest keyword with a fix', () => {
    const r = parse('ENCODE "x" TPYE note;');
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0].message).toContain('did you mean TYPE?');
    expect(r.diagnostics[0].fix?.edits[0]).toMatchObject({ newText: 'TYPE', range: { start: { offset: 11 }, end: { offset: 15 } } });
  });

  it('suggests the closest condition field for a misspelt one, on the misspelt word', () => {
    const r = parse('PROMOTE WHERE serch "x" LIMIT 5 SET weight 0.9;');
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ code: 'unknown-keyword', range: { start: { offset: 14 }, end: { offset: 19 } } });
    expect(r.diagnostics[0].message).toContain('did you mean search?');
    expect(r.diagnostics[0].fix?.edits[0]).toMatchObject({ newText: 'search' });
    // A value that merely looks like a field (after TYPE, no operator wanted) is left alone.
    expect(parse('ENCODE "x" TYPE tipe 5;').diagnostics[0].code).toBe('unexpected-token');
  });

  it('names what it expected', () => {
    const r = parse('ENCODE "x" TYPE ;');
    expect(r.diagnostics[0].message).toMatch(/Expected one of a string, a number, .* but found ';'/);
  });

  it('wants a number and a unit in a relative range', () => {
    const r = parse('RETRIEVE WHERE time IN LAST DAYS;');
    expect(r.diagnostics.map((d) => d.message)).toEqual(["Expected a number but found 'DAYS'."]);
  });

  it('hints at the missing comma between UPDATE assignments', () => {
    const c = astToIr(parse('UPDATE ID "1" SET text = "a" TAGS "b";').script);
    expect(c.diagnostics[0].message).toContain('SET text = "…", tags = …');
  });

  it('suggests the field a condition operator applies to', () => {
    const c = astToIr(parse('RETRIEVE WHERE tgas HAS "x";').script);
    expect(c.diagnostics[0]).toMatchObject({ code: 'invalid-condition', fix: { edits: [{ newText: 'tags' }] } });
  });

  it('points just after the last token when the input ends too early', () => {
    const r = parse('ENCODE "x" TYPE');
    expect(r.diagnostics).toMatchObject([{ code: 'unexpected-end', range: { start: { line: 1, column: 16, offset: 15 } } }]);
  });

  it('reports a missing semicolon and goes on', () => {
    const r = parse('ENCODE "a"\nENCODE "b";');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['missing-semicolon']);
    expect(r.script.statements).toHaveLength(2);
    // Reported where the `;` goes: the end of the line before, not the next verb; the fix inserts it there.
    const end = { line: 1, column: 11, offset: 10 };
    expect(r.diagnostics[0]).toMatchObject({ range: { start: end, end }, fix: { edits: [{ range: { start: end, end }, newText: ';' }] } });
    const after = parse('DELETE ALL SOFT CONFIRM\n\n  PROMOTE ID "1" SET weight 0.9;').diagnostics[0];
    expect(after).toMatchObject({ code: 'missing-semicolon', range: { start: { line: 1, column: 24 }, end: { line: 1, column: 24 } } });
  });

  it('reads the statement after a misspelt verb whose `;` is missing', () => {
    const src = 'RETRIVE ID "1"\nDELETE ID "1" SOFT;\nLOCK ID "2" MODE read_only;';
    const r = parse(src);
    expect(diagnostics(src)).toEqual([
      ['unknown-verb', '1:1'],
      ['missing-semicolon', '1:15'],
    ]);
    expect(r.script.statements.map((st) => st.verb.name)).toEqual(['DELETE', 'LOCK']);
    // A verb inside a line is a value, not the start of a statement.
    expect(parse('RETRIVE ID "1" POLICY { allow: [Retrieve] };').script.statements).toEqual([]);
  });

  it('after a misspelt verb, resumes at a verb only outside brackets (a list may go on with a verb-like word)', () => {
    const src = 'LOKC ID "1" MODE read_only POLICY { allow: [Retrieve, Summarize],\n  deny: [Update,\n  Delete] };\nRETRIEVE ID "1";';
    const r = parse(src);
    expect(diagnostics(src)).toEqual([['unknown-verb', '1:1']]);
    expect(r.script.statements.map((st) => st.verb.name)).toEqual(['RETRIEVE']);
    // Same after a broken clause: the parser resumes at the next verb outside brackets.
    const broken = 'LOCK ID "1" MODE read_only 5 POLICY { deny: [Update,\n  Delete] }\nRETRIEVE ID "1";';
    expect(diagnostics(broken)).toEqual([['unexpected-token', '1:28']]);
    expect(parse(broken).script.statements.map((st) => st.verb.name)).toEqual(['LOCK', 'RETRIEVE']);
  });

  it('reports bad strings and characters', () => {
    expect(diagnostics('ENCODE "abc\nENCODE "a\\q"; ENCODE @;')).toEqual([
      ['unterminated-string', '1:8'],
      ['missing-semicolon', '1:12'],
      ['invalid-escape', '2:8'],
      ['invalid-character', '2:22'],
    ]);
  });

  it('points at the string that lost its closing quote, not at the word glued after it', () => {
    const r = parse('ENCODE "hello TAGS "x";');
    expect(r.diagnostics).toMatchObject([
      {
        code: 'unterminated-string',
        message: expect.stringContaining('A string may be missing its closing quote (started at 1:8)'),
        range: { start: { column: 8 }, end: { column: 21 } },
        related: [{ range: { start: { column: 22 } } }],
      },
    ]);
    // Several shifted strings on the line: still the first one, and nothing about the words between.
    expect(diagnostics('ENCODE "hello TAGS "x" SOURCE "s";\nRETRIEVE ID "1";')).toEqual([['unterminated-string', '1:8']]);
    // A string that ends before a space is fine; the unterminated one is the mistake.
    expect(diagnostics('ENCODE "hello" TAGS "x;')).toEqual([['unterminated-string', '1:21']]);
  });

  it('says a zero-padded number is a string, with a fix that quotes it', () => {
    const r = parse('DELETE ID 001 SOFT;');
    expect(r.diagnostics).toMatchObject([
      { code: 'invalid-character', message: expect.stringContaining('write it as a string: "001"'), range: { start: { column: 11 }, end: { column: 14 } }, fix: { edits: [{ newText: '"001"' }] } },
    ]);
  });

  it('reads full-width punctuation as its ASCII twin, with a did-you-mean and a fix for each', () => {
    const semi = parse('ENCODE "hi"；\nRETRIEVE ALL CONFIRM;');
    expect(semi.diagnostics).toMatchObject([
      { code: 'invalid-character', message: "Full-width '；'; did you mean ';'?", fix: { edits: [{ newText: ';', range: { start: { line: 1, column: 12, offset: 11 }, end: { offset: 12 } } }] } },
    ]);
    expect(semi.script.statements).toHaveLength(2);
    // A pair of quotes is one mistake: one diagnostic whose fix replaces both.
    const quoted = parse('ENCODE "a" TAGS “测试”，"b" FACETS ｛ topic： “x，y” ｝;');
    expect(quoted.diagnostics.map((d) => [d.message, d.fix?.edits.map((e) => `${e.range.start.offset}:${e.newText}`)])).toEqual([
      ['Full-width quotes “…”; did you mean "…"?', ['16:"', '19:"']],
      ["Full-width '，'; did you mean ','?", ['20:,']],
      ["Full-width '｛'; did you mean '{'?", ['32:{']],
      ["Full-width '：'; did you mean ':'?", ['39::']],
      ['Full-width quotes “…”; did you mean "…"?', ['41:"', '45:"']],
      ["Full-width '｝'; did you mean '}'?", ['47:}']],
    ]);
    // Read as meant, so nothing cascades; the comma between the quotes stays text.
    expect(astToIr(quoted.script).irs).toMatchObject([{ args: { tags: ['测试', 'b'], facets: { topic: 'x，y' } } }]);
    // Inside a string, full-width punctuation is text.
    expect(parse('ENCODE "你好；世界“”";').diagnostics).toEqual([]);
  });

  it('says where a misplaced search option, LIMIT or AND goes, and which clauses the verb takes', () => {
    const message = (src: string) => parse(src).diagnostics.map((d) => d.message);
    expect(message('RETRIEVE WHERE tags HAS "x" LIMIT 5 ORDER BY time_desc;')).toEqual([
      'ORDER BY only goes with a search condition: WHERE search "…" ORDER BY time_desc. A filter (tags HAS …, time IN …, type = …) has no order.',
    ]);
    expect(message('RETRIEVE WHERE tags HAS "x" K 5;')[0]).toMatch(/^K only goes with a search condition: WHERE search "…" K 5\./);
    expect(message('SUMMARIZE WHERE type = note CONTEXT "c";')[0]).toMatch(/^CONTEXT only goes with a search condition/);
    expect(message('RETRIEVE WHERE search "q" AND tags HAS "x" ALPHA 0.5;')).toEqual([
      'ALPHA is an option of the search and goes right after it: WHERE search "…" ALPHA 0.5 AND tags HAS "x".',
    ]);
    expect(message('RETRIEVE LIMIT 5 WHERE tags HAS "x";')).toEqual(['LIMIT goes right after the WHERE conditions: WHERE tags HAS "x" LIMIT 5 (ID, IDS and ALL take no LIMIT).']);
    expect(message('RETRIEVE WHERE tags HAS "x" AND LIMIT 5;')).toEqual([
      'Expected a condition (search "…", or a field condition such as tags HAS "x" or type = note) but found \'LIMIT\'. LIMIT follows the last condition: remove the AND before it.',
    ]);
    // The words named are what may come there: the clause going on, then the clauses the verb
    // still takes (its own first; no target once one is given), not a fixed list.
    expect(message('RETRIEVE WHERE tags HAS "x" 5;')).toEqual([
      "Unexpected '5': here RETRIEVE takes AND, LIMIT, LEVEL, PICK, EXPAND, AS OF, KNOWN AT, HISTORY, INCLUDE, SET, WITH, AS, LANG, TRACE, AT, DRY RUN, CONFIRM, STAGE, COMMENT; or end the statement with ';'.",
    ]);
    expect(message('DELETE ALL 5;')[0]).toMatch(/^Unexpected '5': here DELETE takes SOFT, HARD, OLDER THAN, WITHIN, REASON, SET, /);
    expect(message('DELETE ALL SOFT 5;')[0]).toMatch(/^Unexpected '5': here DELETE takes OLDER THAN, WITHIN, REASON, SET, /);
    for (const m of [message('DELETE ALL 5;')[0], message('DELETE WHERE tags HAS "a" LIMT 3;')[0]]) expect(m).not.toMatch(/\b(ID|IDS|ALL|WHERE),/);
    expect(message('DELETE WHERE tags HAS "a" LIMT 3;')[0]).toMatch(/^Unknown word 'LIMT'; did you mean LIMIT\? Unexpected 'LIMT': here DELETE takes AND, LIMIT, SOFT, HARD, /);
    // A typo is matched against the verb's own clauses first.
    expect(parse('DELETE ALL SOFY;').diagnostics[0]).toMatchObject({ code: 'unknown-keyword', fix: { edits: [{ newText: 'SOFT' }] } });
  });

  it('never names an internal token type in a message', () => {
    const internal = /\b(Keyword|Identifier|StringLiteral|BadString|NumberLiteral|DateTimeLiteral|DurationLiteral|Semicolon|Comma|Colon|Dot|LBrace|RBrace|LBracket|RBracket|GreaterEq|LessEq|Equals|True|False|Null|WhiteSpace|Comment|EOF|NotAllInputParsedException)\b|SEARCH/;
    const seen = new Set<string>();
    const pieces = fc.constantFrom(...VERBS, 'WHERE', 'search', 'AND', 'LIMIT', 'ORDER', 'BY', 'K', 'HAS', 'NOT', 'IN', 'LAST', 'FROM', 'TO', 'SET', 'WITH', 'TAGS', 'INCLUDE',
      'MAX', 'TOKENS', 'OLDER', 'THAN', 'WITHIN', 'DRY', 'RUN', 'ID', 'IDS', 'ALL', 'type', 'x', 'TPYE', 'SOFY', '"s"', '"u', '5', 'P1D', '2025-01-01', 'true', '{', '}', '[', ']', ',', ';', ':', '=', '>=', '.', '#c\n', '\n', '；', '“');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 14 }).map((a) => a.join(' ')), (src) => {
        for (const d of parse(src).diagnostics) {
          seen.add(d.code);
          expect(d.message, src).not.toMatch(internal);
        }
      }),
      { numRuns: 3000 },
    );
    expect(seen).not.toContain('internal-error');
    expect([...seen].sort()).toEqual(expect.arrayContaining(['expected-statement', 'invalid-character', 'missing-semicolon', 'unexpected-end', 'unexpected-token', 'unknown-keyword']));
  });

  it('reports a clause the verb does not take, and a field set twice', () => {
    expect(diagnostics('DELETE ALL TYPE note;')).toEqual([['clause-not-allowed', '1:12']]);
    expect(diagnostics('ENCODE "a" TYPE a SET type = "b";')).toEqual([['duplicate-field', '1:23']]);
    expect(diagnostics('RETRIEVE WHERE type HAS "x";')).toEqual([['invalid-condition', '1:16']]);
  });

  it('never throws on damaged real scripts, and keeps the statements an error does not touch', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL('../corpus/paper_b12_incident_postmortem.t2m', import.meta.url), 'utf8');
    const total = parse(text).script.statements.length;
    fc.assert(
      fc.property(fc.nat(text.length - 1), fc.nat(6), fc.constantFrom('', '"', '{', ';', 'WHERE', '[', 'x'), (at, length, insert) => {
        const damaged = text.slice(0, at) + insert + text.slice(at + length);
        const r = parse(damaged);
        astToIr(r.script);
        // One edit can break at most the statement it lands in (and glue it to the next).
        expect(r.script.statements.length).toBeGreaterThanOrEqual(total - 2);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws, whatever the input', () => {
    const pieces = fc.constantFrom('ENCODE', 'WHERE', 'search', '"s"', '"u', '{', '}', '[', ']', ',', ';', ':', '=', 'AND', 'LIMIT', '5', 'x', 'SET', 'WITH', '.', 'IN', 'LAST', 'TO', '#c\n', '\n', 'DRY', '>=');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.array(pieces, { maxLength: 30 }).map((a) => a.join(' '))), (src) => {
        const r = parse(src);
        astToIr(r.script);
        expect(r.diagnostics.filter((d) => d.code === 'internal-error'), src).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });
});
