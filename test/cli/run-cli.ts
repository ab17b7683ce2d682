/** Runs the real `t2m` binary (node bin/t2m.mjs) in a child process. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '../../bin/t2m.mjs');

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function t2m(args: string[], input?: string): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input, maxBuffer: 1 << 28 });
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
