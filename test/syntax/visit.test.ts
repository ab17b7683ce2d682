import { describe, expect, it } from 'vitest';
import { parse, visit, nodesAt, CHILD_KEYS } from '../../src/syntax/index.js';
import { VALUE_KEYWORDS } from '../../src/syntax/ast.js';

describe('visit', () => {
  const src = 'LOCK WHERE tags HAS "a" AND time IN LAST 7 DAYS LIMIT 5 MODE read_only POLICY { allow: [Retrieve] }; # c';
  const { script } = parse(src);

  it('reaches every node, each kind known to the child table', () => {
    const kinds = new Set<string>();
    visit(script, (n) => void kinds.add(n.kind));
    for (const k of kinds) expect(CHILD_KEYS[k]).toBeDefined();
    expect([...kinds]).toEqual(expect.arrayContaining(['Script', 'Statement', 'WhereClause', 'FieldCondition', 'TimeRange', 'RelativeRange', 'ValueClause', 'Object', 'Entry', 'List', 'Identifier', 'Comment']));
    expect(VALUE_KEYWORDS).toContain('MODE');
  });

  it('finds the nodes under an offset', () => {
    const at = nodesAt(script, src.indexOf('read_only') + 2).map((n) => n.kind);
    expect(at).toEqual(['Script', 'Statement', 'ValueClause', 'Identifier']);
  });
});
