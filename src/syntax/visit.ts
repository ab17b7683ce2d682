/**
 * Generic traversal over the AST: one table of child keys per node kind drives `children` and
 * `visit`, so tools (editor services, the printer's tests) need no per-kind walking code.
 */
import { endOffset, startOffset } from '../diagnostics/sourceRange.js';
import type * as A from './ast.js';

type AnyNode = A.Node & Record<string, unknown>;

function clause(...keys: string[]): string[] {
  return ['leadingComments', ...keys, 'trailingComment'];
}

/** The fields of each node kind that hold child nodes (a node, a list of nodes, or absent). */
export const CHILD_KEYS: Readonly<Record<string, readonly string[]>> = {
  Script: ['statements', 'trailingComments'],
  Statement: ['leadingComments', 'verb', 'text', 'clauses', 'trailingComment'],
  Verb: [], Comment: [], Key: [],
  String: [], Number: [], Boolean: [], Null: [], DateTime: [], Duration: [], Identifier: [],
  List: ['items'], Object: ['entries'], Entry: ['key', 'value'],
  IdClause: clause('value'), IdsClause: clause('values'), AllClause: clause(), ValueList: ['items'],
  WhereClause: clause('conditions', 'limit'), SearchCondition: ['query', 'options'], SearchOption: ['value'],
  FieldCondition: ['field', 'subField', 'value', 'values', 'range'], TimeRange: ['relative', 'from', 'to'], RelativeRange: ['amount'],
  ValueClause: clause('value'), ListClause: clause('values'), MaxTokensClause: clause('value'), OlderThanClause: clause('value'),
  WithinClause: clause('range'), FlagClause: clause(), SetClause: clause('assignments'), Assignment: ['key', 'value'],
  WithClause: clause('path', 'value'),
};

/** The direct children of a node, in source order of their fields. */
export function children(node: A.Node): A.Node[] {
  const out: A.Node[] = [];
  for (const k of CHILD_KEYS[node.kind] ?? []) {
    const v = (node as AnyNode)[k];
    if (Array.isArray(v)) out.push(...(v as A.Node[]));
    else if (v && typeof v === 'object' && 'kind' in v) out.push(v as A.Node);
  }
  return out;
}

/**
 * Visits `node` and its descendants depth-first; `enter` returning false skips the children.
 * `parents` is the chain from the root to the node's parent.
 */
export function visit(node: A.Node, enter: (node: A.Node, parents: readonly A.Node[]) => boolean | void, parents: A.Node[] = []): void {
  if (enter(node, parents) === false) return;
  parents.push(node);
  for (const child of children(node)) visit(child, enter, parents);
  parents.pop();
}

/** The innermost nodes containing `offset` (outermost first), e.g. for hover and completion. */
export function nodesAt(root: A.Node, offset: number): A.Node[] {
  const path: A.Node[] = [];
  visit(root, (n) => {
    const inside = n.kind === 'Script' || (startOffset(n.loc) <= offset && offset <= endOffset(n.loc));
    if (inside) path.push(n);
    return inside;
  });
  return path;
}
