/**
 * The worker side of test/support/sync-bridge.ts: holds an asynchronous PostgreSQL driver and
 * answers each request, then wakes the waiting main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AsyncSqlDriver } from '../../src/store/driver.js';
import { PgDriver } from '../../src/dialect/postgres/pg-driver.js';
import { PgliteDriver } from '../../src/dialect/postgres/pglite-driver.js';
import { preparePostgresStore } from '../../src/dialect/postgres/open.js';

interface Request {
  readonly op: 'all' | 'run' | 'exec' | 'begin' | 'commit' | 'rollback' | 'close' | 'prepare';
  readonly sql?: string;
  readonly params?: unknown;
}

const { target, flag } = workerData as { target: { kind: 'pglite' } | { kind: 'postgres'; url: string }; flag: SharedArrayBuffer };
const signal = new Int32Array(flag);
let driver: AsyncSqlDriver | undefined;
const ready = (async () => {
  driver = target.kind === 'pglite' ? await PgliteDriver.open() : await PgDriver.connect(target.url);
})();

parentPort!.on('message', async ({ port, request }: { port: MessagePort; request: Request }) => {
  let reply: { ok: true; value: unknown } | { ok: false; message: string; code?: string };
  try {
    await ready;
    const d = driver!;
    const value =
      request.op === 'all' ? await d.all(request.sql!, request.params as never)
        : request.op === 'run' ? await d.run(request.sql!, request.params as never)
        : request.op === 'exec' ? await d.exec(request.sql!)
        : request.op === 'close' ? await d.close()
        // `sql` is a schema name: create it, make it current, prepare it as a store.
        : request.op === 'prepare' ? await (async () => {
          const q = `"${request.sql!.replace(/"/g, '""')}"`;
          await d.exec(`CREATE SCHEMA IF NOT EXISTS ${q}; SET search_path TO ${q}, public`);
          return preparePostgresStore(d);
        })()
        : await d[request.op]();
    reply = { ok: true, value };
  } catch (e) {
    reply = { ok: false, message: (e as Error).message, code: (e as { code?: string }).code };
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
