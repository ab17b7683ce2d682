import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndServe, collectProblems, type Served } from './harness.ts';

let served: Served;
beforeAll(async () => { served = await buildAndServe(); }, 180_000);
afterAll(async () => { await served?.close(); });

describe('playground', () => {
  it('loads with no console errors and starts the editor worker', async () => {
    const page = await served.browser.newPage();
    const problems = collectProblems(page);
    await page.goto(served.url);
    await page.waitForFunction(() => (window as any).t2m !== undefined);
    await page.waitForTimeout(2000);
    console.log(page.workers().map((w) => w.url()));
    expect(problems).toEqual([]);
  });
});
