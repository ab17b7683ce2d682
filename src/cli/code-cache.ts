/**
 * Runs the bundled CLI (one CommonJS file, dist/cli/main.cjs) through V8's code cache. Node 20
 * keeps no compiled code between runs of ES modules (`module.enableCompileCache()` needs Node
 * ≥ 22.1), but a `vm.Script` takes `cachedData`: the bytecode of every function a run compiled,
 * written once by a run that found no usable cache (the build's own warm-up run, see
 * scripts/bundle-cli.mjs) and read by each later run, which then neither parses the bundle nor
 * compiles the functions it calls on first use. V8 checks the cache against the source, its own
 * version and its flags and rejects one that does not match; a rejected or unreadable cache only
 * costs the compile the run would have done anyway, and that run writes a fresh one. V8 compares
 * only the source's length, so the cache also starts with the bundle's size and modification
 * time, and one made for another file of the same length is treated as rejected. Writing is
 * best effort and atomic (a temporary file renamed). An install directory may be read-only (a
 * global install by another user): the cache then goes to the user's cache directory
 * (`$XDG_CACHE_HOME/text2mem/`, else `~/.cache/text2mem/`, one file per bundle path; see
 * `userCacheFile`). `T2M_CODE_CACHE=off` runs without reading or writing it.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/** What became of the cache in this run (for tests and the build's warm-up). */
export type CacheState = 'off' | 'none' | 'rejected' | 'accepted';

/**
 * Compiles `file` (a CommonJS module) with its code cache, runs it as the main module would run,
 * and when no cache was accepted writes one as the process exits (after the command has run, so
 * it holds the functions the command compiled, not only the top level). The cache is `cacheFile`;
 * `fallback` is where it goes when `cacheFile` cannot be written. A fallback copy exists only then
 * (or after `cacheFile` held one another Node rejects), so it is read first; of the two, the first
 * that holds a cache made for this bundle is used. A new cache replaces the one that was read, if
 * any, else goes to `cacheFile`, else to `fallback`.
 */
export function runCached(file: string, cacheFile: string, fallback?: string, env: NodeJS.ProcessEnv = process.env): CacheState {
  const use = env.T2M_CODE_CACHE !== 'off';
  const candidates = fallback === undefined ? [cacheFile] : [fallback, cacheFile];
  const source = readFileSync(file, 'utf8');
  const header = use ? bundleHeader(file) : undefined;
  let cached: Buffer | undefined;
  let found: string | undefined;
  let stale = false;
  if (use) {
    for (const candidate of candidates) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(candidate);
      } catch {
        continue; // No cache there yet (or unreadable).
      }
      cached = bytes;
      found = candidate;
      stale = !(bytes.length > HEADER_BYTES && bytes.subarray(0, HEADER_BYTES).equals(header!));
      if (!stale) break;
    }
  }
  const cachedData = cached === undefined || stale ? undefined : cached.subarray(HEADER_BYTES);
  // The wrapper is put on the module's first line, so line numbers in stack traces stay the file's.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const state: CacheState = !use ? 'off' : cached === undefined ? 'none' : stale || script.cachedDataRejected ? 'rejected' : 'accepted';
  if (state === 'none' || state === 'rejected') {
    const order = fallback === undefined ? [cacheFile] : [cacheFile, fallback];
    const targets = found === undefined ? order : [found, ...order.filter((c) => c !== found)];
    process.once('exit', () => writeCache(script, targets, header!));
  }
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  return state;
}

/**
 * Where the user's own copy of the cache for the bundle at `file` lives, for installs whose
 * directory the user cannot write: `$XDG_CACHE_HOME/text2mem/` (else `~/.cache/text2mem/`),
 * named by a hash of the bundle's path so that two installs do not share one.
 */
export function userCacheFile(file: string, env: NodeJS.ProcessEnv = process.env): string {
  // FNV-1a, 32 bits, over the path's UTF-16 code units: a name, not a security boundary (the
  // header and V8's own checks decide whether a cache is used).
  let hash = 0x811c9dc5;
  for (let i = 0; i < file.length; i++) hash = Math.imul(hash ^ file.charCodeAt(i), 0x01000193) >>> 0;
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'text2mem', `cli-${hash.toString(16).padStart(8, '0')}.cache`);
}

const HEADER_BYTES = 16;

/** The bundle's size and modification time, which a cache made for it starts with. */
function bundleHeader(file: string): Buffer {
  const { size, mtimeMs } = statSync(file);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeDoubleLE(size, 0);
  header.writeDoubleLE(mtimeMs, 8);
  return header;
}

function writeCache(script: Script, cacheFiles: readonly string[], header: Buffer): void {
  let data: Buffer;
  try {
    // V8 checks the flags a cache was made under: the CLI pauses the optimising compiler while
    // it starts (src/cli/startup.ts), so a command that exits before resuming it would otherwise
    // write a cache every later run rejects.
    setFlagsFromString('--opt');
    data = Buffer.concat([header, script.createCachedData()]);
  } catch {
    return;
  }
  for (const cacheFile of cacheFiles) {
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(cacheFile), { recursive: true });
      writeFileSync(temporary, data);
      renameSync(temporary, cacheFile);
      return;
    } catch {
      // A read-only directory: try the next place; with none left, every run compiles from
      // source, as without the cache.
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Not even a directory there (a path under a regular file): nothing was written.
      }
    }
  }
}
