/**
 * The vocabulary (src/language/) is the one place the language's words are spelt: the lexer,
 * the spec's clause tables and the layering of the house are checked against it here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KW, keywordToken } from '../../src/syntax/tokens.js';
import {
  CLAUSES, CLAUSE_ORDER, ENUMS, KEYWORDS, OPS, VERB_DOCS, VERB_NAMES, VERB_TEXT, clausePath, clauseSpec, isStatementClause, type ClauseName, type Op,
} from '../../src/language/index.js';
import { IR } from '../../src/ir/schema.js';
import { CONDITION_FIELDS } from '../../src/services/completion.js';
import { textToIr } from '../../src/pipeline.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CLAUSE_NAMES = Object.keys(CLAUSES) as ClauseName[];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? (f === 'generated' ? [] : files(p)) : p.endsWith('.ts') ? [p] : [];
  });
}
/** The relative imports of a file, resolved to paths from the repository root. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)].map((m) => relative(ROOT, resolve(file, '..', m[1])));
}

describe('the vocabulary', () => {
  it('has one token per keyword, and docs for every verb in op order', () => {
    for (const k of KEYWORDS) expect(keywordToken(k.toLowerCase()), k).toBe(KW[k]);
    expect(Object.keys(VERB_DOCS)).toEqual([...VERB_NAMES]);
    expect(VERB_NAMES.map((v) => v.toLowerCase())).toEqual(OPS.map((o) => o.toLowerCase()));
  });

  it('spells every clause with keywords and names only real ops and IR fields', () => {
    for (const name of CLAUSE_NAMES) {
      for (const word of name.split(' ')) expect(KEYWORDS, name).toContain(word);
      for (const op of Object.keys(clauseSpec(name)!.ops ?? {})) expect(OPS, name).toContain(op);
    }
  });

  it('gives every clause one place in the canonical clause order (the printer\'s)', () => {
    expect(new Set(CLAUSE_ORDER).size).toBe(CLAUSE_ORDER.length);
    expect([...CLAUSE_ORDER].sort()).toEqual([...CLAUSE_NAMES].sort());
  });

  it('documents every enum value, and its values are the IR schema\'s', () => {
    for (const [name, spec] of Object.entries(ENUMS)) {
      expect(Object.keys(spec.docs).sort(), name).toEqual([...spec.values].sort());
    }
    const options = IR.options.map((o) => o.shape.op.value);
    expect(options).toEqual([...OPS]);
  });

  it('offers in completion only condition fields the converter accepts (`expires`, not `expire`)', () => {
    expect(CONDITION_FIELDS).toContain('expires');
    const written: Record<string, string> = { tags: 'tags HAS "x"', time: 'time IN LAST 7 DAYS', weight: 'weight >= 0.5', expires: 'expires BEFORE 2025-01-01T00:00:00Z', search: 'search "x"' };
    for (const f of CONDITION_FIELDS) {
      const { diagnostics } = textToIr(`RETRIEVE WHERE ${written[f] ?? `${f} = "x"`} LIMIT 5;`);
      expect(diagnostics.filter((d) => d.severity === 'error'), f).toEqual([]);
    }
  });

  it('sits at the bottom of the house: src/language imports nothing else of src, the tokens and grammar only src/language and the AST nodes', () => {
    for (const f of files(join(ROOT, 'src/language'))) for (const i of imports(f)) expect(i, f).toMatch(/^src\/language\//);
    // The parser's actions build AST nodes (src/syntax/ast.ts, nodes.ts), which import only types.
    for (const f of ['src/syntax/tokens.ts', 'src/syntax/grammar.ts']) for (const i of imports(join(ROOT, f))) expect(i, f).toMatch(/^src\/language\/|^src\/syntax\/(tokens|ast|nodes)\.js$/);
    // (nodes.ts builds ranges with src/diagnostics/sourceRange.ts, which itself imports only types.)
    for (const f of ['src/syntax/ast.ts', 'src/syntax/nodes.ts']) for (const i of imports(join(ROOT, f))) expect(i, f).toMatch(/^src\/(language\/|diagnostics\/diagnostic\.js$|diagnostics\/sourceRange\.js$|syntax\/ast\.js$)/);
    for (const i of imports(join(ROOT, 'src/diagnostics/sourceRange.ts'))) expect(i).toMatch(/^src\/diagnostics\/diagnostic\.js$/);
  });

  it('leaves DSL wording to the front end: ir/ and check/ import nothing from convert/, syntax/ or grammar/', () => {
    for (const dir of ['src/ir', 'src/check']) {
      for (const f of files(join(ROOT, dir))) for (const i of imports(f)) expect(i, f).not.toMatch(/^(src\/convert|src\/syntax|grammar)\//);
    }
  });
});

// ---------------------------------------------------------------- spec/syntax.md

const SPEC = readFileSync(join(ROOT, 'spec/syntax.md'), 'utf8');

/** The rows of the Markdown table right after the heading that starts with `heading`. */
function tableAfter(heading: string): string[][] {
  const at = SPEC.indexOf(`\n## ${heading}`);
  const lines = SPEC.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    rows.push(l.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim()));
  }
  return rows;
}

/** The clause each `code` span of a cell starts with (`OLDER THAN P90D` → OLDER), or TEXT for `"text"`. */
function clausesIn(cell: string): string[] {
  const out: string[] = [];
  for (const [, code] of cell.matchAll(/`([^`]+)`/g)) {
    if (code.startsWith('"')) { out.push('TEXT'); continue; }
    const words = code.split(' ');
    for (let n = words.length; n > 0; n--) {
      const name = words.slice(0, n).join(' ');
      if (clauseSpec(name)) { out.push(name); break; }
    }
  }
  return [...new Set(out)];
}
function pathsIn(cell: string): string[] {
  return [...cell.matchAll(/`((?:args|meta)\.[a-z0-9_.]+|_comment|stage)/g)].map((m) => m[1]);
}

describe('spec/syntax.md clause tables agree with the clause table', () => {
  it('§4: each verb\'s own clauses and the IR fields they fill', () => {
    const written = new Map<Op, Map<string, string>>();
    let verb: Op | undefined;
    for (const [v, clause, ir] of tableAfter('4. Verb clauses')) {
      if (v) verb = OPS.find((o) => o.toUpperCase() === v);
      if (!verb) continue;
      const names = clausesIn(clause).filter((n) => n === 'TEXT' || !isStatementClause(n));
      const paths = pathsIn(ir);
      if (names.length === 0) continue;
      // `SOFT` / `HARD` share one field; otherwise one field per clause, in order.
      expect(paths.length === names.length || paths.length === 1, `${verb}: ${clause}`).toBe(true);
      const map = written.get(verb) ?? new Map<string, string>();
      names.forEach((n, i) => map.set(n, paths[paths.length === 1 ? 0 : i]));
      written.set(verb, map);
    }
    for (const op of OPS) {
      const expected = new Map<string, string>();
      if (VERB_TEXT[op]) expected.set('TEXT', VERB_TEXT[op]!.join('.'));
      for (const name of CLAUSE_NAMES) {
        const path = clauseSpec(name)!.ops?.[op];
        if (path) expected.set(name, path.join('.'));
      }
      expect(Object.fromEntries(written.get(op) ?? []), op).toEqual(Object.fromEntries(expected));
    }
  });

  it('§5: the clauses every verb takes and the IR fields they fill', () => {
    const written = Object.fromEntries(tableAfter('5. Meta, stage and comment').map(([clause, ir]) => [clausesIn(clause)[0], pathsIn(ir)[0]]));
    const expected = Object.fromEntries(CLAUSE_NAMES.filter((n) => clauseSpec(n)!.path && clauseSpec(n)!.shape !== 'target').map((n) => [n, clausePath(n, 'Encode')!.join('.')]));
    expect(written).toEqual(expected);
  });
});
