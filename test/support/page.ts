/**
 * The playground's page harness for the browser tests (test/e2e/playground*.test.ts): the page
 * built and served once per test file (test/e2e/harness.ts, Debian's Chromium through
 * playwright-core), a fresh browser context per test, opened until the editor is usable
 * (`window.t2m.loaded`), and the helpers every file drives the page with.
 */
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildAndServe, collectProblems, type Served } from '../e2e/harness.js';

/** A page of its own: its context (close it at the end), the page, and what it said that a healthy page never says. */
export interface OpenedPage {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly problems: string[];
}

export interface Playground {
  /** The built page, served (from the file's `beforeAll` on). */
  readonly served: Served;
  /** Opens the served page in `page` and waits until it is usable. */
  open(page: Page): Promise<void>;
  /** A new context with `options`, its page collecting problems, opened. */
  newPage(options?: BrowserContextOptions): Promise<OpenedPage>;
}

/** Builds and serves the page for this test file (vitest's `beforeAll`/`afterAll`): call once at its top. */
export function servePlayground(): Playground {
  let served: Served | undefined;
  beforeAll(async () => {
    served = await buildAndServe();
  }, 300_000);
  afterAll(async () => {
    await served?.close();
  });
  const playground: Playground = {
    get served(): Served {
      if (!served) throw new Error('the playground is served from the test file\'s beforeAll on');
      return served;
    },
    async open(page) {
      await page.goto(playground.served.url);
      await loaded(page);
    },
    async newPage(options) {
      const context = await playground.served.browser.newContext(options);
      const page = await context.newPage();
      const problems = collectProblems(page);
      await playground.open(page);
      return { context, page, problems };
    },
  };
  return playground;
}

/** Waits until the page (after a `goto` or a reload) has its test API and its editor is usable. */
export async function loaded(page: Page): Promise<void> {
  await page.waitForFunction(() => window.t2m !== undefined);
  await page.evaluate(() => window.t2m!.loaded);
}

/** `window.t2m.state()`, as the fields a test file reads of it. */
export const pageState = <T>(page: Page): Promise<T> => page.evaluate(() => window.t2m!.state() as unknown as T);

/** Replaces the script (cursor at the end, editor focused) and waits for the worker's diagnostics. */
export async function setScript(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => window.t2m!.setScript(t), text);
  await page.evaluate(() => window.t2m!.settled());
}

/** The status bar. */
export const status = (page: Page) => page.locator('[data-testid=status]');
