/**
 * Builds the playground once per test file, serves it with `vite preview` on a free port and
 * drives Debian's Chromium through playwright-core (never a downloaded browser).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, preview, type PreviewServer } from 'vite';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CONFIG = fileURLToPath(new URL('../../playground/vite.config.ts', import.meta.url));

export interface Served {
  readonly url: string;
  readonly browser: Browser;
  close(): Promise<void>;
}

export async function buildAndServe(): Promise<Served> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: run \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  }
  await build({ configFile: CONFIG, logLevel: 'warn' });
  const server: PreviewServer = await preview({ configFile: CONFIG, logLevel: 'warn', preview: { port: 0, strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a URL');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      await new Promise<void>((resolve, reject) => server.httpServer.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

/** Everything the page said that a healthy page never says: console errors, worker warnings, uncaught exceptions. */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  const onConsole = (msg: ConsoleMessage) => {
    const text = msg.text();
    if (msg.type() === 'error') problems.push(`console.error: ${text}`);
    // Monaco only warns when it cannot create a worker and then silently runs on the main thread.
    else if (msg.type() === 'warning' && /worker/i.test(text)) problems.push(`console.warn: ${text}`);
  };
  page.on('console', onConsole);
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('worker', (worker) => {
    worker.on('console', onConsole);
  });
  return problems;
}
