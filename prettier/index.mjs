// The plugin entry for `prettier --plugin ./prettier/index.mjs`: plain JavaScript that plain node
// can load. The plugin and the printer it calls are TypeScript; tsx (a devDependency) compiles
// them on import, scoped to this import, so there is no build step. The plugin is a tool of this
// repository, not part of the npm package (package.json `files` ships dist/ only).
import { tsImport } from 'tsx/esm/api';

const plugin = (await tsImport('./plugin.ts', import.meta.url)).default;

export const languages = plugin.languages;
export const parsers = plugin.parsers;
export const printers = plugin.printers;
export default plugin;
