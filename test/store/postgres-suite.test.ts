/**
 * The engine and execute suites again, on a PostgreSQL server (the run's throwaway cluster,
 * test/support/postgres.ts; a fresh database for the file, a fresh schema per store), through the
 * synchronous bridge (test/support/sync-bridge.ts). Skipped, saying why, only when PostgreSQL's
 * binaries are not installed.
 */
import { afterAll, describe, it } from 'vitest';
import { useDriver, usePostgres } from '../engine/harness.js';
import { SyncBridgeDriver } from '../support/sync-bridge.js';
import { freshDatabase, postgresBinaries, SKIP_REASON } from '../support/postgres.js';

if (postgresBinaries()) {
  const bridge = new SyncBridgeDriver({ kind: 'postgres', url: await freshDatabase('suite') });
  useDriver('postgres');
  usePostgres(bridge);
  afterAll(() => bridge.close());
  await import('../execute/verbs.test.js');
  await import('../execute/refusals.test.js');
  await import('../engine/engine.test.js');
  await import('../engine/encode-runs.test.js');
} else {
  describe('engine suites on a PostgreSQL server', () => {
    it.skip(SKIP_REASON, () => {});
  });
}
