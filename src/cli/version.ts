/**
 * The package version, read from package.json at run time so it is written once. The CLI runs
 * from src/cli (tsx), dist/src/cli (tsc) or dist/cli (the bundle), so the file is found by walking
 * up from this module to the nearest package.json named text2mem.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'text2mem' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here (or not JSON): keep walking up.
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}
