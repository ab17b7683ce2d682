/**
 * vitest global setup: names the run directory the shared PostgreSQL server
 * (test/support/postgres.ts) is started in, on first use only, and stops and removes it after
 * the run. Costs nothing when no test asks for the server.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopCluster } from './postgres.js';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 't2m-pg-run-'));
  process.env.T2M_PG_RUN_DIR = dir;
  return () => stopCluster(dir);
}
