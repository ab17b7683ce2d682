/**
 * Start-up of the CLI with V8's optimising compiler (TurboFan) paused. Building the grammar
 * (Chevrotain's analysis) and the IR schemas (zod) runs hot loops once; TurboFan compiles them on
 * background threads only for the code never to run again. Kept because pausing it saves over 10%
 * of a `t2m check`'s cold start (`npm run perf -- startup`). A command loads
 * its modules through `loaded`, which turns TurboFan back on, so the work on the input (a long
 * JSONL conversion, the benchmark) runs fully optimised.
 *
 * Imported first by main.ts: its body runs before the other modules'. Only the `turbofan` flag is
 * flipped, a flag V8 reads at each tier-up decision (node's caveat about changing V8 flags at run
 * time is about flags read once at start-up).
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-opt');

/** Awaits a command's modules, then resumes optimisation for the rest of the process. */
export async function loaded<T>(modules: Promise<T>): Promise<T> {
  try {
    return await modules;
  } finally {
    setFlagsFromString('--opt');
  }
}
