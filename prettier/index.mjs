// The plugin entry for `prettier --plugin ./prettier/index.mjs`: plain JavaScript that plain node
// can load. The plugin and the printer it calls are TypeScript; tsx compiles them on import
// (scoped to this import, like bin/t2m.mjs does for the CLI), so there is no build step.
import { tsImport } from 'tsx/esm/api';

const plugin = (await tsImport('./plugin.ts', import.meta.url)).default;

export const languages = plugin.languages;
export const parsers = plugin.parsers;
export const printers = plugin.printers;
export default plugin;
