/**
 * A benchmark worker's side of ./bench-pool.ts: loaded as soon as the worker starts, it waits for
 * the samples, opens its own store on the compiled sql.js it is given, and runs chunks of samples
 * until none are left, posting each chunk's outcomes.
 */
import { parentPort } from 'node:worker_threads';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { openSharedStore, runSampleShared, type SampleOutcome } from '../conformance/index.js';
import type { Done, Work } from './bench-pool.js';

/** Samples a thread takes at a time: few enough to balance the threads at the end, enough to keep the counter cold. */
export const CHUNK = 8;

/** Takes the next chunk of samples `[start, end)` from the shared counter, until none are left. */
export function* chunks(next: Int32Array, total: number): Generator<[number, number]> {
  for (;;) {
    const start = Atomics.add(next, 0, CHUNK);
    if (start >= total) return;
    yield [start, Math.min(total, start + CHUNK)];
  }
}

/** sql.js on an already compiled module. */
export function sqlJsOn(wasm: WebAssembly.Module): Promise<SqlJsStatic> {
  return initSqlJs({
    instantiateWasm: (imports, done) => {
      void WebAssembly.instantiate(wasm, imports).then(done);
      return undefined;
    },
  });
}

/** Waits for the work, runs it, and returns (the worker then exits). */
export async function serve(): Promise<void> {
  const work = await new Promise<Work>((resolve) => parentPort!.once('message', resolve));
  const next = new Int32Array(work.next);
  const store = await openSharedStore(await sqlJsOn(work.wasm));
  try {
    for (const [start, end] of chunks(next, work.samples.length)) {
      const outcomes: SampleOutcome[] = [];
      for (let i = start; i < end; i++) outcomes.push(runSampleShared(store, work.samples[i], work.policy));
      parentPort!.postMessage({ start, outcomes } satisfies Done);
    }
  } finally {
    store.close();
  }
}
