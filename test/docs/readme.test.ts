/**
 * The ```t2m examples outside spec/ (README, docs/, prettier/README) are tested like the spec's:
 * each must check clean, and — since the README presents them as runnable — run on a fresh store.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { textToIr } from '../../src/pipeline.js';
import { t2mBlocks } from '../spec/blocks.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = ['README.md', 'prettier/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
  .filter((f) => existsSync(join(ROOT, f)));

describe('examples in the README and docs', () => {
  const blocks = DOCS.flatMap((f) => t2mBlocks(readFileSync(join(ROOT, f), 'utf8'), f));

  it('finds the README examples', () => {
    expect(blocks.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(2);
  });

  for (const block of blocks) {
    it(`${block.file}:${block.line} checks clean and runs`, async () => {
      const front = textToIr(block.source);
      expect(front.diagnostics.map((d) => `${d.severity} ${d.code} ${d.message}`)).toEqual([]);
      const store = await createStore();
      // The README's examples are our own (trusted) scripts: they run with the actors they name.
      const result = run(store, front.irs, { now: '2025-05-01T00:00:00Z', sourceMaps: front.sourceMaps, impersonate: true });
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(result.ok).toBe(true);
    });
  }
});
