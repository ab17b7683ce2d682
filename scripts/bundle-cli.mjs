// Bundles the `t2m` CLI (src/cli/main.ts) with esbuild into dist/cli/: main.cjs, the whole CLI as
// one CommonJS file, and t2m.js, the executable (CommonJS as well, by dist/cli/package.json),
// which runs main.cjs through V8's code cache (src/cli/code-cache.ts; Node 20 caches compiled
// code only for scripts, not ES modules). Kept because the bundle with its cache starts in about
// a third of the time of the unbundled modules (`npm run perf -- startup`). Each
// command's modules are imported on use (`import()`), which esbuild turns into modules wrapped
// in functions run on first use: `check` still never runs the engine's modules or loads sql.js;
// V8 only pre-parses them, and with the cache not even that. After the build, one warm-up run
// (`t2m bench` on a slice of the upstream benchmark) writes the cache, dist/cli/main.cjs.cache,
// with the functions a run compiles; it is not packed (package.json `files`): an installed CLI
// writes its own on its first run, and V8 rejects one made by another Node.
// The dependencies are bundled too: node would otherwise open some 500 small module files at every
// start (chevrotain's lodash-es, zod, better-sqlite3's JavaScript). sql.js and PGlite (they find
// their .wasm next to themselves), pg and better-sqlite3's native addon stay external.
// Chevrotain's grammar and lexer validations (ambiguity, left recursion, token patterns) cost over
// 10% of a `t2m check`'s cold start (`npm run perf -- startup`): the sources build the grammar with
// them on, so every test (and the library in dist/src) validates it; the bundle defines the
// constant that the parser's and lexers' public `skipValidations` option reads (src/syntax/grammar.ts,
// src/syntax/tokens.ts), Chevrotain's documented production set-up.
// Usage: node scripts/bundle-cli.mjs [--no-warm-up] (part of `npm run build`; `prepare` runs it on `npm install`).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist/cli');
rmSync(outdir, { recursive: true, force: true });
const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'linked',
  logLevel: 'warning',
};
await build({
  ...common,
  entryPoints: { main: 'src/cli/main.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // ESM builds first: jsonc-parser's "main" is a UMD file whose dynamic require()s a bundle cannot follow.
  mainFields: ['module', 'main'],
  // PGlite finds its .wasm and data files next to itself, like sql.js; pg has an optional native binding it probes with require.
  // better-sqlite3's JavaScript is bundled; its native addon is loaded from the installed package
  // (src/dialect/sqlite/native.ts `nativeBinding`), so `bindings`, which would look for it, is never called.
  external: ['sql.js', 'bindings', '@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'pg'],
  // import() of those becomes require(): a vm.Script (src/cli/code-cache.ts) has no module loader for import().
  supported: { 'dynamic-import': false },
  // The sources are ES modules: import.meta.url is the bundle's own file URL.
  define: { 'import.meta.url': '__t2mUrl', 'globalThis.T2M_SKIP_GRAMMAR_VALIDATIONS': 'true' },
  banner: { js: "var __t2mUrl = require('node:url').pathToFileURL(__filename).href;" },
});
await build({
  ...common,
  entryPoints: { t2m: 'src/cli/bin.ts' },
  format: 'cjs',
  define: { 'import.meta.dirname': '__dirname' },
  banner: { js: '#!/usr/bin/env node' },
});
// The bundle must be ASCII: Node reads a file holding one other character into a two-byte string,
// twice the memory and about twice the time to read. esbuild escapes strings (its default charset)
// but copies regular expression literals as written: write such characters there as \u escapes.
for (const file of ['main.cjs', 't2m.js']) {
  const text = readFileSync(join(outdir, file), 'utf8');
  const at = text.search(/[^\x00-\x7f]/);
  if (at >= 0) throw new Error(`${file}: a non-ASCII character at offset ${at} (${JSON.stringify(text.slice(Math.max(0, at - 60), at + 20))}); write it as a \\u escape in the source`);
}
// t2m.js is CommonJS too (the package is "type": "module"; this file scopes dist/cli): node then
// runs it without starting its ES module loader, which loads some 20 more of its own modules.
writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
// esbuild writes files without the executable bit: `npx t2m` in a clone runs the file itself.
chmodSync(join(outdir, 't2m.js'), 0o755);

// The warm-up run that writes the code cache: every operation of the benchmark, a few samples each.
const samples = join(root, 'fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl');
if (!process.argv.includes('--no-warm-up') && existsSync(samples)) {
  const dir = mkdtempSync(join(tmpdir(), 't2m-warm-up-'));
  try {
    const slice = join(dir, 'samples.jsonl');
    writeFileSync(slice, readFileSync(samples, 'utf8').split('\n').filter((line, i) => line.trim() && i % 8 === 0).join('\n'));
    const run = spawnSync(process.execPath, [join(outdir, 't2m.js'), 'bench', slice, '--json'], { encoding: 'utf8', env: { ...process.env, T2M_CODE_CACHE: '' } });
    if (run.status !== 0 || !existsSync(join(outdir, 'main.cjs.cache'))) process.stderr.write(`bundle-cli: the warm-up run wrote no code cache (exit ${run.status}); the CLI's first run will\n${run.stderr.slice(-2000)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
