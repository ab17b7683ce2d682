import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { formatText } from '../../src/pipeline.js';

const PLUGIN = fileURLToPath(new URL('../../prettier/index.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const MESSY = `# OKR workflow
encode   "Q2 OKR review"   type note
   tags "OKR","review" ;   # the review itself
promote where search "OKR progress" limit 5 set weight 0.9
`;

async function fmt(text: string): Promise<string> {
  return prettier.format(text, { parser: 't2m', plugins: [PLUGIN] });
}

describe('prettier plugin', () => {
  it('formats with the project printer, byte for byte', async () => {
    const out = await fmt(MESSY);
    expect(out).toBe(formatText(MESSY).text);
    expect(out).not.toBe(MESSY);
  });

  it('is idempotent and keeps comments', async () => {
    const once = await fmt(MESSY);
    expect(await fmt(once)).toBe(once);
    expect(once).toContain('# OKR workflow');
    expect(once).toContain('# the review itself');
  });

  it('is picked for .t2m files by inferred parser', async () => {
    const out = await prettier.format(MESSY, { filepath: 'x.t2m', plugins: [PLUGIN] });
    expect(out).toBe(formatText(MESSY).text);
  });

  it('reports a syntax error with its location instead of formatting', async () => {
    // The missing ';' is reported where it belongs: at the end of line 1.
    await expect(fmt('PROMOTE WHERE search "x" LIMIT 5 SET weight 0.9\nENCODE "a" TAGS ,,\n')).rejects.toThrow(/Expected ';'[^]*\(1:48\)/);
  });

  it('works from the command line: npx prettier --plugin ./prettier/index.mjs file.t2m', async () => {
    const dir = mkdtempSync(join(tmpdir(), 't2m-prettier-'));
    const file = join(dir, 'script.t2m');
    writeFileSync(file, MESSY);
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/prettier/bin/prettier.cjs'), '--plugin', PLUGIN, file], { cwd: ROOT });
    expect(stdout).toBe(formatText(MESSY).text);
  });
});
