/**
 * `npm run screenshots`: builds the playground, drives Debian's Chromium through playwright-core
 * (the browser tests' harness, test/e2e/harness.ts) and writes the main states of the page to
 * docs/screenshots/*.png: the welcome pane, a run with its results, the timeline, the memory
 * table, the light theme, and a phone-width window. Prints each file's size; a PNG over 200 KB
 * is reported as a failure (the README shows them all).
 */
import { mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { buildAndServe } from '../test/e2e/harness.js';

const MEMORY_SCRIPT = `# Notes, then governance: a lock and an expiry
ENCODE "Q2 OKR review: marketing reach +25%" TYPE note TAGS "OKR", "review" TIME 2025-04-10T15:30:00+08:00;
ENCODE "Follow up on the OKR dashboard" TYPE task TAGS "OKR", "task" TIME 2025-04-11T10:00:00+08:00;
ENCODE "Incident timeline: alert 20:07, recovered 20:48" TYPE incident TAGS "incident" TIME 2025-04-11T20:48:00+08:00;
ENCODE "Lunch menu for Friday" TYPE note TAGS "misc" TIME 2025-04-11T12:00:00+08:00;
PROMOTE WHERE search "OKR progress" LIMIT 2 SET weight 0.9;
LOCK WHERE tags HAS "incident" LIMIT 5 MODE read_only REASON "audit";
EXPIRE WHERE tags HAS "misc" LIMIT 5 TTL P7D THEN soft_delete;
`;

const OUT = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const MAX_BYTES = 200 * 1024;

async function open(browser: Browser, url: string, options: { width: number; height: number; scheme: 'dark' | 'light' }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: options.width, height: options.height }, colorScheme: options.scheme });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.t2m !== undefined);
  await page.evaluate(() => window.t2m!.loaded);
  return page;
}

async function example(page: Page, label: string): Promise<void> {
  await page.selectOption('select[aria-label=Examples]', { label });
  await page.waitForFunction((title) => window.t2m!.state().script.startsWith(`# ${title}`), label);
  await page.evaluate(() => window.t2m!.settled());
}

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400);
  const path = `${OUT}${name}.png`;
  await page.screenshot({ path });
  const bytes = statSync(path).size;
  console.log(`${name}.png ${(bytes / 1024).toFixed(0)} KB${bytes > MAX_BYTES ? '  (over 200 KB)' : ''}`);
  if (bytes > MAX_BYTES) process.exitCode = 1;
}

const served = await buildAndServe();
try {
  mkdirSync(OUT, { recursive: true });
  const size = { width: 1200, height: 720 };

  // First visit: the welcome pane.
  let page = await open(served.browser, served.url, { ...size, scheme: 'dark' });
  await page.locator('[data-testid=welcome-verbs] tr').first().waitFor();
  await shot(page, 'welcome');

  // A run: the paper's semantic promotion workflow and its results, then its timeline.
  await example(page, 'Paper B.1.1 - Semantic promotion');
  await page.evaluate(() => window.t2m!.setClock('2025-10-01T00:00:00Z'));
  await page.click('[data-testid=run]');
  await page.waitForFunction(() => window.t2m!.state().results.length > 0);
  await page.evaluate(() => window.t2m!.showTab('Results'));
  await shot(page, 'results');
  await page.evaluate(() => window.t2m!.step(2));
  await shot(page, 'timeline');

  // The memory table after a script that also governs (a lock, an expiry), governance columns shown.
  await page.click('[data-testid=new-script]');
  await page.evaluate((text) => window.t2m!.setScript(text), MEMORY_SCRIPT);
  await page.evaluate(() => window.t2m!.settled());
  await page.click('[data-testid=run]');
  await page.waitForFunction(() => window.t2m!.state().results.length > 0);
  await page.click('.tabs [data-tab=Memory]');
  await page.check('[data-testid=memory-governance]');
  // Give the table room: the divider moved left with the keyboard (each ← is 3%).
  await page.focus('[data-testid=splitter]');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowLeft');
  await shot(page, 'memory');
  await page.context().close();

  // The light theme (the system's preference), the Docs tab with the language card.
  page = await open(served.browser, served.url, { ...size, scheme: 'light' });
  await example(page, 'Paper B.1.1 - Semantic promotion');
  await page.click('.tabs [data-tab=Docs]');
  await page.locator('[data-testid=language-card] h2').first().waitFor();
  await shot(page, 'light-docs');
  await page.context().close();

  // A phone: one column.
  page = await open(served.browser, served.url, { width: 390, height: 844, scheme: 'dark' });
  await example(page, 'Paper B.1.1 - Semantic promotion');
  await page.click('[data-testid=run]');
  await page.waitForFunction(() => window.t2m!.state().results.length > 0);
  await shot(page, 'phone');
  await page.context().close();
} finally {
  await served.close();
}
