/**
 * Prints the built playground's JavaScript sizes, raw and gzipped: the entry chunk the page loads
 * up front (the scripts of index.html and what they import statically), the editor chunk the entry
 * starts loading at once with `import()` (Monaco and the language adapters), the workers, and the
 * chunks loaded on demand (Monaco's SQL and JSON language modes). Also lists the Monaco language
 * definitions in the bundle, which must be only the ones the page uses.
 *
 *   npm run build:playground && npx tsx scripts/playground-size.ts [--json]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const DIST = fileURLToPath(new URL('../playground/dist/', import.meta.url));
/** Written by `build.manifest` in playground/vite.config.ts: the chunk graph (static and dynamic imports). */
const MANIFEST = join(DIST, '.vite', 'manifest.json');
const MONACO_LANGUAGES = join(fileURLToPath(new URL('../node_modules/monaco-editor/esm/vs/languages/definitions/', import.meta.url)));

export interface FileSize { readonly file: string; readonly bytes: number; readonly gzip: number }
export interface SizeReport {
  /** The entry chunk and its static imports: what the page needs before it can render. */
  readonly initial: FileSize[];
  /** What the entry imports with `import()` (and those chunks' static imports): the editor. */
  readonly editor: FileSize[];
  readonly workers: FileSize[];
  /** Every other chunk: loaded only when something asks for it. */
  readonly lazy: FileSize[];
  readonly totals: { readonly initialGzip: number; readonly editorGzip: number; readonly workersGzip: number; readonly lazyGzip: number };
  /** Monaco language definitions that made it into the bundle (by chunk name). */
  readonly monacoLanguages: string[];
}

interface ManifestChunk { readonly file: string; readonly isEntry?: boolean; readonly imports?: string[]; readonly dynamicImports?: string[] }

function size(file: string): FileSize {
  const data = readFileSync(join(DIST, file));
  return { file, bytes: data.length, gzip: gzipSync(data, { level: 9 }).length };
}

/** The JS files of `keys` and of everything they import statically. */
function staticClosure(manifest: Record<string, ManifestChunk>, keys: readonly string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${MANIFEST} names a chunk it does not list: ${key}`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const key of keys) visit(key);
  return files;
}

export function playgroundSize(): SizeReport {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('playground/dist is missing: run `npm run build:playground` first');
  if (!existsSync(MANIFEST)) throw new Error(`${MANIFEST} is missing: the playground's vite config must set build.manifest`);
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
  const entryKeys = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  const entries = staticClosure(manifest, entryKeys);
  const editorChunks = staticClosure(manifest, entryKeys.flatMap((k) => manifest[k].dynamicImports ?? []));
  const files = readdirSync(join(DIST, 'assets')).filter((f) => f.endsWith('.js')).map((f) => `assets/${f}`);
  const initial = files.filter((f) => entries.has(f)).map(size);
  const editor = files.filter((f) => !entries.has(f) && editorChunks.has(f)).map(size);
  const rest = files.filter((f) => !entries.has(f) && !editorChunks.has(f));
  const workers = rest.filter((f) => /worker/i.test(f)).map(size);
  const lazy = rest.filter((f) => !/worker/i.test(f)).map(size);
  const known = new Set(readdirSync(MONACO_LANGUAGES).filter((d) => !d.includes('.')));
  const monacoLanguages = [...editor, ...lazy].map((f) => f.file.replace(/^assets\/|-[\w-]{8}\.js$/g, '')).filter((name) => known.has(name));
  const sum = (xs: FileSize[]) => xs.reduce((n, x) => n + x.gzip, 0);
  return {
    initial, editor, workers, lazy,
    totals: { initialGzip: sum(initial), editorGzip: sum(editor), workersGzip: sum(workers), lazyGzip: sum(lazy) },
    monacoLanguages,
  };
}

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = playgroundSize();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    const sections = [
      ['entry chunk (loaded by the page)', report.initial],
      ['editor chunk (imported by the entry at once, in parallel)', report.editor],
      ['workers', report.workers],
      ['on demand', report.lazy],
    ] as const;
    for (const [title, list] of sections) {
      console.log(`${title}:`);
      for (const f of list) console.log(`  ${f.file.padEnd(44)} ${kb(f.bytes).padStart(11)}  gzip ${kb(f.gzip).padStart(10)}`);
    }
    const t = report.totals;
    console.log(`page JS gzipped: ${kb(t.initialGzip)} entry, ${kb(t.editorGzip)} editor, ${kb(t.workersGzip)} in workers, ${kb(t.lazyGzip)} on demand`);
    console.log(`Monaco language definitions bundled: ${report.monacoLanguages.join(', ') || 'none'}`);
  }
}
