/**
 * The playground in a real browser: the built page (vite build + vite preview) driven by
 * Debian's Chromium through playwright-core and the page's `window.t2m` test API.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fakeLlm } from './fake-llm.js';
import { loaded, pageState, servePlayground, setScript } from '../support/page.js';
import { collectProblems } from './harness.js';

const ARTIFACTS = fileURLToPath(new URL('../../artifacts/', import.meta.url));

const GOOD = `# OKR notes
ENCODE "Q2 OKR review: marketing reach +25%" TYPE note TAGS "OKR", "review" TIME 2025-04-10T15:30:00+08:00;
ENCODE "Follow up on the OKR dashboard" TYPE task TAGS "OKR", "task" TIME 2025-04-11T10:00:00+08:00;
ENCODE "Lunch menu for Friday" TYPE note TAGS "misc" TIME 2025-04-11T12:00:00+08:00;
PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9;
DELETE WHERE tags HAS "misc" LIMIT 10 SOFT;
RETRIEVE WHERE tags HAS "OKR" LIMIT 10 INCLUDE id, text, weight;
`;

interface PageState {
  script: string;
  diagnostics: { code: string; severity: string; message: string; range?: { start: { line: number } } }[];
  results: {
    statement: number; op: string; ok: boolean; affectedIds: string[]; rows: Record<string, unknown>[]; warnings: string[];
    diff: { added: Record<string, unknown>[]; removed: Record<string, unknown>[]; changed: { id: string; fields: string[] }[] };
  }[];
  memory: Record<string, unknown>[];
  workerErrors: string[];
  ready: boolean;
  committed: boolean;
  store: string;
  refused: boolean;
  runs: number;
}

const playground = servePlayground();
const { open, newPage } = playground;

const state = (page: Page): Promise<PageState> => pageState<PageState>(page);

/** Clicks an item of the header's File menu, opening the menu first. */
async function clickFileItem(page: Page, label: string): Promise<void> {
  await page.click('[data-testid=file-menu] > summary');
  await page.click(`[data-testid=file-menu] .menu-items button:has-text("${label}")`);
}

/** Types key by key like a person, so Monaco's own input handling (auto-closing quotes) runs. */
async function typeScript(page: Page, text: string): Promise<void> {
  await setScript(page, '');
  await page.click('#editor .view-lines');
  await page.keyboard.type(text);
  await page.waitForFunction((t) => window.t2m!.state().script === t, text);
  await page.evaluate(() => window.t2m!.settled());
}

describe('playground in Chromium', () => {
  it('loads with no console errors, starts its workers, and highlights the DSL', async () => {
    // The dark theme (the system's preference here), whose enum colour the check below expects.
    const { context, page, problems } = await newPage({ colorScheme: 'dark' });
    const s = await state(page);
    expect(s.ready).toBe(true);
    // Monaco's editor worker is created on demand: formatting asks it for minimal edits.
    await typeScript(page, 'promote   where search "OKR progress" limit 5 set weight 0.9');
    await page.click('[data-testid=format]');
    await page.waitForFunction(() => window.t2m!.state().script.startsWith('PROMOTE'));
    await page.evaluate(() => window.t2m!.showTab('IR'));
    await page.waitForFunction(() => window.t2m!.irText().includes('"Promote"'));
    await page.waitForTimeout(500);
    const workers = page.workers().map((w) => w.url());
    expect(workers.some((u) => /analysis\.worker/.test(u)), workers.join('\n')).toBe(true);
    expect(workers.some((u) => /editor\.worker/.test(u)), workers.join('\n')).toBe(true);
    expect(workers.some((u) => /json\.worker/.test(u)), workers.join('\n')).toBe(true);
    // Highlighting comes from the Monarch tokenizer built from the grammar's keywords.
    expect(await page.locator('#editor .view-lines span[class*="mtk"]').count()).toBeGreaterThan(3);
    // Semantic tokens (from src/services) colour enum values by position: `read_only` after MODE.
    await setScript(page, 'LOCK ALL CONFIRM MODE read_only;');
    const enumColor = () => page.locator('#editor .view-line span span', { hasText: /^read_only$/ }).evaluate((el) => getComputedStyle(el).color);
    await expect.poll(enumColor).toBe('rgb(79, 193, 255)');
    expect((await state(page)).workerErrors).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('marks a bad line, completes and hovers, runs a good script, shows rows and the timeline diff, and keeps the work across a reload', async () => {
    const { context, page, problems } = await newPage();

    // A bad line gets a marker on that line.
    await typeScript(page, 'ENCODE "fine" TYPE note;\nPROMOTE WHERE tags HAS "x" LIMT 5 SET weight 0.9;\n');
    const markers = await page.evaluate(() => window.t2m!.markers());
    expect(markers.length).toBeGreaterThan(0);
    expect(markers.every((m) => m.line === 2), JSON.stringify(markers)).toBe(true);
    await page.waitForSelector('#editor .squiggly-error');
    expect(await page.locator('[data-testid=problems] .error').count()).toBeGreaterThan(0);
    // The diagnostic's "did you mean" fix is a quick fix on the marker.
    await page.evaluate(() => {
      const editor = window.t2m!.editorInstance();
      editor.setPosition({ lineNumber: 2, column: 30 });
      editor.focus();
      editor.trigger('test', 'editor.action.quickFix', {});
    });
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: "replace 'LIMT' with 'LIMIT'" });
    await fix.waitFor();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.t2m!.state().script.includes('LIMIT 5'));

    // Run a good script.
    await setScript(page, GOOD);
    expect((await page.evaluate(() => window.t2m!.markers())).filter((m) => m.severity === 8)).toEqual([]);
    await page.evaluate(() => window.t2m!.run());
    const s = await state(page);
    expect(s.committed).toBe(true);
    expect(s.results.map((r) => r.op)).toEqual(['Encode', 'Encode', 'Encode', 'Promote', 'Delete', 'Retrieve']);
    expect(s.results.every((r) => r.ok)).toBe(true);
    expect(s.memory).toHaveLength(3);
    expect(s.results[0].diff.added).toHaveLength(1);
    const promote = s.results[3];
    expect(promote.affectedIds.length).toBeGreaterThan(0);
    expect(promote.diff.changed.every((c) => c.fields.includes('weight'))).toBe(true);
    const retrieve = s.results[5];
    expect(retrieve.rows.map((r) => r.text)).toEqual(expect.arrayContaining(['Q2 OKR review: marketing reach +25%']));
    // The rows are on the page, as a table.
    await page.evaluate(() => window.t2m!.showTab('Results'));
    await expect.poll(() => page.locator('.result[data-statement="5"] table tbody tr').count()).toBeGreaterThan(0);

    // The timeline: step to the Promote and see its changed weight cells highlighted.
    await page.evaluate(() => window.t2m!.step(3));
    await expect.poll(() => page.locator('[data-testid=timeline-table] tr.changed td.changed').count()).toBeGreaterThan(0);
    await page.evaluate(() => window.t2m!.step(0));
    await expect.poll(() => page.locator('[data-testid=timeline-table] tr.added').count()).toBe(1);

    // The SQL pane shows the statements with their bound parameters.
    const sql = await page.evaluate(() => window.t2m!.sqlText());
    expect(sql).toMatch(/INSERT INTO "?memory"?/i);
    expect(sql).toContain('-- params:');
    // An Encode's embedding vector is shortened for reading, not printed number by number.
    expect(sql).toMatch(/\[-?[0-9.]+, -?[0-9.]+, … \d+ numbers\]/);
    expect(sql).not.toMatch(/(-?[0-9.]+,){20}/);

    // Completion offers tags that now exist in the store.
    await setScript(page, 'LABEL WHERE tags HAS "O');
    await page.keyboard.press('Control+Space');
    await page.waitForSelector('.suggest-widget .monaco-list-row');
    expect(await page.locator('.suggest-widget .monaco-list-row').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('OKR')]));
    await page.keyboard.press('Escape');

    // Hover documents a keyword.
    await setScript(page, 'PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9');
    const where = page.locator('#editor .view-line span span', { hasText: /^WHERE$/ }).first();
    const hover = page.locator('.monaco-hover-content', { hasText: 'Select memories' });
    // Monaco drops a pending hover when the editor changes before its delay runs out; on a loaded
    // machine that happened in two full e2e runs, so move off and hover again until it shows.
    await expect.poll(async () => {
      if (await hover.isVisible()) return true;
      await page.mouse.move(0, 0);
      await where.hover();
      return hover.waitFor({ timeout: 3000 }).then(() => true, () => false);
    }, { timeout: 30_000 }).toBe(true);
    // The hover links to the railroad diagram of the rule.
    expect(await hover.locator('a').first().getAttribute('data-href') ?? await hover.locator('a').first().getAttribute('href')).toMatch(/diagrams\/index\.html#whereClause$/);
    // Following it shows that rule's diagram in the Docs panel.
    await hover.locator('a').first().click();
    await expect.poll(() => page.locator('iframe.docs').getAttribute('src')).toMatch(/#whereClause$/);
    expect(await page.locator('.pane[data-pane=Docs]').isVisible()).toBe(true);

    // Reload: the script and the store are still there.
    await page.reload();
    await loaded(page);
    const after = await state(page);
    expect(after.script).toBe('PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9');
    expect(after.memory).toHaveLength(3);

    // A script with references runs as one engine call: LET binds, a later statement uses it;
    // each record names the statement that wrote it, under one trace id.
    await setScript(page, 'ENCODE "Agenda" TAGS "offsite";\nLET $todo = ENCODE "Book the venue" TAGS "offsite";\nEXPIRE ID $todo TTL P30D THEN soft_delete;');
    await page.evaluate(() => window.t2m!.settled());
    await page.evaluate(() => window.t2m!.run());
    const refs = await state(page);
    expect(refs.committed).toBe(true);
    expect(refs.results.map((r) => [r.op, r.ok, r.affectedIds])).toEqual([['Encode', true, ['1']], ['Encode', true, ['2']], ['Expire', true, ['2']]]);
    expect(refs.memory.map((r) => r.statement_index)).toEqual([0, 1]);
    expect(new Set(refs.memory.map((r) => r.trace_id)).size).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('runs a paper workflow from the examples menu with the Run button and steps through its timeline', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1440, height: 860 } });
    // At 1440 px the header is one row: the clock sits beside the buttons, not alone below them.
    const top = async (selector: string) => (await page.locator(selector).boundingBox())!.y;
    expect(Math.abs((await top('input.clock')) - (await top('[data-testid=run]')))).toBeLessThan(8);
    expect((await page.locator('header').boundingBox())!.height).toBeLessThan(48);
    await page.selectOption('select[aria-label=Examples]', { label: 'Paper B.1.1 - Semantic promotion' });
    await page.waitForFunction(() => window.t2m!.state().script.startsWith('# Paper B.1.1'));
    await page.evaluate(() => window.t2m!.settled());
    await page.click('[data-testid=run]');
    await page.waitForFunction(() => window.t2m!.state().results.length === 3);
    expect(Math.abs((await top('input.clock')) - (await top('[data-testid=run]')))).toBeLessThan(8);
    const s = await state(page);
    expect(s.committed).toBe(true);
    expect(s.results.map((r) => r.op)).toEqual(['Encode', 'Encode', 'Promote']);
    expect(s.results[2].diff.changed.length).toBeGreaterThan(0);
    expect(s.results[2].diff.changed.every((c) => c.fields.includes('weight'))).toBe(true);
    // Step through the timeline with its buttons: the Promote's changed weights are highlighted.
    await page.click('.tabs button[data-tab=Timeline]');
    await page.click('.timeline-list [data-step="2"]');
    await expect.poll(() => page.locator('[data-testid=timeline-table] td.changed').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=changes] li.changed').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/^~ #\d+ weight: .+ → 0\.9$/)]));
    await page.waitForTimeout(300);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}playground.png` });
    // The docs panel shows the railroad diagrams, drawn from the grammar.
    await page.click('.tabs button[data-tab=Docs]');
    const diagrams = page.frameLocator('iframe.docs');
    await expect.poll(() => diagrams.locator('h2.diagramHeader').count()).toBeGreaterThan(10);
    expect(await diagrams.locator('#whereClause').count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('opens an example once, keeps the tab strip in one scrolling row clear of the right pane, and shrinks the editor with the window', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1440, height: 860 } });
    type Box = { left: number; right: number; top: number; bottom: number; width: number; height: number };
    const box = (selector: string): Promise<Box> => page.locator(selector).first().evaluate((el) => {
      const { left, right, top, bottom, width, height } = el.getBoundingClientRect();
      return { left, right, top, bottom, width, height };
    });
    const tabs = () => page.locator('[data-testid=script-tabs] button').allInnerTexts();
    const pick = async (label: string) => {
      await page.selectOption('select[aria-label=Examples]', { label });
      await page.waitForFunction((title) => window.t2m!.state().script.startsWith(`# ${title}`), label);
    };

    // The same example twice: one tab, and picking it again switches back to it.
    const first = await tabs();
    await pick('Op Workflow - Merge');
    await pick('Op Workflow - Merge');
    expect(await tabs()).toEqual([...first, 'Op Workflow - Merge']);
    // The first visit's tab already holds the paper's B.1.1: picking it does not add a tab.
    await pick('Paper B.1.1 - Semantic promotion');
    expect(await tabs()).toEqual([...first, 'Op Workflow - Merge']);
    expect(await page.locator('[data-testid=script-tabs] button.active').innerText()).toBe('Paper B.1.1 - Semantic promotion');

    // Ten examples: the strip stays one row, scrolls sideways, and ends before the right pane.
    const labels = (await page.locator('select[aria-label=Examples] option').allInnerTexts()).filter((l) => !l.endsWith('…'));
    for (const label of labels.slice(0, 10)) await pick(label);
    expect((await tabs()).length).toBeGreaterThanOrEqual(10);
    const rightPane = await box('.right');
    const leftPane = await box('.left');
    for (const selector of ['.scripts', '[data-testid=script-tabs]', '[data-testid=new-script]', '[data-testid=close-script]']) {
      const b = await box(selector);
      expect(b.right, selector).toBeLessThanOrEqual(rightPane.left + 0.5);
      expect(b.right, selector).toBeLessThanOrEqual(leftPane.right + 0.5);
    }
    const oneRow = (await box('[data-testid=new-script]')).height;
    expect((await box('.scripts')).height).toBeLessThan(oneRow * 1.6);
    expect(await page.locator('[data-testid=script-tabs]').evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    // The active (last opened) tab is scrolled into view.
    const active = await box('[data-testid=script-tabs] button.active');
    const strip = await box('[data-testid=script-tabs]');
    expect(active.left).toBeGreaterThanOrEqual(strip.left - 0.5);
    expect(active.right).toBeLessThanOrEqual(strip.right + 0.5);
    // Nothing of the left column sits on the right pane's tabs: a click there reaches them.
    const results = await box('.tabs button[data-tab=Results]');
    expect(await page.evaluate(([x, y]) => (document.elementFromPoint(x, y) as HTMLElement | null)?.dataset.tab, [results.left + results.width / 2, results.top + results.height / 2])).toBe('Results');

    // A narrower window: the editor shrinks with its column instead of running under the right pane.
    const wide = await box('#editor .monaco-editor');
    expect(wide.right).toBeLessThanOrEqual(leftPane.right + 0.5);
    for (const width of [1024, 860]) {
      await page.setViewportSize({ width, height: 700 });
      await expect.poll(async () => (await box('#editor .monaco-editor')).width).toBeLessThan(wide.width * (width / 1440) + 20);
      const editor = await box('#editor .monaco-editor');
      const left = await box('.left');
      expect(editor.left).toBeGreaterThanOrEqual(left.left - 0.5);
      expect(editor.right).toBeLessThanOrEqual(left.right + 0.5);
      expect(editor.right).toBeLessThanOrEqual((await box('.right')).left + 0.5);
      expect((await box('.scripts')).right).toBeLessThanOrEqual(left.right + 0.5);
      // The active tab stays in view as the strip narrows.
      const narrowStrip = await box('[data-testid=script-tabs]');
      await expect.poll(async () => (await box('[data-testid=script-tabs] button.active')).right).toBeLessThanOrEqual(narrowStrip.right + 0.5);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('runs the merge example; its last merge finds nothing left to merge and says so', async () => {
    const { context, page, problems } = await newPage();
    await page.selectOption('select[aria-label=Examples]', { label: 'Op Workflow - Merge' });
    await page.waitForFunction(() => window.t2m!.state().script.startsWith('# Op Workflow - Merge'));
    await page.evaluate(() => window.t2m!.settled());
    await page.click('[data-testid=run]');
    await page.waitForFunction(() => window.t2m!.state().results.length === 5);
    const after = await state(page);
    expect(after.committed).toBe(true);
    expect(after.results[4].warnings.join('\n')).toMatch(/nothing to merge/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('rolls back a failing script, marks the failing statement, and converts IR edits back to DSL', async () => {
    const { context, page, problems } = await newPage();
    await setScript(page, 'ENCODE "incident log" TAGS "sev1";\nLOCK WHERE tags HAS "sev1" LIMIT 5 MODE read_only;\nUPDATE WHERE tags HAS "sev1" LIMIT 5 SET text "rewritten";\n');
    // Ctrl-Enter in the editor runs the script.
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(() => window.t2m!.state().results.length === 3);
    const s = await state(page);
    expect(s.committed).toBe(false);
    expect(s.memory).toEqual([]);
    const runtime = (await page.evaluate(() => window.t2m!.markers())).filter((m) => m.owner === 't2m-runtime');
    expect(runtime.length).toBe(1);
    expect(runtime[0].line).toBe(3);

    // The IR pane validates against the IR's JSON Schema (in Monaco's JSON worker).
    await page.evaluate(() => window.t2m!.showTab('IR'));
    await page.evaluate(() => window.t2m!.setIrText('[{ "stage": "RET", "op": "Retreive" }]'));
    await expect.poll(() => page.evaluate(() => window.t2m!.irMarkers().length)).toBeGreaterThan(0);
    expect((await state(page)).script).toContain('UPDATE');
    // The IR pane wraps a long line instead of scrolling sideways.
    await page.evaluate(() => window.t2m!.setIrText(`[{ "stage": "RET", "op": "Retrieve", "_comment": "${'long words '.repeat(40)}" }]`));
    await expect.poll(() => page.locator('.pane[data-pane=IR] .view-line').count()).toBeGreaterThan(2);
    // Edit the IR pane: the DSL follows.
    await page.evaluate(() => window.t2m!.showTab('IR'));
    await page.evaluate(() => window.t2m!.setIrText(JSON.stringify([{ stage: 'RET', op: 'Retrieve', target: { ids: ['1'] } }])));
    await page.waitForFunction(() => window.t2m!.state().script.startsWith('RETRIEVE'));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('exports and imports the store as .sqlite and scripts as DSL or IR JSON; the SQL pane follows the editor', async () => {
    const { context, page, problems } = await newPage({ acceptDownloads: true });
    await setScript(page, 'ENCODE "kept in the file" TAGS "export";');
    // Before any run, the SQL pane shows the plan of the script as it is typed.
    await expect.poll(() => page.evaluate(() => window.t2m!.sqlText())).toMatch(/plan of the script[\s\S]*INSERT INTO "?memory"?/);
    await page.evaluate(() => window.t2m!.run());
    expect((await state(page)).memory).toHaveLength(1);

    const [storeFile] = await Promise.all([page.waitForEvent('download'), clickFileItem(page, 'Export store')]);
    const path = await storeFile.path();
    expect(readFileSync(path).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');

    const [json] = await Promise.all([page.waitForEvent('download'), clickFileItem(page, 'Save .json')]);
    expect(JSON.parse(readFileSync(await json.path(), 'utf8'))).toEqual([{ stage: 'ENC', op: 'Encode', args: { payload: { text: 'kept in the file' }, tags: ['export'] } }]);

    // Reset asks first; Cancel keeps the rows, confirming empties the store.
    await page.click('[data-testid=reset-store]');
    await page.click('[data-testid=confirm-cancel]');
    expect((await state(page)).memory).toHaveLength(1);
    await page.click('[data-testid=reset-store]');
    expect(await page.locator('[data-testid=confirm-dialog]').innerText()).toMatch(/All 1 row of own store/);
    await page.click('[data-testid=confirm-ok]');
    await expect.poll(async () => (await state(page)).memory.length).toBe(0);
    // A script's own store is emptied by every run, so an imported store becomes a named one the script now runs on.
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), clickFileItem(page, 'Import store')]);
    await chooser.setFiles(path);
    await expect.poll(async () => (await state(page)).memory.map((r) => r.text)).toEqual(['kept in the file']);
    expect((await state(page)).store).toBe('store "imported 1"');
    expect(await page.locator('[data-testid=store-indicator]').innerText()).toBe('"imported 1": 1 row');

    // A foreign file is refused with a message, and the store is left alone.
    const foreign = join(mkdtempSync(join(tmpdir(), 't2m-e2e-')), 'not-a-store.sqlite');
    writeFileSync(foreign, 'hello');
    const [chooser2] = await Promise.all([page.waitForEvent('filechooser'), clickFileItem(page, 'Import store')]);
    await chooser2.setFiles(foreign);
    await expect.poll(() => page.locator('[data-testid=status]').innerText()).toMatch(/could not open not-a-store\.sqlite/);
    expect((await state(page)).memory).toHaveLength(1);

    // Opening an IR JSON file converts it to DSL in a new script tab.
    const [chooser3] = await Promise.all([page.waitForEvent('filechooser'), clickFileItem(page, 'Open…')]);
    await chooser3.setFiles(await json.path());
    await page.waitForFunction(() => window.t2m!.state().script.startsWith('ENCODE "kept in the file"'));

    // A saved store that no longer opens: the page starts with an empty store and says so.
    await page.locator('[data-testid=script-tabs] button').first().click();
    await expect.poll(async () => (await state(page)).store).toBe('store "imported 1"');
    await page.waitForTimeout(600);
    await page.evaluate(() => new Promise<void>((resolve, reject) => {
      const request = indexedDB.open('t2m-playground', 1);
      request.onsuccess = () => {
        const tx = request.result.transaction('kv', 'readwrite');
        tx.objectStore('kv').put(new Uint8Array([1, 2, 3]), 'store:named:imported 1');
        tx.oncomplete = () => { request.result.close(); resolve(); };
        tx.onerror = () => reject(tx.error);
      };
      request.onerror = () => reject(request.error);
    }));
    await page.reload();
    await loaded(page);
    await expect.poll(() => page.locator('[data-testid=status]').innerText()).toMatch(/saved store "imported 1" could not be opened/);
    expect((await state(page)).memory).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('renders the shell and the memory table while the editor chunk loads, and resolves `loaded` only once the editor is there', async () => {
    const { context, page, problems } = await newPage();
    await setScript(page, 'ENCODE "saved before the reload" TAGS "kept";');
    await page.evaluate(() => window.t2m!.run());
    expect((await state(page)).memory).toHaveLength(1);
    // The scripts are saved on a debounce; wait until IndexedDB has this one.
    const savedWorkspace = () => page.evaluate(() => new Promise<string>((resolve, reject) => {
      const request = indexedDB.open('t2m-playground', 1);
      request.onsuccess = () => {
        const get = request.result.transaction('kv').objectStore('kv').get('workspace');
        get.onsuccess = () => { request.result.close(); resolve(JSON.stringify(get.result ?? null)); };
        get.onerror = () => reject(get.error);
      };
      request.onerror = () => reject(request.error);
    }));
    await expect.poll(savedWorkspace).toContain('saved before the reload');

    // Hold back the lazily imported editor chunk (`editor-<hash>.js`, not the worker `editor.worker-…`).
    let requested = false;
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    await context.route(/\/assets\/editor-[\w-]+\.js$/, async (route) => {
      requested = true;
      await held;
      await route.continue();
    });
    // `commit`: whether a pending dynamic import holds back the load event is not ours to rely on.
    await page.reload({ waitUntil: 'commit' });
    await page.waitForFunction(() => window.t2m !== undefined);
    await page.locator('#editor [data-testid=editor-loading]').waitFor();
    await expect.poll(() => requested).toBe(true);
    // The shell works without Monaco: header, panes, the restored memory table.
    expect(await page.locator('[data-testid=run]').isVisible()).toBe(true);
    await page.click('.tabs button[data-tab=Memory]');
    await expect.poll(() => page.locator('.pane[data-pane=Memory] table tbody tr').count()).toBe(1);
    expect(await page.locator('.pane[data-pane=Memory]').innerText()).toContain('saved before the reload');
    expect(await page.locator('#editor .monaco-editor').count()).toBe(0);
    const pending = (p: 'loaded' | 'settled') => page.evaluate((which) => Promise.race([
      (which === 'loaded' ? window.t2m!.loaded : window.t2m!.settled()).then(() => 'resolved'),
      new Promise((resolve) => setTimeout(() => resolve('pending'), 500)),
    ]), p);
    expect(await pending('loaded')).toBe('pending');
    expect(await pending('settled')).toBe('pending');
    expect((await state(page)).ready).toBe(false);

    release();
    await page.evaluate(() => window.t2m!.loaded);
    await page.evaluate(() => window.t2m!.settled());
    expect(await page.locator('[data-testid=editor-loading]').count()).toBe(0);
    await page.locator('#editor .monaco-editor').waitFor();
    const s = await state(page);
    expect(s.ready).toBe(true);
    expect(s.script).toBe('ENCODE "saved before the reload" TAGS "kept";');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('fails when a worker cannot load', async () => {
    const context = await playground.served.browser.newContext();
    const page = await context.newPage();
    const problems = collectProblems(page);
    await context.route(/editor\.worker.*\.js$/, (route) => route.fulfill({ status: 404, body: 'missing' }));
    await open(page);
    await typeScript(page, 'promote   where search "x" limit 5 set weight 0.9');
    await page.click('[data-testid=format]');
    await expect.poll(() => problems.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await context.close();
  });

  it('shows the language card in the Docs tab, above the railroad diagrams', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1440, height: 860 } });
    await page.click('.tabs button[data-tab=Docs]');
    const card = page.locator('[data-testid=language-card]');
    await expect.poll(() => card.locator('h2').count()).toBeGreaterThan(5);
    expect(await card.locator('h1').innerText()).toContain('language card');
    const text = await card.innerText();
    expect(text).toContain('ENCODE');
    expect(text).toContain('append_only');
    // Rendered Markdown: lists and inline code, no raw Markdown left, nothing but plain elements.
    expect(await card.locator('li code', { hasText: /^append_only$/ }).count()).toBeGreaterThan(0);
    expect(text).not.toMatch(/^#+ |\*\*/m);
    expect(await card.locator('script, img, iframe, a, [onclick]').count()).toBe(0);
    // The diagrams are still there, below the card.
    const cardBox = (await page.locator('details.card').boundingBox())!;
    const frameBox = (await page.locator('iframe.docs').boundingBox())!;
    expect(frameBox.y).toBeGreaterThanOrEqual(cardBox.y + cardBox.height - 1);
    await expect.poll(() => page.frameLocator('iframe.docs').locator('h2.diagramHeader').count()).toBeGreaterThan(10);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks a configured OpenAI-compatible endpoint, repairs the first draft, and appends the checked DSL to the editor without running it', async () => {
    const BAD = 'ENCODE "Buy milk on Friday" TYPE task TAGZ "shopping";';
    const GOOD = 'ENCODE "Buy milk on Friday" TYPE task TAGS "shopping";';
    const llm = await fakeLlm((request) => {
      const user = request.body.messages.filter((m) => m.role === 'user');
      if (user[0]?.content.includes('fail')) return { status: 500, body: '{"error":{"message":"the fake model is down"}}' };
      // The first answer needs a repair; the answer to the repair message is good (in a fence, as models do).
      return user.length === 1 ? BAD : `Here you go:\n\`\`\`t2m\n${GOOD}\n\`\`\`\n`;
    });
    const context = await playground.served.browser.newContext({ viewport: { width: 1440, height: 860 } });
    const page = await context.newPage();
    const problems = collectProblems(page);
    try {
      await open(page);
      await setScript(page, 'ENCODE "existing" TYPE note;');
      // Not configured: the box says how, and asking opens the settings dialog.
      expect(await page.locator('[data-testid=ask-hint]').innerText()).toMatch(/set an OpenAI-compatible endpoint/);
      const input = page.getByLabel('Ask', { exact: true });
      await input.fill('remember to buy milk on Friday, tag it shopping');
      await input.press('Enter');
      const dialog = page.locator('[data-testid=ask-dialog]');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await dialog.innerText()).toMatch(/kept in this browser.*sent only to this endpoint/is);
      // Keyboard only: the dialog's labelled fields, Enter saves.
      await page.getByLabel(/Base URL/).fill(llm.baseUrl);
      await page.getByLabel('Model', { exact: true }).fill('fake-model');
      await page.getByLabel(/API key/).fill('sk-test');
      await page.getByLabel(/API key/).press('Enter');
      await expect.poll(() => dialog.isVisible()).toBe(false);
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem('t2m.ask.endpoint')!))).toEqual({ baseUrl: llm.baseUrl, model: 'fake-model', apiKey: 'sk-test' });
      expect(await page.locator('[data-testid=ask-hint]').innerText()).toBe('');

      // Saving the endpoint sent the request that was waiting for it.
      await page.waitForFunction(() => window.t2m!.state().script.includes('# Ask:'));
      const s = await state(page);
      expect(s.script).toBe(`ENCODE "existing" TYPE note;\n\n# Ask: remember to buy milk on Friday, tag it shopping\n${GOOD}\n`);
      // Drafted, not run.
      expect(s.results).toEqual([]);
      expect(s.memory).toEqual([]);
      await expect.poll(() => page.locator('[data-testid=status]').innerText()).toMatch(/drafted 1 statement \(2 answers\)/);
      await page.evaluate(() => window.t2m!.settled());
      expect((await state(page)).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);

      // What the endpoint received: the card as the system prompt, the request, then the repair with the diagnostics.
      expect(llm.requests).toHaveLength(2);
      const [first, second] = llm.requests;
      expect(first.path).toBe('/v1/chat/completions');
      expect(first.headers.authorization).toBe('Bearer sk-test');
      expect(first.body.model).toBe('fake-model');
      expect(first.body.stream).toBe(true);
      expect(first.body.messages[0].role).toBe('system');
      expect(first.body.messages[0].content).toContain('# Text2Mem DSL — language card');
      expect(first.body.messages[0].content).toContain('append_only');
      expect(first.body.messages[1]).toEqual({ role: 'user', content: 'remember to buy milk on Friday, tag it shopping' });
      expect(second.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
      expect(second.body.messages[2].content).toBe(BAD);
      const repair = second.body.messages[3].content;
      expect(repair).toContain('has errors');
      expect(repair).toContain('unknown-keyword');
      expect(repair).toContain("did you mean TAGS");
      expect(repair).toContain('> 1 | ' + BAD);
      expect(llm.preflights).toBeGreaterThan(0);

      // A failing endpoint: the status and the hint say why; the script is untouched.
      await input.fill('this one will fail');
      await input.press('Enter');
      await expect.poll(() => page.locator('[data-testid=status]').innerText()).toMatch(/^Ask failed: llm-http-error: .*HTTP 500/);
      expect(await page.locator('[data-testid=ask-hint]').innerText()).toContain('the fake model is down');
      expect((await state(page)).script).toBe(s.script);
      // The endpoint survives a reload (localStorage); nothing else is sent anywhere.
      await page.reload();
      await loaded(page);
      expect(await page.locator('[data-testid=ask-hint]').innerText()).toBe('');
      expect(llm.requests).toHaveLength(3);
      // Chromium logs the HTTP 500 as a failed resource load: that one is expected. So is an
      // aborted completion request: the client cancels the rest of an event stream once it has
      // read `data: [DONE]` (src/agents/openai.ts), which Chromium reports as net::ERR_ABORTED
      // whenever the cancel comes before the server's end of stream.
      expect(problems.filter((p) => !/status of 500/.test(p) && !/\/v1\/chat\/completions net::ERR_ABORTED$/.test(p))).toEqual([]);
    } finally {
      await context.close();
      await llm.close();
    }
  });

  it('runs each script on its own fresh store: no rows leak between scripts, a LOCK script re-runs, named stores are kept and shown', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1440, height: 860 } });
    const indicator = () => page.locator('[data-testid=store-indicator]').innerText();
    const LOCKED = 'ENCODE "incident log" TAGS "sev1";\nLOCK WHERE tags HAS "sev1" LIMIT 5 MODE read_only;\n';
    await setScript(page, LOCKED);
    await page.evaluate(() => window.t2m!.run());
    expect((await state(page)).committed).toBe(true);
    expect(await indicator()).toBe('own store: 1 row');
    // Run again: a fresh store, so the script's own earlier lock is not in the way.
    await page.evaluate(() => window.t2m!.run());
    let s = await state(page);
    expect(s.committed).toBe(true);
    expect(s.results.every((r) => r.ok)).toBe(true);
    expect(s.memory).toHaveLength(1);
    expect(s.store).toBe('own store (fresh each run)');
    expect(await page.locator('[data-testid=status]').innerText()).toMatch(/on own store \(fresh each run\): 1 row$/);
    // The run history keeps both runs; the first can be opened again.
    expect(s.runs).toBe(2);
    await page.evaluate(() => window.t2m!.showTab('Results'));
    expect(await page.locator('[data-testid=history] option').allInnerTexts()).toEqual([expect.stringMatching(/^run 2 · .* · 2 statements · committed · own store/), expect.stringMatching(/^run 1 /)]);
    await page.selectOption('[data-testid=history]', '1');
    await expect.poll(() => page.locator('[data-testid=earlier-run]').innerText()).toMatch(/earlier run \(latest: 2\)/);

    // Another script sees none of these rows.
    await page.click('[data-testid=new-script]');
    await expect.poll(() => state(page).then((x) => x.memory.length)).toBe(0);
    await setScript(page, 'RETRIEVE WHERE tags HAS "sev1" LIMIT 10 INCLUDE id, text;');
    await page.evaluate(() => window.t2m!.run());
    s = await state(page);
    expect(s.results[0].rows).toEqual([]);
    expect(await indicator()).toBe('own store: 0 rows');

    // A named store: made in the store bar, kept across runs, shared by the scripts that pick it.
    await page.selectOption('[data-testid=store-select]', { label: 'New named store…' });
    await page.fill('[data-testid=prompt-input]', 'team');
    await page.click('[data-testid=prompt-ok]');
    await expect.poll(() => state(page).then((x) => x.store)).toBe('store "team"');
    await setScript(page, 'ENCODE "kept in team" TAGS "team";');
    await page.evaluate(() => window.t2m!.run());
    await page.evaluate(() => window.t2m!.run());
    expect(await indicator()).toBe('"team": 2 rows');
    // Back to the first script: its own store, as its last run left it.
    await page.locator('[data-testid=script-tabs] button').first().click();
    await expect.poll(indicator).toBe('own store: 1 row');
    await page.selectOption('[data-testid=store-select]', 'team');
    await expect.poll(indicator).toBe('"team": 2 rows');

    // Closing a script asks first; Cancel keeps it.
    const tabs = await page.locator('[data-testid=script-tabs] button').count();
    await page.click('[data-testid=close-script]');
    await page.click('[data-testid=confirm-cancel]');
    expect(await page.locator('[data-testid=script-tabs] button').count()).toBe(tabs);
    await page.click('[data-testid=close-script]');
    await page.click('[data-testid=confirm-ok]');
    await expect.poll(() => page.locator('[data-testid=script-tabs] button').count()).toBe(tabs - 1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a refused run says so in place of the previous results; a bad clock is an error; a misspelt field gets "did you mean" on the word', async () => {
    const { context, page, problems } = await newPage();
    await setScript(page, GOOD);
    await page.evaluate(() => window.t2m!.run());
    await page.evaluate(() => window.t2m!.showTab('Results'));
    await expect.poll(() => page.locator('.pane[data-pane=Results] .result').count()).toBe(6);
    await setScript(page, 'DELETE ALL SOFT;');
    await page.evaluate(() => window.t2m!.run());
    const notRun = page.locator('[data-testid=not-run]');
    await expect.poll(() => notRun.isVisible()).toBe(true);
    expect(await notRun.innerText()).toMatch(/Not run: the script has 1 error/);
    expect(await page.locator('.pane[data-pane=Results] .result').count()).toBe(0);
    expect((await state(page)).refused).toBe(true);
    expect(await page.locator('[data-testid=status]').getAttribute('class')).toContain('error');
    // Its quick fix's label is shown whole ("add CONFIRM", not "add CON…").
    await page.evaluate(() => {
      const editor = window.t2m!.editorInstance();
      editor.setPosition({ lineNumber: 1, column: 9 });
      editor.focus();
      editor.trigger('test', 'editor.action.quickFix', {});
    });
    const fixTitle = page.locator('.action-widget .monaco-list-row .title', { hasText: 'add CONFIRM' });
    await fixTitle.waitFor();
    expect(await fixTitle.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= el.closest('.action-widget')!.getBoundingClientRect().right + 0.5)).toBe(true);
    await page.keyboard.press('Escape');

    // A clock that is not a time: marked, and Run refuses with the reason.
    await setScript(page, 'ENCODE "x";');
    await page.fill('input.clock', 'next tuesday');
    expect(await page.locator('input.clock').getAttribute('aria-invalid')).toBe('true');
    await page.evaluate(() => window.t2m!.run());
    expect(await notRun.innerText()).toMatch(/clock "next tuesday" is not an ISO-8601 time/);
    await page.fill('input.clock', '2025-10-01T00:00:00Z');
    expect(await page.locator('input.clock').getAttribute('aria-invalid')).toBeNull();
    await page.evaluate(() => window.t2m!.run());
    expect((await state(page)).refused).toBe(false);

    // `serch` is marked (not the string after it), with the fix and a hover on the word.
    await setScript(page, 'PROMOTE WHERE serch "x" LIMIT 5 SET weight 0.9;');
    const [marker] = await page.evaluate(() => window.t2m!.markers());
    expect(marker).toMatchObject({ line: 1, column: 15, endColumn: 20 });
    expect(marker.message).toContain('did you mean search?');
    const word = page.locator('#editor .view-line span span', { hasText: /^serch$/ }).first();
    const hover = page.locator('.monaco-hover-content', { hasText: 'did you mean search' });
    await expect.poll(async () => {
      if (await hover.isVisible()) return true;
      await page.mouse.move(0, 0);
      await word.hover();
      return hover.first().waitFor({ timeout: 3000 }).then(() => true, () => false);
    }, { timeout: 30_000 }).toBe(true);
    // Completion lists `search` once, not also `SEARCH`.
    await setScript(page, 'PROMOTE WHERE se');
    await page.keyboard.press('Control+Space');
    await page.waitForSelector('.suggest-widget .monaco-list-row');
    const labels = (await page.locator('.suggest-widget .monaco-list-row .label-name').allInnerTexts()).map((l) => l.trim());
    expect(labels.filter((l) => l.toLowerCase() === 'search')).toEqual(['search']);
    await page.keyboard.press('Escape');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('welcomes a first visit with the verbs, runnable examples, shortcuts and docs; tabs are an ARIA tablist; themes follow the system and toggle', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1440, height: 860 }, colorScheme: 'light' });
    const welcome = page.locator('.pane[data-pane=Welcome]');
    await expect.poll(() => welcome.isVisible()).toBe(true);
    await expect.poll(() => page.locator('[data-testid=welcome-verbs] tr').count()).toBe(12);
    expect(await welcome.innerText()).toMatch(/Ctrl\/Cmd-Enter/);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    // "Try" opens the example as a new script and runs it on its own store.
    await page.click('[data-try=LOCK]');
    await page.waitForFunction(() => window.t2m!.state().results.length === 4);
    let s = await state(page);
    expect(s.committed).toBe(true);
    expect(s.results.map((r) => r.op)).toEqual(['Encode', 'Encode', 'Encode', 'Lock']);
    expect(await page.locator('[data-testid=script-tabs] button.active').innerText()).toBe('Try LOCK');
    expect(await page.locator('.pane[data-pane=Results]').isVisible()).toBe(true);

    // The tabs: roles, and arrow keys move between them.
    expect(await page.locator('.tabs').getAttribute('role')).toBe('tablist');
    expect(await page.locator('[role=tab]').count()).toBe(7);
    await page.focus('[role=tab][aria-selected=true]');
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('[role=tab][aria-selected=true]').innerText()).toBe('Timeline');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-tab'))).toBe('Timeline');
    expect(await page.locator('#pane-Timeline').getAttribute('role')).toBe('tabpanel');
    // The status is a live region.
    expect(await page.locator('[data-testid=status]').getAttribute('aria-live')).toBe('polite');

    // A spec page in the Docs tab, from the welcome's links.
    await page.evaluate(() => window.t2m!.showTab('Welcome'));
    await page.click('[data-docs=syntax]');
    await expect.poll(() => page.locator('[data-testid=language-card] h1').first().innerText()).toMatch(/syntax/i);

    // The theme toggle: auto (light here) → light → dark; the editor follows.
    await page.click('[data-testid=theme]');
    await page.click('[data-testid=theme]');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.locator('#editor .monaco-editor').getAttribute('class')).toContain('vs-dark');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(30, 30, 30)');

    // The shortcut panel: ? outside the editor.
    await page.focus('[data-testid=run]');
    await page.keyboard.press('?');
    await expect.poll(() => page.locator('[data-testid=shortcuts]').isVisible()).toBe(true);
    expect(await page.locator('[data-testid=shortcuts]').innerText()).toMatch(/Ctrl-M/);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid=shortcuts]').count()).toBe(0);
    s = await state(page);
    expect(s.ready).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keyboard: Tab leaves the editor in tab-focus mode, problems and result heads are reachable, the divider resizes', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1440, height: 860 } });
    await setScript(page, 'ENCODE "a";');
    // Esc then Tab leaves the editor without inserting a tab.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('#editor'))).toBe(false);
    expect((await state(page)).script).toBe('ENCODE "a";');
    // Ctrl-M: Tab moves focus until pressed again.
    await page.click('#editor .view-lines');
    await page.keyboard.press('Control+M');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('#editor'))).toBe(false);
    expect((await state(page)).script).toBe('ENCODE "a";');
    await page.click('#editor .view-lines');
    await page.keyboard.press('Control+M');

    // A problem row is a focusable button: Enter selects its range.
    await setScript(page, 'ENCODE "x" TPYE note;');
    const row = page.locator('[data-testid=problems] [data-code=unknown-keyword]');
    await row.focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => window.t2m!.editorInstance().getSelection()?.startColumn)).toBe(12);

    // A result head is a button: Enter opens the statement in the timeline.
    await setScript(page, GOOD);
    await page.evaluate(() => window.t2m!.run());
    await page.evaluate(() => window.t2m!.showTab('Results'));
    await page.locator('.result[data-statement="3"] button.head').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-testid=timeline-pos]').innerText()).toBe('statement 4 of 6');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('[data-testid=timeline-pos]').innerText()).toBe('statement 5 of 6');

    // The divider: a separator; arrow keys resize the columns.
    const width = () => page.locator('.left').evaluate((el) => el.getBoundingClientRect().width);
    const before = await width();
    await page.focus('[data-testid=splitter]');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    expect(await width()).toBeGreaterThan(before + 100);
    expect(await page.locator('[data-testid=splitter]').getAttribute('aria-valuenow')).toBe('62');
    await page.keyboard.press('Home');
    expect(Math.abs((await width()) - before)).toBeLessThan(2);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a 200-statement run: the timeline list stays compact and the diff stays in view; the memory table sorts, filters, groups governance columns and exports', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1024, height: 700 }, acceptDownloads: true });
    const lines = Array.from({ length: 200 }, (_, i) => `ENCODE "note ${String(i).padStart(3, '0')}" TYPE note TAGS "${i % 2 ? 'odd' : 'even'}" TIME 2025-04-10T15:30:00+08:00;`);
    await setScript(page, `${lines.join('\n')}\nLOCK WHERE tags HAS "odd" LIMIT 1 MODE read_only;\n`);
    await page.evaluate(() => window.t2m!.run());
    expect((await state(page)).results).toHaveLength(201);
    await page.evaluate(() => window.t2m!.step(150));
    const pane = await page.locator('.pane[data-pane=Timeline]').boundingBox();
    const list = await page.locator('[data-testid=timeline-list]').boundingBox();
    const diff = await page.locator('[data-testid=timeline-table]').boundingBox();
    expect(list!.height).toBeLessThan(140);
    expect(diff!.y).toBeLessThan(pane!.y + pane!.height - 40);
    // The selected statement is scrolled into the list's view.
    const active = await page.locator('[data-testid=timeline-list] .active').boundingBox();
    expect(active!.y).toBeGreaterThanOrEqual(list!.y - 1);
    expect(active!.y + active!.height).toBeLessThanOrEqual(list!.y + list!.height + 1);

    // The memory table: content columns first, governance columns on demand.
    await page.click('.tabs [data-tab=Memory]');
    const headers = () => page.locator('[data-testid=memory-table] th').allInnerTexts();
    expect(await headers()).not.toContain('lock_mode');
    await page.check('[data-testid=memory-governance]');
    expect(await headers()).toEqual(expect.arrayContaining(['lock_mode', 'created_at']));
    // Sort by text, descending on the second click.
    await page.click('[data-testid=memory-table] button[data-column=text]');
    await page.click('[data-testid=memory-table] button[data-column=text]');
    expect(await page.locator('[data-testid=memory-table] tbody tr:first-child td:nth-child(2)').innerText()).toBe('note 199');
    await page.fill('[data-testid=memory-filter]', 'note 01');
    expect(await page.locator('[data-testid=memory-table] tbody tr').count()).toBe(10);
    expect(await page.locator('[data-testid=memory-count]').innerText()).toBe('10 of 200 rows');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-memory-csv]')]);
    const text = readFileSync(await csv.path(), 'utf8').trim().split(/\r\n/);
    expect(text).toHaveLength(11);
    expect(text[0].split(',')).toEqual(expect.arrayContaining(['id', 'text', 'tags']));
    expect(text[1]).toContain('note 019');
    const [json] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-memory-json]')]);
    expect(JSON.parse(readFileSync(await json.path(), 'utf8'))).toHaveLength(10);
    // Results export too.
    await page.click('.tabs [data-tab=Results]');
    const [results] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-results-json]')]);
    const parsed = JSON.parse(readFileSync(await results.path(), 'utf8')) as { op: string }[];
    expect(parsed).toHaveLength(201);
    expect(parsed[200].op).toBe('Lock');
    const [rcsv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-results-csv]')]);
    expect(readFileSync(await rcsv.path(), 'utf8').split('\r\n')[0]).toBe('statement,op,ok,source,affected_ids,added,removed,changed,rows,warnings,errors,summary');
    // The SQL pane is SQL: the audit-log inserts take one line each.
    const sql = await page.evaluate(() => window.t2m!.sqlText());
    expect(sql).toContain('-- + audit_log entry');
    expect(sql).not.toMatch(/"before"|\\"op\\":/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the memory table's ids open the record's why: the fact's versions, newest first, with episode, run and supersession (as t2m why)", async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 1440, height: 900 } });
    await setScript(page, [
      'ENCODE "2026-07-15" SUBJECT mira ATTRIBUTE passport_deadline VALID FROM 2026-06-01T09:00:00Z EPISODE "e1";',
      'ENCODE "2026-06-30" SUBJECT mira ATTRIBUTE passport_deadline VALID FROM 2026-06-03T10:00:00Z EPISODE "e2";',
      '',
    ].join('\n'));
    await page.evaluate(() => window.t2m!.run());
    expect((await state(page)).results).toHaveLength(2);
    await page.click('.tabs [data-tab=Memory]');
    await page.click('[data-testid=memory-table] button.why[data-why="2"]');
    const why = page.locator('[data-testid=memory-why]');
    await expect.poll(() => why.innerText()).toContain('Why #2');
    const items = await why.locator('li').allInnerTexts();
    expect(items).toHaveLength(2);
    // Both time axes: when each version held (valid) and when the store believed it (recorded at the run's clock).
    expect(items[0]).toMatch(/^#2 · "2026-06-30" · mira\.passport_deadline · valid 2026-06-03T10:00:00Z → now · believed \S+Z → now · episode e2 .*supersedes #1$/);
    expect(items[1]).toMatch(/^#1 · "2026-07-15" · .*valid 2026-06-01T09:00:00Z → 2026-06-03T10:00:00Z · believed \S+Z → now · episode e1 /);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('narrow windows get one column: editor above the panes, both full width; the status stays one line', async () => {
    const { context, page, problems } = await newPage({ viewport: { width: 390, height: 844 } });
    const box = (selector: string) => page.locator(selector).first().evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
    });
    const left = await box('.left');
    const right = await box('.right');
    expect(left.width).toBeGreaterThan(370);
    expect(right.width).toBeGreaterThan(370);
    expect(right.top).toBeGreaterThanOrEqual(left.bottom - 1);
    expect((await box('#editor .monaco-editor')).width).toBeGreaterThan(300);
    expect(await page.locator('[data-testid=splitter]').isVisible()).toBe(false);
    // A long status message stays on one line.
    await page.evaluate(() => window.t2m!.setClock('not a time at all, and a long explanation of why that is so'));
    await page.evaluate(() => window.t2m!.run());
    expect((await box('[data-testid=status]')).height).toBeLessThan(30);
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('opens a share link with the script in the URL hash', async () => {
    const context = await playground.served.browser.newContext();
    const page = await context.newPage();
    await open(page);
    const script = 'RETRIEVE WHERE subject = "数据库 failover" LIMIT 3 INCLUDE id, text';
    await setScript(page, script);
    const url = await page.evaluate(() => window.t2m!.shareUrl());
    expect(url).toMatch(/#script=[\w-]+$/);
    const other = await (await playground.served.browser.newContext()).newPage();
    await other.goto(url);
    await loaded(other);
    expect((await other.evaluate(() => window.t2m!.state())).script).toBe(script);
    await other.context().close();
    await context.close();
  });
});

describe('playground bundle', () => {
  it('loads Monaco in a chunk of its own, bundles only the Monaco languages it uses, and reports its gzipped size', async () => {
    const { playgroundSize } = await import('../../scripts/playground-size.js');
    const report = playgroundSize();
    expect(report.monacoLanguages).toEqual(['sql']);
    const all = [...report.initial, ...report.editor, ...report.workers, ...report.lazy].map((f) => f.file).join('\n');
    // No TypeScript/CSS/HTML language service workers: those are the heavy ones.
    expect(all).not.toMatch(/ts\.worker|css\.worker|html\.worker/);
    // Monaco is in the editor chunk the entry imports lazily, not in the entry chunk.
    expect(report.initial).toHaveLength(1);
    expect(report.editor.length).toBeGreaterThan(0);
    const entry = readFileSync(fileURLToPath(new URL(`../../playground/dist/${report.initial[0].file}`, import.meta.url)), 'utf8');
    expect(entry).not.toContain('MonacoEnvironment');
    // The language card and the planner (Docs tab, Ask box) load on demand, not with the entry.
    expect(entry).not.toContain('## Meanings, answered');
    expect(entry).not.toContain('streamed an event that is not JSON');
    // Budgets, so an accidental extra language or library (or Monaco slipping back into the entry) shows up as a failure.
    // The entry (page shell, parser, engine, sql.js glue) was ~163 KiB; the editor chunk is Monaco's core, ~885 KiB.
    expect(report.totals.initialGzip).toBeLessThan(250 * 1024);
    expect(report.totals.editorGzip).toBeLessThan(950 * 1024);
    expect(report.totals.workersGzip).toBeLessThan(350 * 1024);
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    const t = report.totals;
    console.log(`playground JS gzipped: ${kb(t.initialGzip)} entry chunk, ${kb(t.editorGzip)} editor chunk, ${kb(t.workersGzip)} workers, ${kb(t.lazyGzip)} on demand`);
  });
});
