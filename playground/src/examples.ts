/**
 * The examples menu: the paper's workflows and the upstream real-world scenarios and op
 * workflows, in DSL, from the build-time module of `playground/examples-plugin.ts`. The first
 * line of each is a `#` comment holding its title.
 */
import generated from 'virtual:t2m-examples';
// The seed's typed-state example (facts, supersession, AS OF), shipped as a file of the repository.
import mira from '../../examples/typed-state/mira.t2m?raw';

export interface Example {
  /** Stable id (ordering prefix + slug), e.g. `01-paper-semantic-promotion`. */
  readonly name: string;
  readonly title: string;
  readonly group: string;
  readonly text: string;
}

/** Menu groups, by the name's numeric prefix. */
const GROUPS: Readonly<Record<string, string>> = {
  '0': 'The paper\'s workflows', '1': 'Upstream real-world scenarios', '2': 'Upstream op workflows', '3': 'Typed state and experience memory',
};

export const EXAMPLES: readonly Example[] = [...generated, { name: '30-typed-state-mira', text: `# Typed state: Mira's passport deadline, now and as of June 2\n${mira}` }].map(({ name, text }) => ({
  name,
  title: /^#\s*(.+)$/m.exec(text)?.[1]?.trim() ?? name,
  group: GROUPS[name[0]] ?? 'Examples',
  text,
}));
