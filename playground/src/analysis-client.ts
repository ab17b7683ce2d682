/** The main-thread side of the analysis worker: debounced requests, stale answers dropped by version. */
import type { AnalysisRequest, AnalysisResponse } from './analysis.worker.js';
import AnalysisWorker from './analysis.worker.ts?worker';
import { workerErrors } from './worker-errors.js';

const DEBOUNCE_MS = 150;

export class AnalysisClient {
  private readonly worker = new AnalysisWorker();
  private version = 0;
  private answered = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waiters: Array<() => void> = [];
  onResult: (result: AnalysisResponse) => void = () => {};

  constructor() {
    this.worker.addEventListener('message', (event: MessageEvent<AnalysisResponse>) => {
      this.answered = Math.max(this.answered, event.data.version);
      this.onResult(event.data);
      if (this.answered === this.version && this.timer === undefined) this.flushWaiters();
    });
    this.worker.addEventListener('error', (event) => {
      const message = `analysis worker failed: ${event.message || 'could not load'}`;
      workerErrors.push(message);
      console.error(message);
    });
  }

  /** The version of the newest request; answers for older ones are stale. */
  get latest(): number {
    return this.version;
  }

  request(text: string): void {
    clearTimeout(this.timer);
    const version = ++this.version;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const message: AnalysisRequest = { version, text };
      this.worker.postMessage(message);
    }, DEBOUNCE_MS);
  }

  /** Resolves once the newest request has been answered. */
  settled(): Promise<void> {
    if (this.answered === this.version && this.timer === undefined) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private flushWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
