/**
 * `virtual:t2m-examples`: the examples menu, converted from IR to DSL by the project's
 * `irsToText` when the page is built, so the menu always shows the current printer's output.
 */
import type { Plugin } from 'vite';
import { examples } from '../scripts/playground-examples.js';

const ID = 'virtual:t2m-examples';
const RESOLVED = `\0${ID}`;

export function examplesModule(): Plugin {
  return {
    name: 't2m-examples',
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      const list = [...examples()].map(([name, text]) => ({ name, text }));
      return `export default ${JSON.stringify(list)};`;
    },
  };
}
