/**
 * The examples menu: the paper's workflows and the upstream real-world scenarios, as DSL files
 * in `playground/examples/` (generated from the upstream IR by `scripts/playground-examples.ts`).
 * The first line of each file is a `#` comment holding its title.
 */
const files = import.meta.glob('../examples/*.t2m', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export interface Example {
  readonly title: string;
  readonly group: string;
  readonly text: string;
}

/** Menu groups, by the file name's numeric prefix. */
const GROUPS: Readonly<Record<string, string>> = { '0': 'The paper\'s workflows', '1': 'Upstream real-world scenarios', '2': 'Upstream op workflows' };

export const EXAMPLES: readonly Example[] = Object.entries(files)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([path, text]) => ({
    title: /^#\s*(.+)$/m.exec(text)?.[1]?.trim() ?? path.replace(/^.*\/|\.t2m$/g, ''),
    group: GROUPS[path.replace(/^.*\//, '')[0]] ?? 'Examples',
    text,
  }));
