/**
 * The built CLI runs its bundle through V8's code cache (src/cli/code-cache.ts): a run without a
 * usable cache writes one at exit, later runs accept it, a cache V8 rejects (another Node, another
 * build, a damaged file) costs nothing but the compile and is replaced, and a cache that cannot be
 * written changes nothing the command does. Each case runs a small CommonJS module in a child
 * process, as dist/cli/t2m.js runs dist/cli/main.cjs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const CODE_CACHE = resolve(import.meta.dirname, '../../src/cli/code-cache.ts');
const dir = mkdtempSync(join(tmpdir(), 't2m-code-cache-'));
const main = join(dir, 'main.cjs');
// A module that uses what Node gives a CommonJS module, exits through an exit handler of its
// own, and has functions compiled only when called (what the cache written at exit adds).
writeFileSync(main, [
  "const { basename } = require('node:path');",
  'function square(n) { return n * n; }',
  'module.exports.total = [1, 2, 3].map(square).reduce((a, b) => a + b, 0);',
  "process.on('exit', () => process.stdout.write(`${basename(__filename)} ${basename(__dirname) === basename(process.env.DIR) } ${module.exports.total} ${typeof exports}\\n`));",
].join('\n'));
const runner = join(dir, 'runner.mjs');
writeFileSync(runner, `import { runCached } from ${JSON.stringify(CODE_CACHE)};\nprocess.stderr.write(runCached(process.argv[2], process.argv[3], process.argv[4]));\n`);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(cacheFile: string | [string, string], env: Record<string, string> = {}): { state: string; stdout: string; status: number | null } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', runner, main, ...(typeof cacheFile === 'string' ? [cacheFile] : cacheFile)], { encoding: 'utf8', env: { ...process.env, DIR: dir, ...env } });
  return { state: r.stderr, stdout: r.stdout, status: r.status };
}

describe('the CLI bundle through the code cache', () => {
  const cache = join(dir, 'main.cjs.cache');
  const expected = { stdout: 'main.cjs true 14 object\n', status: 0 };

  it('writes a cache when there is none, and the next run accepts it', () => {
    expect(run(cache)).toEqual({ state: 'none', ...expected });
    expect(existsSync(cache)).toBe(true);
    const written = readFileSync(cache);
    expect(written.length).toBeGreaterThan(0);
    expect(run(cache)).toEqual({ state: 'accepted', ...expected });
    // An accepted cache is not written again.
    expect(readFileSync(cache).equals(written)).toBe(true);
  });

  it('replaces a cache V8 rejects, or one that is not a cache, with the same output', () => {
    // The bundle's size and modification time (what the cache starts with), then no code V8 accepts.
    const { size, mtimeMs } = statSync(main);
    const header = Buffer.alloc(16);
    header.writeDoubleLE(size, 0);
    header.writeDoubleLE(mtimeMs, 8);
    for (const junk of [Buffer.concat([header, Buffer.alloc(4096, 7)]), Buffer.alloc(4096, 7), Buffer.alloc(0)]) {
      writeFileSync(cache, junk);
      expect(run(cache)).toEqual({ state: 'rejected', ...expected });
      expect(readFileSync(cache).length).toBeGreaterThan(16);
      expect(readFileSync(cache).equals(junk)).toBe(false);
      expect(run(cache)).toEqual({ state: 'accepted', ...expected });
    }
  });

  it('a cache made for another bundle of the same length is not used (V8 compares only the length)', () => {
    run(cache);
    expect(run(cache).state).toBe('accepted');
    const original = readFileSync(main, 'utf8');
    try {
      writeFileSync(main, original.replace('[1, 2, 3]', '[1, 2, 4]'));
      utimesSync(main, new Date(), new Date(Date.now() + 5000));
      expect(run(cache)).toEqual({ state: 'rejected', ...expected, stdout: 'main.cjs true 21 object\n' });
      expect(run(cache)).toEqual({ state: 'accepted', ...expected, stdout: 'main.cjs true 21 object\n' });
    } finally {
      writeFileSync(main, original);
    }
  });

  it('a cache that cannot be written changes nothing', () => {
    // A path under a regular file: no one, not even root, can write it or make its directory.
    const nowhere = join(main, 'main.cjs.cache');
    expect(run(nowhere)).toEqual({ state: 'none', ...expected });
    expect(run(nowhere)).toEqual({ state: 'none', ...expected });
    expect(statSync(main).isFile()).toBe(true);
  });

  it('an install directory that cannot be written: the cache goes to the next place (the user cache), made if missing, and is read from there', () => {
    const nowhere = join(main, 'main.cjs.cache');
    const user = join(dir, 'user-cache', 'text2mem', 'cli.cache');
    expect(run([nowhere, user])).toEqual({ state: 'none', ...expected });
    expect(existsSync(user)).toBe(true);
    expect(run([nowhere, user])).toEqual({ state: 'accepted', ...expected });
    // A user copy another Node (or a damaged file) made is rejected and replaced where it was read.
    writeFileSync(user, Buffer.alloc(64, 3));
    expect(run([nowhere, user])).toEqual({ state: 'rejected', ...expected });
    expect(run([nowhere, user])).toEqual({ state: 'accepted', ...expected });
  });

  it('with neither copy, the cache goes beside the bundle, not to the fallback', () => {
    const beside = join(dir, 'first.cache');
    const user = join(dir, 'user-cache-3', 'cli.cache');
    expect(run([beside, user])).toEqual({ state: 'none', ...expected });
    expect(existsSync(beside)).toBe(true);
    expect(existsSync(user)).toBe(false);
    expect(run([beside, user])).toEqual({ state: 'accepted', ...expected });
  });

  it('a user copy made for an older build is passed over for the one beside the bundle', () => {
    const user = join(dir, 'user-cache-2', 'cli.cache');
    const beside = join(dir, 'beside.cache');
    run([join(main, 'x.cache'), user]);
    expect(existsSync(user)).toBe(true);
    const original = readFileSync(main, 'utf8');
    try {
      writeFileSync(main, original.replace('[1, 2, 3]', '[1, 2, 5]'));
      utimesSync(main, new Date(), new Date(Date.now() + 9000));
      // The user copy is stale by its header; nothing beside the bundle yet, so a new one is written
      // where the stale one was read.
      expect(run([beside, user])).toEqual({ state: 'rejected', ...expected, stdout: 'main.cjs true 30 object\n' });
      expect(run([beside, user])).toEqual({ state: 'accepted', ...expected, stdout: 'main.cjs true 30 object\n' });
      expect(existsSync(beside)).toBe(false);
    } finally {
      writeFileSync(main, original);
    }
  });

  it('userCacheFile: under $XDG_CACHE_HOME, else ~/.cache; one file per bundle path', async () => {
    const { userCacheFile } = await import('../../src/cli/code-cache.js');
    const a = userCacheFile('/opt/a/dist/cli/main.cjs', { XDG_CACHE_HOME: '/x' });
    expect(a).toMatch(/^\/x\/text2mem\/cli-[0-9a-f]{8}\.cache$/);
    expect(userCacheFile('/opt/b/dist/cli/main.cjs', { XDG_CACHE_HOME: '/x' })).not.toBe(a);
    expect(userCacheFile('/opt/a/dist/cli/main.cjs', { XDG_CACHE_HOME: '/x' })).toBe(a);
    expect(userCacheFile('/opt/a/dist/cli/main.cjs', { HOME: '/h' })).toMatch(/\/\.cache\/text2mem\/cli-[0-9a-f]{8}\.cache$/);
  });

  it('T2M_CODE_CACHE=off neither reads nor writes it', () => {
    const unused = join(dir, 'unused.cache');
    expect(run(unused, { T2M_CODE_CACHE: 'off' })).toEqual({ state: 'off', ...expected });
    expect(existsSync(unused)).toBe(false);
  });
});
