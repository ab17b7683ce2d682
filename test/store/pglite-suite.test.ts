/**
 * The engine and execute suites again, on PostgreSQL in PGlite: every `freshStore()` is a fresh
 * schema prepared as a store, on one PGlite instance for the file. The suites are synchronous
 * (`run`, `sweep`…), so the PGlite driver runs in a worker thread behind a synchronous bridge
 * (test/support/sync-bridge.ts); the engine, the dialect and the database are the real ones.
 */
import { afterAll } from 'vitest';
import { useDriver, usePostgres } from '../engine/harness.js';
import { SyncBridgeDriver } from '../support/sync-bridge.js';

const bridge = new SyncBridgeDriver({ kind: 'pglite' });
useDriver('pglite');
usePostgres(bridge);
afterAll(() => bridge.close());
await import('../execute/verbs.test.js');
await import('../execute/refusals.test.js');
await import('../engine/engine.test.js');
await import('../execute/retokenize.test.js');
await import('../engine/encode-runs.test.js');
