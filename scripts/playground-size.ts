/**
 * Prints the built playground's JavaScript sizes, raw and gzipped: what the page loads up front
 * (the entry scripts of index.html), the workers, and the chunks loaded on demand. Also lists the
 * Monaco language definitions in the bundle, which must be only the ones the page uses.
 *
 *   npm run build:playground && npx tsx scripts/playground-size.ts [--json]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const DIST = fileURLToPath(new URL('../playground/dist/', import.meta.url));
const MONACO_LANGUAGES = join(fileURLToPath(new URL('../node_modules/monaco-editor/esm/vs/languages/definitions/', import.meta.url)));

export interface FileSize { readonly file: string; readonly bytes: number; readonly gzip: number }
export interface SizeReport {
  readonly initial: FileSize[];
  readonly workers: FileSize[];
  readonly lazy: FileSize[];
  readonly totals: { readonly initialGzip: number; readonly workersGzip: number; readonly lazyGzip: number };
  /** Monaco language definitions that made it into the bundle (by chunk name). */
  readonly monacoLanguages: string[];
}

function size(file: string): FileSize {
  const data = readFileSync(join(DIST, file));
  return { file, bytes: data.length, gzip: gzipSync(data, { level: 9 }).length };
}

export function playgroundSize(): SizeReport {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('playground/dist is missing: run `npm run build:playground` first');
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const entries = new Set([...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  const files = readdirSync(join(DIST, 'assets')).filter((f) => f.endsWith('.js')).map((f) => `assets/${f}`);
  const initial = files.filter((f) => entries.has(f)).map(size);
  const workers = files.filter((f) => !entries.has(f) && /worker/i.test(f)).map(size);
  const lazy = files.filter((f) => !entries.has(f) && !/worker/i.test(f)).map(size);
  const known = new Set(readdirSync(MONACO_LANGUAGES).filter((d) => !d.includes('.')));
  const monacoLanguages = lazy.map((f) => f.file.replace(/^assets\/|-[\w-]{8}\.js$/g, '')).filter((name) => known.has(name));
  const sum = (xs: FileSize[]) => xs.reduce((n, x) => n + x.gzip, 0);
  return { initial, workers, lazy, totals: { initialGzip: sum(initial), workersGzip: sum(workers), lazyGzip: sum(lazy) }, monacoLanguages };
}

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = playgroundSize();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    for (const [title, list] of [['loaded by the page', report.initial], ['workers', report.workers], ['on demand', report.lazy]] as const) {
      console.log(`${title}:`);
      for (const f of list) console.log(`  ${f.file.padEnd(44)} ${kb(f.bytes).padStart(11)}  gzip ${kb(f.gzip).padStart(10)}`);
    }
    console.log(`page JS gzipped: ${kb(report.totals.initialGzip)} up front, ${kb(report.totals.workersGzip)} in workers, ${kb(report.totals.lazyGzip)} on demand`);
    console.log(`Monaco language definitions bundled: ${report.monacoLanguages.join(', ') || 'none'}`);
  }
}
