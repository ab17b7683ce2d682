/**
 * A day's work in the playground without surprises (issue "The playground, round two"): run state
 * per script tab, no duplicate tabs from Try or Share, Format that says why it did nothing and
 * answers Shift-Alt-F, Esc then Shift-Tab leaving the editor, the memory table's sort and weights,
 * and a phone-width Run that brings the results into view. Chromium through playwright-core.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loaded, pageState, servePlayground, setScript, status } from '../support/page.js';

interface DayState {
  script: string;
  results: { op: string }[];
  memory: Record<string, unknown>[];
  refused: boolean;
  runs: number;
  committed: boolean;
}

const { newPage } = servePlayground();

const state = (page: Page): Promise<DayState> => pageState<DayState>(page);

const statusIsError = async (page: Page): Promise<boolean> => ((await status(page).getAttribute('class')) ?? '').includes('error');
const focusInEditor = (page: Page): Promise<boolean> => page.evaluate(() => !!document.activeElement?.closest('#editor'));
const tabNames = (page: Page): Promise<string[]> => page.locator('[data-testid=script-tabs] button').allInnerTexts();

describe('playground: a day without surprises', () => {
  it('keeps run errors in their own script tab: a new script has no markers, no red status, no refused run', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1400, height: 900 } });
    await setScript(page, 'ENCODE "x" TPYE note;');
    await page.evaluate(() => window.t2m!.run());
    expect((await state(page)).refused).toBe(true);
    expect(await statusIsError(page)).toBe(true);

    // A new script: focused, with a placeholder, and nothing of the refused run.
    await page.click('[data-testid=new-script]');
    await expect.poll(() => focusInEditor(page)).toBe(true);
    await expect.poll(() => page.locator('#editor').innerText()).toContain('Type a statement');
    await page.keyboard.type('ENCODE "fine";');
    await page.waitForFunction(() => window.t2m!.state().script === 'ENCODE "fine";');
    await page.evaluate(() => window.t2m!.settled());
    expect(await page.evaluate(() => window.t2m!.markers())).toEqual([]);
    expect((await state(page)).refused).toBe(false);
    expect(await statusIsError(page)).toBe(false);
    expect(await page.locator('[data-testid=problems]').innerText()).toBe('No problems.');
    expect(await page.locator('.pane[data-pane=Results]').innerText()).not.toMatch(/not run/i);
    // F8 finds nothing to go to (it used to open the other script's error).
    await page.keyboard.press('F8');
    await page.waitForTimeout(400);
    expect(await page.locator('#editor .marker-widget').count()).toBe(0);

    // Back on the refused script: its refusal, markers and red status are its own again.
    await page.locator('[data-testid=script-tabs] button').first().click();
    await page.evaluate(() => window.t2m!.settled());
    expect((await state(page)).refused).toBe(true);
    expect(await statusIsError(page)).toBe(true);
    expect((await page.evaluate(() => window.t2m!.markers())).length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Try ▶ reuses the tab holding its unchanged example; Share then reload does not open the script twice', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1400, height: 900 } });
    await page.click('[data-try=LOCK]');
    await page.waitForFunction(() => window.t2m!.state().runs === 1);
    const after1 = await tabNames(page);
    await page.evaluate(() => window.t2m!.showTab('Welcome'));
    await page.click('[data-try=LOCK]');
    await page.waitForFunction(() => window.t2m!.state().runs === 2);
    expect(await tabNames(page)).toEqual(after1);
    expect(after1.filter((n) => n === 'Try LOCK')).toHaveLength(1);
    // Edited, it is the user's script now: Try opens a fresh copy beside it.
    await setScript(page, `${(await state(page)).script}\n# mine`);
    await page.evaluate(() => window.t2m!.showTab('Welcome'));
    await page.click('[data-try=LOCK]');
    await expect.poll(() => tabNames(page).then((t) => t.filter((n) => n === 'Try LOCK').length)).toBe(2);

    // Share, then reload: the link stays in the address bar, and the same script is shown, once.
    await setScript(page, 'ENCODE "shared once" TAGS "share";');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click('header button:has-text("Share")');
    await page.waitForFunction(() => location.hash.startsWith('#script='));
    // The workspace is saved a moment after an edit.
    await page.waitForTimeout(800);
    const before = await tabNames(page);
    await page.reload();
    await loaded(page);
    expect(await tabNames(page)).toEqual(before);
    expect((await state(page)).script).toBe('ENCODE "shared once" TAGS "share";');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Format: Shift-Alt-F formats; on a script with syntax errors it says why and changes nothing', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1400, height: 900 } });
    await setScript(page, 'promote   where search "OKR progress" limit 5 set weight 0.9');
    await page.keyboard.press('Shift+Alt+KeyF');
    await page.waitForFunction(() => window.t2m!.state().script.startsWith('PROMOTE WHERE'));
    await expect.poll(() => status(page).innerText()).toBe('formatted');

    const broken = 'ENCODE "a" TYPE note;\nPROMOTE WHERE ( LIMIT 5;';
    await setScript(page, broken);
    await page.click('[data-testid=format]');
    await expect.poll(() => status(page).innerText()).toMatch(/^not formatted: the script has \d+ syntax errors?/);
    expect(await statusIsError(page)).toBe(true);
    expect((await state(page)).script).toBe(broken);
    await page.evaluate(() => window.t2m!.editorInstance().focus());
    await page.evaluate(() => window.t2m!.run());
    await page.evaluate(() => window.t2m!.editorInstance().focus());
    await page.keyboard.press('Shift+Alt+KeyF');
    await expect.poll(() => status(page).innerText()).toMatch(/^not formatted/);
    expect((await state(page)).script).toBe(broken);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keyboard: Esc then Shift-Tab leaves the editor; tabbing into it from page load shows how to leave', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1400, height: 900 } });
    const hint = page.locator('[data-testid=tab-hint]');
    expect(await hint.isVisible()).toBe(false);
    // From the top of the page, Tab until the editor has the focus.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    let presses = 0;
    while (!(await focusInEditor(page)) && presses < 60) {
      await page.keyboard.press('Tab');
      presses++;
    }
    expect(await focusInEditor(page)).toBe(true);
    await expect.poll(() => hint.isVisible()).toBe(true);
    expect(await hint.innerText()).toMatch(/Esc, then Tab/);

    await setScript(page, 'ENCODE "a";');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+Tab');
    expect(await focusInEditor(page)).toBe(false);
    expect((await state(page)).script).toBe('ENCODE "a";');
    expect(await hint.isVisible()).toBe(false);
    // Without Esc first, Shift-Tab stays (it outdents).
    await page.evaluate(() => window.t2m!.editorInstance().focus());
    await page.keyboard.press('Shift+Tab');
    expect(await focusInEditor(page)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('memory table: never-promoted weights read 0.5, empties sort last both ways; reads show no "affected ids"', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1400, height: 900 } });
    await setScript(page, [
      'ENCODE "a" TYPE note TAGS "x" TIME 2025-04-10T15:30:00Z;',
      'ENCODE "b" TAGS "y";',
      'ENCODE "c" TYPE task TAGS "y" TIME 2025-04-12T15:30:00Z;',
      'PROMOTE WHERE tags HAS "x" LIMIT 1 SET weight 0.9;',
      'RETRIEVE WHERE tags HAS "y" LIMIT 5 INCLUDE id, text, weight;',
    ].join('\n'));
    await page.evaluate(() => window.t2m!.run());
    expect((await state(page)).committed).toBe(true);

    // Results: the writes list what they changed, the read lists rows, not "affected ids".
    await page.evaluate(() => window.t2m!.showTab('Results'));
    const card = (n: number) => page.locator(`.pane[data-pane=Results] .result[data-statement="${n}"]`);
    expect(await card(3).innerText()).toContain('affected ids');
    expect(await card(4).innerText()).not.toContain('affected ids');

    await page.evaluate(() => window.t2m!.showTab('Memory'));
    const table = page.locator('[data-testid=memory-table]');
    const column = async (name: string): Promise<string[]> => {
      const headers = (await table.locator('th').allInnerTexts()).map((t) => t.replace(/[ ▲▼]+$/, ''));
      const i = headers.indexOf(name) + 1;
      return table.locator(`tbody tr td:nth-child(${i})`).allInnerTexts();
    };
    const sortBy = (name: string) => table.locator(`button[data-column=${name}]`).click();
    // Weight: the stored NULL of a never-promoted record shows as the 0.5 every read takes, marked
    // as a default, as `t2m run` shows it.
    await sortBy('weight');
    expect(await column('weight')).toEqual(['0.5 (default)', '0.5 (default)', '0.9']);
    await sortBy('weight');
    expect(await column('weight')).toEqual(['0.9', '0.5 (default)', '0.5 (default)']);
    expect(await table.locator('td.defaulted').count()).toBe(2);
    // An empty cell goes last ascending and descending.
    await sortBy('type');
    expect(await column('type')).toEqual(['note', 'task', '∅']);
    await sortBy('type');
    expect(await column('type')).toEqual(['task', 'note', '∅']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('phone width: after Run the results scroll into view; the wheel over the editor scrolls the page', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await setScript(page, 'ENCODE "on the phone" TAGS "p";\nRETRIEVE WHERE tags HAS "p" LIMIT 5;');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => window.t2m!.run());
    await page.evaluate(() => window.t2m!.showTab('Results'));
    const top = () => page.locator('.pane[data-pane=Results]').evaluate((el) => el.getBoundingClientRect().top);
    await expect.poll(top).toBeLessThan(844);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    // The wheel over a short script's editor scrolls the page (the editor has nothing to scroll).
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = (await page.locator('#editor').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200));
    await page.mouse.wheel(0, 400);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
