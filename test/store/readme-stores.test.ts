/** The README's "Stores" example runs as written (on PGlite), with `text2mem/node` read as src/node.ts. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it, vi } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

it('README "Stores": the openStoreUrl example runs', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Stores'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)![1];
  expect(code).toContain("from 'text2mem/node'");
  const file = join(import.meta.dirname, `.readme-stores-${process.pid}.ts`);
  writeFileSync(file, code.replace("'text2mem/node'", JSON.stringify(join(ROOT, 'src/node.ts'))));
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import(file);
    expect(log).toHaveBeenCalledWith(true, [1]);
  } finally {
    log.mockRestore();
    rmSync(file, { force: true });
  }
});
