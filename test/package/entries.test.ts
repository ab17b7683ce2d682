/**
 * The package entries' import graphs, walked in the sources (relative imports `x.js` → `x.ts`):
 * the main entry `text2mem` must import no Node module (`node:fs`, or `fs` spelt bare), so a
 * browser or a bundler can take it as is; every package either entry imports at run time must be
 * a dependency (not a devDependency such as tsx). The Node-only parts live in `text2mem/node`.
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; import: string }>;
  dependencies: Record<string, string>;
};
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Module specifiers of the static imports, re-exports and dynamic imports in a TypeScript source; type-only ones are left out. */
function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specs: string[] = [];
  const statement = /\b(import|export)\s+(type\s+)?([^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]/g;
  for (const m of code.matchAll(statement)) if (!m[2]) specs.push(m[4]!);
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]!);
  return specs;
}

interface Graph {
  readonly files: string[];
  /** `file: specifier` for every import of a Node built-in. */
  readonly builtins: string[];
  /** Bare package names imported at run time. */
  readonly packages: Set<string>;
}

function walk(entry: string): Graph {
  const seen = new Set<string>();
  const builtins: string[] = [];
  const packages = new Set<string>();
  const queue = [resolve(ROOT, entry)];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else if (BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0]!)) builtins.push(`${relative(ROOT, file)}: ${spec}`);
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  return { files: [...seen].map((f) => relative(ROOT, f)), builtins, packages };
}

/** The source file behind an export condition: ./dist/src/x.js → src/x.ts. */
function sourceOf(subpath: string): string {
  const target = PKG.exports[subpath];
  const js = typeof target === 'string' ? target : target!.import;
  return js.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts');
}

describe('package entries', () => {
  it('finds imports the way the walker expects', () => {
    expect(importsOf(`import { a } from './a.js';\nimport type { B } from "./b.js";\nexport * from './c.js';\n// import x from 'node:fs';\nconst m = await import('./d.js');\nimport 'node:path';`))
      .toEqual(['./a.js', './c.js', 'node:path', './d.js']);
  });

  it('text2mem (the main entry) imports no Node built-in anywhere in its graph', () => {
    const graph = walk(sourceOf('.'));
    expect(graph.files).toContain('src/engine/index.ts');
    expect(graph.files).toContain('src/syntax/grammar.ts');
    expect(graph.builtins).toEqual([]);
  });

  it('text2mem/node adds the store files and is the one that reaches node:fs', () => {
    const graph = walk(sourceOf('./node'));
    expect(graph.files).toContain('src/dialect/sqlite/native.ts');
    expect(graph.builtins.some((b) => b.endsWith('node:fs'))).toBe(true);
  });

  it('every package the entries import at run time is a dependency', () => {
    for (const subpath of ['.', './node']) {
      for (const name of walk(sourceOf(subpath)).packages) expect(PKG.dependencies, `${subpath} imports ${name}`).toHaveProperty([name]);
    }
  });

  it('the CLI imports no devDependency at run time', () => {
    const graph = walk('src/cli/main.ts');
    for (const name of graph.packages) expect(PKG.dependencies, `the CLI imports ${name}`).toHaveProperty([name]);
  });
});
