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
});
