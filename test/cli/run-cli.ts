/**
 * Runs the `t2m` CLI from its sources (node --import tsx src/cli/main.ts) in a child process, so
 * the tests need no build; test/package/package.test.ts runs the built, installed `t2m`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const MAIN = resolve(import.meta.dirname, '../../src/cli/main.ts');

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function t2m(args: string[], input?: string): CliResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], { encoding: 'utf8', input, maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A fresh temporary directory with the given files; returns their paths by name. */
export function files(contents: Record<string, string>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 't2m-cli-'));
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(contents)) {
    out[name] = join(dir, name);
    writeFileSync(out[name], text);
  }
  return out;
}
