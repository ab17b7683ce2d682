// Bundles the `t2m` CLI (src/cli/main.ts) with esbuild into dist/cli/: one ESM entry, t2m.js,
// plus chunks that each command loads on use (`check` never loads the engine or sql.js). The
// dependencies are bundled too: node would otherwise open some 500 small module files at every
// start (chevrotain's lodash-es, zod). sql.js and PGlite (they find their .wasm next to themselves),
// pg and better-sqlite3 (a native addon) stay external. zod is imported as a namespace
// (`import * as z`), so only the zod the code names is kept: its locales and unused schema kinds
// are dropped (the chunk the engine loads is 151 kB, 289 kB with `import { z }`; test/cli/startup.test.ts).
// Chevrotain's grammar and lexer validations (ambiguity, left recursion, token patterns) take
// about a third of the CLI's start; the sources build the grammar with them on, so every test
// (and the library in dist/src) validates it, and the bundle turns them off by flipping Chevrotain's
// default `skipValidations` (its documented production set-up), failing if that default moved.
// Usage: node scripts/bundle-cli.mjs (part of `npm run build`; `prepare` runs it on `npm install`).
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Chevrotain files whose `skipValidations: false` default the bundle flips. */
const SKIP_VALIDATIONS = [/chevrotain[\\/]lib[\\/]src[\\/]parse[\\/]parser[\\/]parser\.js$/, /chevrotain[\\/]lib[\\/]src[\\/]scan[\\/]lexer_public\.js$/];
const skipGrammarValidations = {
  name: 'skip-grammar-validations',
  setup(b) {
    const patched = new Set();
    b.onLoad({ filter: /chevrotain[\\/]lib[\\/]src[\\/].*\.js$/ }, (args) => {
      const which = SKIP_VALIDATIONS.findIndex((re) => re.test(args.path));
      if (which < 0) return undefined;
      const text = readFileSync(args.path, 'utf8');
      const from = '    skipValidations: false,\n';
      if (text.split(from).length !== 2) throw new Error(`${args.path}: expected one '${from.trim()}' default to flip`);
      patched.add(which);
      return { contents: text.replace(from, '    skipValidations: true,\n'), loader: 'js' };
    });
    b.onEnd((result) => {
      if (!result.errors.length && patched.size !== SKIP_VALIDATIONS.length) throw new Error('chevrotain: the parser and lexer defaults were not both found');
    });
  },
};

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist/cli');
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { t2m: 'src/cli/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // ESM builds first: jsonc-parser's "main" is a UMD file whose dynamic require()s a bundle cannot follow.
  mainFields: ['module', 'main'],
  // PGlite finds its .wasm and data files next to itself, like sql.js; pg has an optional native binding it probes with require.
  external: ['sql.js', 'better-sqlite3', '@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'pg'],
  chunkNames: 'chunks/[name]-[hash]',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'linked',
  logLevel: 'warning',
  plugins: [skipGrammarValidations],
  // Bundled CommonJS dependencies (commander) call require() for node builtins.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __t2mRequire } from 'node:module'; const require = __t2mRequire(import.meta.url);" },
});
