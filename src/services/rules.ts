/**
 * Which grammar rule each keyword belongs to, read from the parser's serialized grammar (the
 * same data the railroad diagrams are drawn from), so hover can link to the right diagram.
 */
import { parser } from '../syntax/grammar.js';

interface GastNode {
  readonly type: string;
  readonly name?: string;
  readonly label?: string;
  readonly terminalName?: string;
  readonly definition?: readonly GastNode[];
}

let table: Map<string, string> | undefined;

function build(): Map<string, string> {
  const map = new Map<string, string>();
  const rules = parser.getSerializedGastProductions() as unknown as GastNode[];
  const visit = (rule: string, node: GastNode) => {
    if (node.type === 'Terminal' && node.name && !map.has(node.name)) map.set(node.name, rule);
    for (const child of node.definition ?? []) visit(rule, child);
  };
  // First use wins: rules are listed top-down, so a keyword maps to the most specific early rule.
  for (const rule of rules) for (const child of rule.definition ?? []) visit(rule.name!, child);
  return map;
}

/** The rule whose diagram shows `keyword` (upper-case), or undefined. */
export function ruleOfKeyword(keyword: string): string | undefined {
  table ??= build();
  return table.get(keyword);
}
