/**
 * Tests only: a synchronous `SqlDriver` over an asynchronous PostgreSQL driver (PGlite or a
 * server) running in a worker thread; each call blocks on Atomics.wait until the worker answers.
 * It lets the engine's synchronous test suites (written against `run`, `sweep`… on a sync store)
 * run unchanged on PostgreSQL: same engine, same dialect, same database, only the await moved
 * into the worker. The asynchronous entry points have their own tests on the real async drivers.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { SqlDriver, SqlParams, SqlRow } from '../../src/store/driver.js';

export type BridgeTarget = { kind: 'pglite' } | { kind: 'postgres'; url: string };

export class SyncBridgeDriver implements SqlDriver {
  readonly kind: string;
  readonly location: string;
  private readonly flag = new SharedArrayBuffer(4);
  private readonly signal = new Int32Array(this.flag);
  private readonly worker: Worker;
  private closed = false;

  constructor(private readonly target: BridgeTarget) {
    this.kind = target.kind;
    this.location = target.kind === 'pglite' ? 'pglite:' : target.url;
    // The worker runs the TypeScript sources through tsx's loader (a dev dependency; tests only).
    const entry = new URL('./sync-bridge-worker.ts', import.meta.url).href;
    const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
    this.worker = new Worker(boot, { eval: true, workerData: { target, flag: this.flag } });
    this.worker.unref();
  }

  /** Creates `schema` when missing, makes it current and prepares it as a store; the refusals. */
  prepare(schema: string): Diagnostic[] {
    this.current = schema;
    return this.call('prepare', schema) as Diagnostic[];
  }

  /** The schema on the connection's search path (set by `prepare` and `SchemaDriver`). */
  current?: string;

  call(op: string, sql?: string, params?: SqlParams): unknown {
    const { port1, port2 } = new MessageChannel();
    Atomics.store(this.signal, 0, 0);
    this.worker.postMessage({ port: port2, request: { op, sql, params } }, [port2]);
    for (;;) {
      const r = Atomics.wait(this.signal, 0, 0, 120_000);
      const msg = receiveMessageOnPort(port1);
      if (msg) {
        port1.close();
        const reply = msg.message as { ok: true; value: unknown } | { ok: false; message: string; code?: string };
        if (!reply.ok) throw Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {});
        return reply.value;
      }
      if (r === 'timed-out') throw new Error(`sync bridge: no answer from the ${this.kind} worker in 120 s (${op} ${sql ?? ''})`);
    }
  }

  all(sql: string, params?: SqlParams): SqlRow[] {
    return this.call('all', sql, params) as SqlRow[];
  }
  run(sql: string, params?: SqlParams): number {
    return this.call('run', sql, params) as number;
  }
  exec(sql: string): void {
    this.call('exec', sql);
  }
  begin(): void {
    this.call('begin');
  }
  commit(): void {
    this.call('commit');
  }
  rollback(): void {
    this.call('rollback');
  }
  scratch(): SqlDriver {
    return new SyncBridgeDriver(this.target);
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.call('close');
    } finally {
      void this.worker.terminate();
    }
  }
}

/**
 * One store's view of a shared bridge: its own schema, put on the connection's search path
 * before each call when another store used the connection last. Closing it leaves the bridge open.
 */
export class SchemaDriver implements SqlDriver {
  readonly kind: string;
  readonly location: string;
  constructor(private readonly bridge: SyncBridgeDriver, readonly schema: string) {
    this.kind = bridge.kind;
    this.location = `${bridge.location} (schema ${schema})`;
  }
  private use(): SyncBridgeDriver {
    if (this.bridge.current !== this.schema) {
      this.bridge.exec(`SET search_path TO "${this.schema}", public`);
      this.bridge.current = this.schema;
    }
    return this.bridge;
  }
  all(sql: string, params?: SqlParams): SqlRow[] {
    return this.use().all(sql, params);
  }
  run(sql: string, params?: SqlParams): number {
    return this.use().run(sql, params);
  }
  exec(sql: string): void {
    this.use().exec(sql);
  }
  begin(): void {
    this.use().begin();
  }
  commit(): void {
    this.use().commit();
  }
  rollback(): void {
    this.use().rollback();
  }
  scratch(): SqlDriver {
    return this.bridge.scratch();
  }
  close(): void {}
}
