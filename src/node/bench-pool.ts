/**
 * `t2m bench` on several threads of one process (Node's worker_threads): each thread opens its
 * own shared in-memory store and takes the next few samples from a counter all threads share,
 * until none are left; the outcomes are tallied in sample order on the main thread, so the report
 * is the one `runBenchmark` gives on one thread, byte for byte. Samples are independent (each
 * runs in a transaction rolled back afterwards: src/conformance/index.ts), so the threads need no
 * other coordination. The main thread runs samples too.
 *
 * The workers start before the main thread has loaded the engine (`startBenchThreads`; this
 * module imports none of it), so their start-up overlaps the main thread's; they load the engine
 * (./bench-serve.ts), then wait for the samples. This module is also their entry point: a thread
 * started on it with the `t2m-bench` worker data serves samples (so neither the bundled CLI nor
 * the sources need to find a second file).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import type { Policy } from '../check/index.js';
import type { BenchOptions, BenchReport, Sample, SampleOutcome } from '../conformance/index.js';

export interface Work {
  readonly samples: readonly Sample[];
  readonly policy: Policy;
  /** An Int32Array's buffer: the index of the next sample no thread has taken. */
  readonly next: SharedArrayBuffer;
  /** sql.js's wasm, compiled once for every thread. */
  readonly wasm: WebAssembly.Module;
}

/** What a worker posts: the outcomes of samples `start`, `start + 1`, … */
export interface Done {
  readonly start: number;
  readonly outcomes: readonly SampleOutcome[];
}

export interface ThreadOptions extends Omit<BenchOptions, 'backend'> {
  /** Threads running samples, the main thread included (1: `runBenchmark` on this thread). */
  readonly threads: number;
}

/**
 * sql.js's wasm, compiled once: each thread instantiates the same module (a worker that compiled
 * its own would pay for V8's compilers again, on the cores the samples need).
 */
async function compileSqlJs(): Promise<WebAssembly.Module> {
  return WebAssembly.compile(await readFile(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm')));
}

/**
 * A worker on this module. Run from the sources (`node --import tsx`, the tests), the module is
 * TypeScript, and Node 20 does not pass `--import` hooks on to a worker: the worker registers
 * tsx itself before it imports the module.
 */
function startWorker(): Worker {
  const self = new URL(import.meta.url);
  const workerData = { kind: 't2m-bench' };
  if (!self.pathname.endsWith('.ts')) return new Worker(self, { workerData });
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(self.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

/** Threads started ahead of the samples: `run` gives them the samples (once), `close` stops them. */
export interface BenchThreads {
  run(samples: readonly Sample[], options?: Omit<ThreadOptions, 'threads'>): Promise<BenchReport>;
  close(): Promise<void>;
}

/** Starts `threads - 1` workers (the main thread is the other one) and compiles sql.js for all of them. */
export function startBenchThreads(threads: number): BenchThreads {
  const workers = Array.from({ length: Math.max(0, Math.floor(threads) - 1) }, startWorker);
  // Workers that fail before their samples come fail the run (below), not the process.
  const early = workers.map((w) => new Promise<never>((_, reject) => w.once('error', reject)));
  for (const e of early) e.catch(() => undefined);
  const wasm = workers.length ? compileSqlJs() : undefined;
  return {
    async run(samples, options = {}) {
      const [{ chooseSamples, emptyReport, openSharedStore, runBenchmark, runSampleShared, tallySample }, { CHUNK, chunks, sqlJsOn }] = await Promise.all([
        import('../conformance/index.js'),
        import('./bench-serve.js'),
      ]);
      const chosen = chooseSamples(samples, options.only);
      // Too few samples to share: this thread alone (the workers, once closed, never get any).
      if (!workers.length || chosen.length <= CHUNK) return runBenchmark(chosen, { ...options, only: undefined });
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
      const work: Work = { samples: chosen, policy, next: next.buffer as SharedArrayBuffer, wasm: await wasm! };
      const finished = workers.map((w, k) => new Promise<void>((resolve, reject) => {
        w.on('message', (m: Done) => {
          m.outcomes.forEach((o, j) => (outcomes[m.start + j] = o));
          flush();
        });
        early[k].catch(reject);
        w.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`internal: a benchmark thread exited with code ${code}`))));
        w.postMessage(work);
      }));
      // A failed thread fails the run; this thread stops taking samples.
      let failed: { error: unknown } | undefined;
      const all = Promise.all(finished).catch((error: unknown) => {
        failed = { error };
      });
      const store = await openSharedStore(options.sqlJs ?? (await sqlJsOn(work.wasm)));
      try {
        for (const [start, end] of chunks(next, chosen.length)) {
          for (let i = start; i < end; i++) outcomes[i] = runSampleShared(store, chosen[i], policy);
          flush();
          // Lets the workers' messages in between chunks (progress as it happens).
          await new Promise((resolve) => setImmediate(resolve));
          if (failed) break;
        }
      } finally {
        store.close();
      }
      await all;
      if (failed) throw failed.error;
      flush();
      if (tallied !== chosen.length) throw new Error(`internal: ${chosen.length - tallied} benchmark samples were not run`);
      return report;
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/** `runBenchmark` on the default in-memory store, its samples spread over `threads` threads. */
export async function runBenchmarkThreads(samples: readonly Sample[], options: ThreadOptions): Promise<BenchReport> {
  const pool = startBenchThreads(options.threads);
  try {
    return await pool.run(samples, options);
  } finally {
    await pool.close();
  }
}

// A worker's failure rejects here, which fails the worker (its 'error' event on the main thread).
if (!isMainThread && (workerData as { kind?: string } | undefined)?.kind === 't2m-bench') void import('./bench-serve.js').then((m) => m.serve());
