/**
 * The CLI starts with V8's optimising compiler paused (src/cli/startup.ts) and each command turns
 * it back on once its modules are loaded, through `loaded(import(…))`. A command that imported its
 * modules another way would leave the whole process unoptimised: a long conversion or benchmark
 * would run several times slower.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = resolve(import.meta.dirname, '../../src/cli');

describe('CLI start-up', () => {
  it('main.ts imports startup.ts first', () => {
    const imports = readFileSync(join(CLI, 'main.ts'), 'utf8').match(/^import .*$/gm) ?? [];
    expect(imports[0]).toMatch(/^import '\.\/startup\.js';/);
  });

  it('every command loads its modules through loaded(), which resumes optimisation', () => {
    const files = readdirSync(join(CLI, 'commands')).filter((f) => f.endsWith('.ts'));
    let loads = 0;
    for (const f of files) {
      const code = readFileSync(join(CLI, 'commands', f), 'utf8');
      expect(code, f).not.toMatch(/await\s+(import\(|Promise\.all\()/);
      loads += (code.match(/await loaded\(/g) ?? []).length;
    }
    expect(loads).toBeGreaterThanOrEqual(7);
  });

  it('zod is imported as a namespace wherever it is a value, so the bundle keeps only the zod the code uses', () => {
    // `import { z } from 'zod'` is zod's namespace object as a value: esbuild then keeps all of
    // zod (every locale included) in the chunk the engine loads at start-up; `import * as z`
    // lets it drop what no `z.…` names (scripts/bundle-cli.mjs). A file that names `z` in types
    // only loses the import altogether.
    const SRC = resolve(import.meta.dirname, '../../src');
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
    const usesZ = walk(SRC).filter((f) => /\bz\.[\w$]+\s*\(|instanceof\s+z\./.test(readFileSync(f, 'utf8')));
    expect(usesZ.length).toBeGreaterThanOrEqual(5);
    for (const f of usesZ) expect(readFileSync(f, 'utf8'), f).toMatch(/^import \* as z from 'zod';$/m);
  });
});
