/**
 * Moving work in and out of the page: saving the script as `.t2m` or IR `.json`, opening either
 * as a new script, exporting and importing the store as `.sqlite`, and share links (the script
 * in the URL hash).
 */
import { download, pickFile } from './dom.js';
import { analyze, irsToDsl } from './library.js';
import { encodeShareHash } from './share.js';

/** What the file actions need of the page. */
export interface FileContext {
  scriptText(): string;
  scriptName(): string;
  /** Opens `text` in a new script tab. */
  openScript(text: string, name: string): void;
  storeBytes(): Uint8Array;
  /** Switches to the store in `bytes`; throws if it does not open. */
  loadStore(bytes: Uint8Array): Promise<void>;
  status(text: string): void;
}

export function saveScript(ctx: FileContext, as: 'dsl' | 'json'): void {
  const name = ctx.scriptName().replace(/[^\w.-]+/g, '_');
  if (as === 'dsl') {
    download(`${name}.t2m`, ctx.scriptText(), 'text/plain');
    return;
  }
  const { irs, diagnostics } = analyze(ctx.scriptText());
  if (diagnostics.some((d) => d.severity === 'error')) {
    ctx.status('fix the errors before saving as IR JSON');
    return;
  }
  download(`${name}.json`, JSON.stringify(irs, null, 2), 'application/json');
}

/** Opens a `.t2m` file, or IR as a JSON array or JSON lines (converted to DSL), as a new script. */
export async function openScriptFile(ctx: FileContext): Promise<void> {
  const file = await pickFile('.t2m,.json,.jsonl,.txt');
  if (!file) return;
  const text = await file.text();
  const name = file.name.replace(/\.\w+$/, '');
  if (!/^\s*[[{]/.test(text)) {
    ctx.openScript(text, name);
    return;
  }
  let json: unknown;
  try {
    json = text.trimStart().startsWith('[') ? JSON.parse(text) : text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  } catch (e) {
    ctx.status(`${file.name}: not valid JSON: ${(e as Error).message}`);
    return;
  }
  const result = irsToDsl(json as unknown[]);
  if (result.text === undefined) {
    ctx.status(`${file.name}: ${result.diagnostics[0]?.message ?? 'not an IR'}`);
    return;
  }
  ctx.openScript(result.text, name);
}

export function exportStore(ctx: FileContext): void {
  download('text2mem-store.sqlite', ctx.storeBytes() as BlobPart, 'application/vnd.sqlite3');
}

export async function importStore(ctx: FileContext): Promise<void> {
  const file = await pickFile('.sqlite,.db,application/vnd.sqlite3');
  if (!file) return;
  try {
    await ctx.loadStore(new Uint8Array(await file.arrayBuffer()));
  } catch (e) {
    ctx.status(`could not open ${file.name}: ${(e as Error).message}`);
    return;
  }
  ctx.status(`store loaded from ${file.name}`);
}

/** The page's URL with `script` in its hash. */
export async function shareUrl(script: string): Promise<string> {
  return location.href.replace(/#.*$/, '') + await encodeShareHash(script);
}

/** Copies a share link to the clipboard and puts it in the address bar. */
export async function share(ctx: FileContext): Promise<void> {
  const hash = await encodeShareHash(ctx.scriptText());
  const url = location.href.replace(/#.*$/, '') + hash;
  await navigator.clipboard?.writeText(url).catch(() => undefined);
  history.replaceState(null, '', hash);
  ctx.status('share link copied to the clipboard (and in the address bar)');
}
