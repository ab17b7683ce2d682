/**
 * The package as a user gets it: `npm pack` (which builds dist/ through `prepack`), install the
 * tarball into an empty project, then (a) import and run a script from plain node, (b) type-check
 * a consumer under strict + nodenext + noUncheckedIndexedAccess with skipLibCheck off, (c) run the
 * installed `t2m`, (d) run `npx t2m` in the clone after that build. Needs the npm registry (or a
 * warm npm cache) for the dependencies.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLsp } from '../lsp/client.js';

const ROOT = resolve(import.meta.dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

let work: string;
let app: string;
let tarball: string;
let files: string[];

function sh(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 't2m-package-'));
  const pack = join(work, 'pack');
  app = join(work, 'app');
  mkdirSync(pack);
  mkdirSync(join(app, 'src'), { recursive: true });
  const listing = JSON.parse(sh(NPM, ['pack', '--json', '--silent', '--pack-destination', pack], ROOT)) as Array<{ files: Array<{ path: string }> }>;
  files = listing[0]!.files.map((f) => f.path);
  tarball = join(pack, readdirSync(pack).find((f) => f.endsWith('.tgz'))!);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 't2m-consumer', private: true, type: 'module' }));
  sh(NPM, ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--silent'], app);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('ships the built library and CLI, not the sources or the tests', () => {
    expect(files).toContain('package.json');
    expect(files).toContain('dist/src/index.js');
    expect(files).toContain('dist/src/index.d.ts');
    expect(files).toContain('dist/src/node.d.ts');
    expect(files).toContain('dist/cli/t2m.js');
    expect(files).toContain('dist/cli/main.cjs');
    // V8's code cache is made by and for one Node: the installed CLI writes its own (src/cli/code-cache.ts).
    expect(files.filter((f) => f.endsWith('.cache'))).toEqual([]);
    expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f))).toEqual([]);
    expect(files.filter((f) => /(^|\/)test\/|\.test\.|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    const installed = JSON.parse(readFileSync(join(app, 'node_modules/text2mem/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(installed.dependencies)).not.toContain('tsx');
    for (const f of files.filter((x) => x.endsWith('.js'))) {
      expect(readFileSync(join(app, 'node_modules/text2mem', f), 'utf8'), f).not.toMatch(/from\s*['"]tsx|import\(\s*['"]tsx/);
    }
  });

  it('(a) runs a script from plain node through the main entry', () => {
    const script = `
      import { textToIr, createStore, run } from 'text2mem';
      const { irs, sourceMaps, diagnostics } = textToIr('ENCODE "hello" TAGS "demo"; RETRIEVE WHERE tags HAS "demo" LIMIT 5;');
      const store = await createStore();
      const result = run(store, irs, { now: '2025-05-01T00:00:00Z', sourceMaps });
      console.log(JSON.stringify({ diagnostics, ok: result.ok, ids: result.results.map((r) => r.ids), text: result.results[1].rows.map((r) => r.text) }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ diagnostics: [], ok: true, ids: [[1], [1]], text: ['hello'] });
  });

  it('(a) also loads through require() (node ≥ 20.19 requires ES modules), both entries', () => {
    const script = `const t = require('text2mem'); const n = require('text2mem/node');
      console.log(t.textToIr('LOCK WHERE id = 1 MODE read_only;').irs[0].op, typeof n.loadStoreFile, typeof t.loadStoreFile);`;
    const r = spawnSync(process.execPath, ['-e', script], { cwd: app, encoding: 'utf8' });
    expect([r.stdout, r.stderr]).toEqual(['Lock function undefined\n', '']);
  });

  it('(b) type-checks a strict nodenext consumer with noUncheckedIndexedAccess and skipLibCheck off: 0 errors', () => {
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: false, skipLibCheck: false, noEmit: true, types: [],
      },
      include: ['src'],
    }));
    writeFileSync(join(app, 'src/main.ts'), `
      import { textToIr, irsToText, createStore, run, explain, check, validateIr, parse, print, type Diagnostic, type RunResult, type IR } from 'text2mem';
      import { loadStoreFile, saveStoreFile } from 'text2mem/node';

      const front = textToIr('ENCODE "hello" TAGS "demo"; RETRIEVE WHERE tags HAS "demo" LIMIT 5;');
      export const errors: Diagnostic[] = front.diagnostics.filter((d) => d.severity === 'error');
      const store = await createStore();
      const result: RunResult = run(store, front.irs, { now: '2025-05-01T00:00:00Z', sourceMaps: front.sourceMaps });
      export const ids: readonly number[] = result.results[0]?.ids ?? [];
      export const plan: RunResult = explain(store, front.irs);
      export const text: string = irsToText(front.irs) + print(parse('LOCK WHERE id = 1 MODE read_only;').script);
      const v = validateIr({ stage: 'RET', op: 'Retrieve' });
      export const ir: IR | undefined = v.ir;
      export const warnings: number = ir ? check([ir]).length : v.diagnostics.length;
      const opened = await loadStoreFile('store.sqlite');
      export const saved: Diagnostic | null = opened.ok ? saveStoreFile(opened.store, 'store.sqlite') : null;
    `);
    const r = spawnSync(process.execPath, [TSC, '-p', app], { cwd: app, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('(c) runs the installed t2m: --version, check, run on a store file', () => {
    const bin = join(app, 'node_modules/.bin/t2m');
    writeFileSync(join(app, 'ok.t2m'), 'ENCODE "hello" TAGS "demo";\nRETRIEVE WHERE tags HAS "demo" LIMIT 5;\n');
    writeFileSync(join(app, 'bad.t2m'), 'LOCK WHERE tags HAS "x" LIMIT 5 MODE read_onl;\n');
    const t2m = (...args: string[]) => spawnSync(bin, args, { cwd: app, encoding: 'utf8' });

    const cache = join(app, 'node_modules/text2mem/dist/cli/main.cjs.cache');
    expect(existsSync(cache)).toBe(false);
    expect(t2m('--version').stdout.trim()).toBe(VERSION);
    // The first run wrote the code cache the later ones compile the CLI with.
    expect(existsSync(cache)).toBe(true);
    const ok = t2m('check', 'ok.t2m');
    expect([ok.status, ok.stdout]).toEqual([0, 'ok.t2m: ok (2 statements checked, dsl)\n']);
    const bad = t2m('check', 'bad.t2m');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain("did you mean 'read_only'?");
    const run = t2m('run', 'ok.t2m', '--db', 'store.sqlite', '--now', '2025-05-01T00:00:00Z');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('created #1');
    const audit = t2m('audit', '--db', 'store.sqlite', '--json');
    expect((JSON.parse(audit.stdout) as Array<{ op: string }>).map((e) => e.op)).toEqual(['Encode']);
  });

  it('(c) the installed t2m runs as CommonJS (no ES module loader) and opens a store without `bindings`', () => {
    // scripts/bundle-cli.mjs: dist/cli/package.json makes t2m.js CommonJS; src/dialect/sqlite/native.ts
    // hands better-sqlite3 its addon, so the `bindings` package never looks for it.
    expect(files).toContain('dist/cli/package.json');
    const preload = join(app, 'loaded.cjs');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write(`\\nLOADED ${JSON.stringify({ esm: process.moduleLoadList.includes('NativeModule internal/modules/esm/module_job'), bindings: Object.keys(require.cache).some((k) => /[\\\\/]node_modules[\\\\/]bindings[\\\\/]/.test(k)) })}\\n`));\n");
    writeFileSync(join(app, 'one.t2m'), 'ENCODE "hello" TAGS "demo";\n');
    const r = spawnSync(process.execPath, ['-r', preload, join(app, 'node_modules/text2mem/dist/cli/t2m.js'), 'run', 'one.t2m', '--db', 'loaded.sqlite', '--now', '2025-05-01T00:00:00Z'], { cwd: app, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('created #1');
    expect(JSON.parse(r.stderr.split('\nLOADED ').at(-1)!)).toEqual({ esm: false, bindings: false });
  });

  it('(c) serves LSP from the installed t2m: t2m lsp --stdio publishes diagnostics, then exits 0', async () => {
    const lsp = await startLsp([], { t2m: [join(app, 'node_modules/.bin/t2m')], cwd: app });
    const published = await lsp.open('file:///app/bad.t2m', 'LOCK WHERE tags HAS "x" LIMIT 5 MODE read_onl;\n');
    expect(published.diagnostics.map((d) => [d.code, d.range.start.character, d.range.end.character])).toEqual([['invalid-enum', 37, 45]]);
    expect(await lsp.stop()).toBe(0);
  });

  it('(d) leaves the clone runnable: `npm pack` rebuilt dist/, and `npx t2m` runs the executable dist/cli/t2m.js', () => {
    // esbuild writes files without the executable bit; the build sets it (scripts/bundle-cli.mjs).
    expect(statSync(join(ROOT, 'dist/cli/t2m.js')).mode & 0o111).toBe(0o111);
    const r = spawnSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['--no-install', 't2m', '--version'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(VERSION);
    expect(r.status).toBe(0);
  });
});
