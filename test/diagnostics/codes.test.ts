/**
 * The registry of diagnostic codes (src/diagnostics/codes.ts) is complete and documented: every
 * code links to a spec/ section that exists and names it, spec/checks.md lists exactly the
 * registry, no source file reports a code the registry lacks, and every diagnostic the corpus,
 * the spec examples and the engine produce carries a registered code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleCodes } from '../../src/check/index.js';
import { CODES, codeTable, isCode, type CodeInfo } from '../../src/diagnostics/codes.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { explain, run } from '../../src/engine/index.js';
import { textToIr } from '../../src/pipeline.js';
import { freshStore, NOW } from '../engine/harness.js';
import { SPEC_DIR, t2mBlocks } from '../spec/blocks.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRIES = Object.entries(CODES) as [string, CodeInfo][];

/** GitHub's anchor for a markdown heading. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-');

/** The heading lines of a spec file (outside fenced code blocks), with their line numbers. */
function headings(file: string): { line: number; level: number; anchor: string }[] {
  const out: { line: number; level: number; anchor: string }[] = [];
  let fenced = false;
  readFileSync(join(SPEC_DIR, file), 'utf8').split('\n').forEach((l, line) => {
    if (/^\s*```/.test(l)) fenced = !fenced;
    const m = fenced ? null : /^(#{1,6})\s+(.+)$/.exec(l);
    if (m) out.push({ line, level: m[1].length, anchor: slug(m[2]) });
  });
  return out;
}

/** The text of the section an anchor names (up to the next heading of the same or a higher level). */
function section(file: string, anchor: string): string {
  const all = headings(file);
  const i = all.findIndex((h) => h.anchor === anchor);
  const next = all.slice(i + 1).find((h) => h.level <= all[i].level);
  return readFileSync(join(SPEC_DIR, file), 'utf8').split('\n').slice(all[i].line, next?.line).join('\n');
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

describe('the code registry', () => {
  it.each(ENTRIES)('%s links to a spec section that exists and names it', (code, info) => {
    const [, file, anchor] = /^spec\/([\w.-]+\.md)#([\w-]+)$/.exec(info.spec) ?? [];
    expect(file, `${code}: spec link '${info.spec}' is not spec/<file>.md#<anchor>`).toBeTruthy();
    expect(headings(file).map((h) => h.anchor), `${code}: no heading with anchor #${anchor} in spec/${file}`).toContain(anchor);
    // The section is named after the code, or names it in its text.
    if (anchor !== code) expect(section(file, anchor), `${code}: spec/${file}#${anchor} does not mention it`).toContain(`\`${code}\``);
  });

  it('is listed in spec/checks.md as generated (npx tsx scripts/gen-codes.ts)', () => {
    const text = readFileSync(join(SPEC_DIR, 'checks.md'), 'utf8');
    const listed = /<!-- codes:start[^>]*-->\n([\s\S]*?)\n<!-- codes:end -->/.exec(text)?.[1];
    expect(listed).toBe(codeTable());
  });

  it('declares each checker rule code with the severity the rule gives it', () => {
    for (const [code, { rule, severity }] of ruleCodes()) {
      expect(isCode(code), `${rule} reports '${code}', which is not registered`).toBe(true);
      expect(CODES[code as keyof typeof CODES].severity, `${code} (${rule})`).toBe(severity);
    }
  });

  it('holds every code a source file reports', () => {
    // A kebab-case literal where a diagnostic code goes: `code: '…'`, or the first argument of a
    // reporting helper (report, error, warn, refuse, fail, diagnostic, diagnosticAt).
    const pattern = /(?:\bcode:\s*|\b(?:report|error|warn|refuse|fail|diagnostic)\(\s*|\bdiagnosticAt\([^,()]+,\s*)'([a-z]+(?:-[a-z0-9]+)+)'/g;
    const unregistered: string[] = [];
    let seen = 0;
    for (const file of [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'grammar'))]) {
      for (const m of readFileSync(file, 'utf8').matchAll(pattern)) {
        seen++;
        if (!isCode(m[1])) unregistered.push(`${relative(ROOT, file)}: '${m[1]}'`);
      }
    }
    expect(seen).toBeGreaterThan(50);
    expect(unregistered).toEqual([]);
  });

  it('holds every code the corpus, the spec examples and the engine emit', async () => {
    const emitted: Diagnostic[] = [];
    const corpus = join(ROOT, 'test/corpus');
    const texts = [
      ...readdirSync(corpus).filter((f) => f.endsWith('.t2m')).map((f) => readFileSync(join(corpus, f), 'utf8')),
      ...readdirSync(SPEC_DIR).filter((f) => f.endsWith('.md')).flatMap((f) => t2mBlocks(readFileSync(join(SPEC_DIR, f), 'utf8'), f).map((b) => b.source)),
    ];
    for (const text of texts) {
      const front = textToIr(text);
      emitted.push(...front.diagnostics);
      if (front.irs.length) {
        const store = await freshStore();
        emitted.push(...explain(store, front.irs, { now: NOW, sourceMaps: front.sourceMaps }).diagnostics);
        emitted.push(...run(store, front.irs, { now: NOW }).diagnostics);
        store.close();
      }
    }
    expect(emitted.length).toBeGreaterThan(50);
    expect([...new Set(emitted.map((d) => d.code).filter((c) => !isCode(c)))]).toEqual([]);
  });
});
