/**
 * What keeps the CLI bundle small (scripts/bundle-cli.mjs).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = resolve(import.meta.dirname, '../../src/cli');

describe('CLI start-up', () => {
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
