/**
 * `t2m bench` on several threads of one process (Node's worker_threads): each thread opens its
 * own shared in-memory store and takes the next few samples from a counter all threads share,
 * until none are left; the outcomes are tallied in sample order on the main thread, so the report
 * is the one `runBenchmark` gives on one thread, byte for byte. Samples are independent (each
 * runs in a transaction rolled back afterwards: src/conformance/index.ts), so the threads need no
 * other coordination. The main thread runs samples too while the others start up.
 *
 * This module is also the workers' entry point: a thread started on it with the `t2m-bench`
 * worker data serves samples (so the bundled CLI and the sources need no second file to find).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import type { Policy } from '../check/index.js';
import { chooseSamples, emptyReport, openSharedStore, runBenchmark, runSampleShared, tallySample, type BenchOptions, type BenchReport, type Sample, type SampleOutcome } from '../conformance/index.js';

/** Samples a thread takes at a time: few enough to balance the threads at the end, enough to keep the counter cold. */
const CHUNK = 8;

interface WorkerData {
  readonly kind: 't2m-bench';
  readonly samples: readonly Sample[];
  readonly policy: Policy;
  /** An Int32Array's buffer: the index of the next sample no thread has taken. */
  readonly next: SharedArrayBuffer;
  /** sql.js's compiled wasm, compiled once for every thread. */
  readonly wasm: WebAssembly.Module;
}

/** What a worker posts: the outcomes of samples `start`, `start + 1`, … */
interface Done {
  readonly start: number;
  readonly outcomes: readonly SampleOutcome[];
}

export interface ThreadOptions extends Omit<BenchOptions, 'backend'> {
  /** Threads running samples, the main thread included (1: `runBenchmark` on this thread). */
  readonly threads: number;
}

/** Takes the next chunk of samples from the shared counter and runs them on `store`; false when none are left. */
function* chunks(next: Int32Array, total: number): Generator<[number, number]> {
  for (;;) {
    const start = Atomics.add(next, 0, CHUNK);
    if (start >= total) return;
    yield [start, Math.min(total, start + CHUNK)];
  }
}

/**
 * sql.js's wasm, compiled once: each thread instantiates the same module (a worker that compiled
 * its own would pay for V8's compilers again, on the cores the samples need).
 */
async function compileSqlJs(): Promise<WebAssembly.Module> {
  return WebAssembly.compile(await readFile(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm')));
}

/** sql.js on an already compiled module. */
function sqlJsOn(wasm: WebAssembly.Module): Promise<SqlJsStatic> {
  return initSqlJs({
    instantiateWasm: (imports, done) => {
      void WebAssembly.instantiate(wasm, imports).then(done);
      return undefined;
    },
  });
}

/**
 * A worker on this module. Run from the sources (`node --import tsx`, the tests), the module is
 * TypeScript, and Node 20 does not pass `--import` hooks on to a worker: the worker registers
 * tsx itself before it imports the module.
 */
function startWorker(data: WorkerData): Worker {
  const self = new URL(import.meta.url);
  if (!self.pathname.endsWith('.ts')) return new Worker(self, { workerData: data });
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(self.href)}); })`;
  return new Worker(boot, { eval: true, workerData: data });
}

/** `runBenchmark` on the default in-memory store, its samples spread over `threads` threads. */
export async function runBenchmarkThreads(samples: readonly Sample[], options: ThreadOptions): Promise<BenchReport> {
  const chosen = chooseSamples(samples, options.only);
  const threads = Math.min(Math.max(1, Math.floor(options.threads)), Math.ceil(chosen.length / CHUNK));
  if (threads <= 1) return runBenchmark(chosen, { ...options, only: undefined });
  const policy = options.policy ?? 'default';
  const next = new Int32Array(new SharedArrayBuffer(4));
  const outcomes: (SampleOutcome | undefined)[] = new Array(chosen.length);
  const report = emptyReport();
  let tallied = 0;
  // Tallies the outcomes known so far that follow the last tallied one.
  const flush = () => {
    for (; tallied < chosen.length && outcomes[tallied]; tallied++) {
      tallySample(report, chosen[tallied], outcomes[tallied]!);
      options.onSample?.(outcomes[tallied]!);
      outcomes[tallied] = undefined;
      options.onProgress?.(tallied + 1, chosen.length);
    }
  };
  const wasm = await compileSqlJs();
  const data: WorkerData = { kind: 't2m-bench', samples: chosen, policy, next: next.buffer as SharedArrayBuffer, wasm };
  const workers = Array.from({ length: threads - 1 }, () => startWorker(data));
  const finished = workers.map((w) => new Promise<void>((resolve, reject) => {
    w.on('message', (m: Done) => {
      m.outcomes.forEach((o, k) => (outcomes[m.start + k] = o));
      flush();
    });
    w.on('error', reject);
    w.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`internal: a benchmark thread exited with code ${code}`))));
  }));
  // A failed thread fails the run at once (the others are stopped below).
  let failed: unknown;
  const failure = Promise.all(finished).catch((e: unknown) => {
    failed = e;
  });
  try {
    const store = await openSharedStore(options.sqlJs ?? (await sqlJsOn(wasm)));
    try {
      for (const [start, end] of chunks(next, chosen.length)) {
        if (failed) break;
        for (let i = start; i < end; i++) outcomes[i] = runSampleShared(store, chosen[i], policy);
        flush();
        // Lets the workers' messages in between chunks (progress as it happens).
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      store.close();
    }
    await failure;
    if (failed) throw failed;
    flush();
    if (tallied !== chosen.length) throw new Error(`internal: ${chosen.length - tallied} benchmark samples were not run`);
    return report;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** A worker's life: its own store, chunks of samples until none are left, each chunk's outcomes posted. */
async function serve(data: WorkerData): Promise<void> {
  const next = new Int32Array(data.next);
  const store = await openSharedStore(await sqlJsOn(data.wasm));
  try {
    for (const [start, end] of chunks(next, data.samples.length)) {
      const outcomes: SampleOutcome[] = [];
      for (let i = start; i < end; i++) outcomes.push(runSampleShared(store, data.samples[i], data.policy));
      parentPort!.postMessage({ start, outcomes } satisfies Done);
    }
  } finally {
    store.close();
  }
}

if (!isMainThread && (workerData as WorkerData | undefined)?.kind === 't2m-bench') await serve(workerData as WorkerData);
