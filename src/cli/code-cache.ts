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
 * best effort (an install directory may be read-only) and atomic (a temporary file renamed).
 * `T2M_CODE_CACHE=off` runs without reading or writing it. Measured in spec/semantics.md
 * ("Eighth pass").
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/** What became of the cache in this run (for tests and the build's warm-up). */
export type CacheState = 'off' | 'none' | 'rejected' | 'accepted';

/**
 * Compiles `file` (a CommonJS module) with the code cache at `cacheFile`, runs it as the main
 * module would run, and when no cache was accepted writes one as the process exits (after the
 * command has run, so it holds the functions the command compiled, not only the top level).
 */
export function runCached(file: string, cacheFile: string, env: NodeJS.ProcessEnv = process.env): CacheState {
  const use = env.T2M_CODE_CACHE !== 'off';
  const source = readFileSync(file, 'utf8');
  const header = use ? bundleHeader(file) : undefined;
  let cached: Buffer | undefined;
  if (use) {
    try {
      cached = readFileSync(cacheFile);
    } catch {
      // No cache yet (or unreadable): compile from source and write one at exit.
    }
  }
  const stale = cached !== undefined && !(cached.length > HEADER_BYTES && cached.subarray(0, HEADER_BYTES).equals(header!));
  const cachedData = cached === undefined || stale ? undefined : cached.subarray(HEADER_BYTES);
  // The wrapper is put on the module's first line, so line numbers in stack traces stay the file's.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const state: CacheState = !use ? 'off' : cached === undefined ? 'none' : stale || script.cachedDataRejected ? 'rejected' : 'accepted';
  if (state === 'none' || state === 'rejected') process.once('exit', () => writeCache(script, cacheFile, header!));
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  return state;
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

function writeCache(script: Script, cacheFile: string, header: Buffer): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    // V8 checks the flags a cache was made under: the CLI pauses the optimising compiler while
    // it starts (src/cli/startup.ts), so a command that exits before resuming it would otherwise
    // write a cache every later run rejects.
    setFlagsFromString('--opt');
    writeFileSync(temporary, Buffer.concat([header, script.createCachedData()]));
    renameSync(temporary, cacheFile);
  } catch {
    // A read-only install: every run compiles from source, as without the cache.
    rmSync(temporary, { force: true });
  }
}
