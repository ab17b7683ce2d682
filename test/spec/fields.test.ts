/**
 * spec/syntax.md §8 (the IR ↔ DSL field table) against the vocabulary's clause table: every row
 * that names a clause names the IR field that clause fills for the verbs the row gives, and every
 * clause that fills a field (all but the target, SET and WITH) has its row for each of its verbs.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUSES, OPS, VERB_TEXT, clauseSpec, type ClauseName, type Op } from '../../src/language/index.js';

const SPEC = readFileSync(join(resolve(import.meta.dirname, '../..'), 'spec/syntax.md'), 'utf8');

/** The rows (cells) of the first Markdown table under the heading starting with `heading`. */
function tableAfter(heading: string): string[][] {
  const lines = SPEC.slice(SPEC.indexOf(`\n## ${heading}`)).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    rows.push(l.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim()));
  }
  return rows;
}

/** A clause fills one IR field (not the target, SET or WITH, which §8 spells by path). */
const fillsField = (name: string) => !['target', 'set', 'with'].includes(clauseSpec(name)?.shape ?? 'target');

/** The clauses a DSL cell's code spans start with, in order (`OLDER THAN d` → OLDER; `ENCODE "text"` → TEXT). */
function clausesIn(cell: string): string[] {
  const out: string[] = [];
  for (const [, code] of cell.matchAll(/`([^`]+)`/g)) {
    if (/^ENCODE "/.test(code)) { out.push('TEXT'); continue; }
    const words = code.split(' ');
    for (let n = words.length; n > 0; n--) {
      const name = words.slice(0, n).join(' ');
      if (clauseSpec(name)) { out.push(name); break; }
    }
  }
  return out.filter((n) => n === 'TEXT' || fillsField(n));
}

/** The IR paths of an IR cell: the first in full, later ones as names beside it (`args.type`, `tags` → args.tags). */
function pathsIn(cell: string): string[] {
  const spans = [...cell.replace(/\(.*\)\s*$/, '').matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const first = spans[0] ?? '';
  const parent = first.includes('.') ? first.slice(0, first.lastIndexOf('.') + 1) : '';
  return spans.map((s) => (s.includes('.') || s === first ? s : parent + s));
}

/** The verbs a row is for: `(Promote, Demote)` at the end of its IR cell, or every verb (`*`). */
function opsIn(cell: string): string[] {
  const m = /\(([A-Za-z, ]+)\)\s*$/.exec(cell);
  return m ? m[1].split(',').map((s) => s.trim()) : ['*'];
}

/** `clause op path` for every field-filling clause §8 names. */
function written(): string[] {
  const out: string[] = [];
  for (const [ir, dsl] of tableAfter('8. IR ↔ DSL field table')) {
    if (ir.includes('extension')) continue;
    const names = clausesIn(dsl);
    if (names.length === 0) continue;
    const paths = pathsIn(ir);
    // `SOFT` / `HARD` fill one field; otherwise one field per clause, in order.
    expect(paths.length === names.length || paths.length === 1, `§8 row: ${ir} | ${dsl}`).toBe(true);
    names.forEach((name, i) => {
      let path = paths[paths.length === 1 ? 0 : i];
      // `args.payload.<other>` | `PAYLOAD { other: v }`: a clause whose entries go under its field.
      if (name !== 'TEXT' && clauseSpec(name)!.merge) path = path.replace(/\.<[^>]+>$/, '');
      for (const op of opsIn(ir)) out.push(`${name} ${op} ${path}`);
    });
  }
  return out.sort();
}

function expected(): string[] {
  const out: string[] = [];
  for (const op of OPS) if (VERB_TEXT[op]) out.push(`TEXT ${op} ${VERB_TEXT[op]!.join('.')}`);
  for (const name of Object.keys(CLAUSES) as ClauseName[]) {
    if (!fillsField(name)) continue;
    const spec = clauseSpec(name)!;
    if (spec.path) out.push(`${name} * ${spec.path.join('.')}`);
    for (const [op, path] of Object.entries(spec.ops ?? {}) as [Op, readonly string[]][]) out.push(`${name} ${op} ${path.join('.')}`);
  }
  return out.sort();
}

describe('spec/syntax.md §8 (IR ↔ DSL field table)', () => {
  it('names exactly the vocabulary\'s clauses, each with the IR field it fills for each of its verbs', () => {
    expect(written()).toEqual(expected());
  });

  it('names only real verbs', () => {
    for (const [ir] of tableAfter('8. IR ↔ DSL field table')) for (const op of opsIn(ir)) expect(['*', ...OPS], ir).toContain(op);
  });
});
