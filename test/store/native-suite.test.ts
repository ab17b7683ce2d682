/**
 * The engine and execute suites again, on the native driver: every `freshStore()` is a new store
 * file opened with better-sqlite3 (WAL, BEGIN IMMEDIATE per script). The same files run on sql.js
 * as themselves.
 */
import { useDriver } from '../engine/harness.js';

useDriver('native');
await import('../execute/verbs.test.js');
await import('../execute/refusals.test.js');
await import('../engine/engine.test.js');
await import('../execute/search.test.js');
await import('../execute/retokenize.test.js');
await import('../engine/encode-runs.test.js');
