/**
 * The playground's working tools (issue "The playground, round two"): IR pane edits that keep the
 * script's comments, Ask that keeps a draft one quick fix makes valid and explains an endpoint
 * without CORS, Run selection / statement at cursor on the same store, run history across reloads
 * with a diff of two runs' memory tables, "superseded by #N" links in Why, and the default weight
 * shown as `t2m run` shows it. Chromium through playwright-core.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeLlm } from './fake-llm.js';
import { loaded, pageState, servePlayground, setScript, status } from '../support/page.js';

interface WorkState {
  script: string;
  results: { op: string; statement: number; rows: Record<string, unknown>[] }[];
  memory: Record<string, unknown>[];
  runs: number;
  committed: boolean;
}

const playground = servePlayground();

const state = (page: Page): Promise<WorkState> => pageState<WorkState>(page);

/** A page of its own, `width` px wide. */
const newPage = (width = 1400) => playground.newPage({ viewport: { width, height: 900 } });

describe('playground: working tools', () => {
  it('IR pane: an edit of one statement keeps every comment and blank line of the script', async () => {
    const { context, page, problems } = await newPage();
    const script = [
      '# Groceries, kept for the week',
      '',
      'ENCODE "Buy milk" TYPE task TAGS "shopping"; # the usual',
      '',
      '# what is left to buy',
      'RETRIEVE WHERE tags HAS "shopping" # by tag',
      '  LIMIT 3;',
      '',
      '# end',
      '',
    ].join('\n');
    await setScript(page, script);
    await page.evaluate(() => window.t2m!.showTab('IR'));
    await page.waitForFunction(() => window.t2m!.irText().includes('"limit": 3'));
    const ir = await page.evaluate(() => window.t2m!.irText());
    await page.evaluate((t) => window.t2m!.setIrText(t), ir.replace('"limit": 3', '"limit": 5'));
    await page.waitForFunction(() => window.t2m!.state().script.includes('LIMIT 5'));
    expect((await state(page)).script).toBe([
      '# Groceries, kept for the week',
      '',
      'ENCODE "Buy milk" TYPE task TAGS "shopping"; # the usual',
      '',
      '# what is left to buy',
      '# by tag',
      'RETRIEVE WHERE tags HAS "shopping" LIMIT 5;',
      '',
      '# end',
      '',
    ].join('\n'));
    // The note says what the edit did, also once the new text's analysis has rewritten the IR.
    await page.evaluate(() => window.t2m!.settled());
    expect(await page.locator('.pane-note', { hasText: 'comments and blank lines kept' }).count()).toBe(1);
    // Undo gives the script back as it was.
    await page.evaluate(() => window.t2m!.editorInstance().getModel()!.undo());
    expect((await state(page)).script).toBe(script);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Ask: after three failed answers the last draft is kept when one quick fix makes it valid', async () => {
    const BAD = 'ENCODE "Buy milk on Friday" TYPE task TAGZ "shopping";';
    const llm = await fakeLlm(() => BAD);
    const { context, page, problems } = await newPage();
    try {
      await setScript(page, '');
      await page.evaluate((baseUrl) => localStorage.setItem('t2m.ask.endpoint', JSON.stringify({ baseUrl, model: 'stubborn', apiKey: '' })), llm.baseUrl);
      const input = page.getByLabel('Ask', { exact: true });
      await input.fill('buy milk on Friday');
      await input.press('Enter');
      await page.waitForFunction(() => window.t2m!.state().script.includes('# Ask:'));
      expect(llm.requests).toHaveLength(3);
      expect((await state(page)).script).toBe('# Ask: buy milk on Friday\nENCODE "Buy milk on Friday" TYPE task TAGS "shopping";\n');
      await expect.poll(() => status(page).innerText()).toMatch(/drafted 1 statement \(3 answers, then the quick fix .*TAGS/);
      expect(await page.locator('[data-testid=ask-hint]').innerText()).toMatch(/one quick fix made it valid/);
      await page.evaluate(() => window.t2m!.settled());
      expect((await page.evaluate(() => window.t2m!.state().diagnostics)).filter((d) => d.severity === 'error')).toEqual([]);
      expect(problems.filter((p) => !/\/v1\/chat\/completions net::ERR_ABORTED$/.test(p))).toEqual([]);
    } finally {
      await context.close();
      await llm.close();
    }
  });

  it('Ask: an endpoint without CORS, or one that is down, gets a hint instead of "Failed to fetch"', async () => {
    // Answers everything, but with no Access-Control-Allow-Origin: the browser keeps the answer from the page.
    const noCors: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => noCors.listen(0, '127.0.0.1', resolve));
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const downPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { context, page, problems } = await newPage();
    try {
      const ask = async (baseUrl: string) => {
        await page.evaluate((url) => localStorage.setItem('t2m.ask.endpoint', JSON.stringify({ baseUrl: url, model: 'm', apiKey: '' })), baseUrl);
        const input = page.getByLabel('Ask', { exact: true });
        await input.fill('remember this');
        await input.press('Enter');
        await expect.poll(() => status(page).innerText()).toMatch(/^Ask failed/);
        return page.locator('[data-testid=ask-hint]').innerText();
      };
      const corsHint = await ask(`http://127.0.0.1:${(noCors.address() as AddressInfo).port}/v1`);
      expect(corsHint).toMatch(/does not allow cross-origin requests \(CORS\) from http:\/\/(localhost|127\.0\.0\.1):\d+/);
      expect(corsHint).toMatch(/Access-Control-Allow-Origin/);
      expect(await status(page).innerText()).toBe('Ask failed: The endpoint answers, but not to this page');
      const downHint = await ask(`http://127.0.0.1:${downPort}/v1`);
      expect(downHint).toMatch(/could not be reached from this page: check the base URL and that the server is running/);
      // What Chromium logs about the blocked and refused requests is expected; nothing else.
      expect(problems.filter((p) => !/CORS policy|net::ERR_FAILED|net::ERR_CONNECTION_REFUSED/.test(p))).toEqual([]);
    } finally {
      await context.close();
      await new Promise<void>((resolve) => noCors.close(() => resolve()));
    }
  });

  it('Run statement at cursor (Ctrl-Shift-Enter) and Run selection: just that part, on the store as it is', async () => {
    const { context, page, problems } = await newPage();
    const script = 'ENCODE "a" TAGS "x";\nENCODE "b" TAGS "x";\nRETRIEVE WHERE tags HAS "x" INCLUDE id, text, weight;\n';
    await setScript(page, script);
    await page.evaluate(() => window.t2m!.run());
    expect((await state(page)).memory).toHaveLength(2);
    // The cursor in statement 2: only it runs, adding a third row to the two already there.
    await page.evaluate((at) => window.t2m!.select(at, at), script.indexOf('"b"'));
    await page.keyboard.press('Control+Shift+Enter');
    await expect.poll(async () => (await state(page)).runs).toBe(2);
    let s = await state(page);
    expect(s.results.map((r) => [r.statement, r.op])).toEqual([[1, 'Encode']]);
    expect(s.memory.map((r) => r.text)).toEqual(['a', 'b', 'b']);
    expect(await status(page).innerText()).toMatch(/^ran statement 2 of 3 in \d+ ms on .*: 3 rows$/);
    // The results and the timeline are that part's.
    expect(await page.locator('.pane[data-pane=Results] .result').count()).toBe(1);
    await page.evaluate(() => window.t2m!.showTab('Timeline'));
    expect(await page.locator('[data-testid=timeline-pos]').innerText()).toBe('statement 2 (1 of 1 run)');
    expect(await page.locator('[data-testid=timeline-list] button').count()).toBe(1);
    // The record it wrote names its statement as the script numbers it (statement 2, not the part's first).
    expect(s.memory.map((r) => r.statement_index)).toEqual([0, 1, 1]);
    const why = page.locator('[data-testid=memory-why]');
    await page.evaluate(() => window.t2m!.showTab('Memory'));
    await page.locator('[data-testid=memory-table] button[data-why="3"]').click();
    await expect.poll(() => why.innerText()).toMatch(/Why #3/);
    expect(await why.innerText()).toMatch(/, statement 2(?!\d)/);

    // A selection over statements 2–3 runs both; the read sees all three rows, never-promoted weights as `t2m run` shows them.
    await page.evaluate(([a, b]) => window.t2m!.select(a, b), [script.indexOf('ENCODE "b"') + 3, script.indexOf('INCLUDE')]);
    await page.evaluate(() => window.t2m!.runPart());
    s = await state(page);
    expect(s.results.map((r) => r.statement)).toEqual([1, 2]);
    expect(s.memory).toHaveLength(4);
    expect(s.results[1].rows).toHaveLength(4);
    await page.evaluate(() => window.t2m!.showTab('Results'));
    expect(await page.locator('.pane[data-pane=Results] .result[data-statement="2"] td.defaulted').first().innerText()).toBe('0.5 (default)');
    expect(await page.locator('[data-testid=history] option').first().innerText()).toMatch(/^run 3 · .* · statements 2–3 only · committed/);
    expect(s.memory.map((r) => r.statement_index)).toEqual([0, 1, 1, 1]);
    await page.evaluate(() => window.t2m!.showTab('Memory'));
    await page.locator('[data-testid=memory-table] button[data-why="4"]').click();
    await expect.poll(() => why.innerText()).toMatch(/Why #4/);
    expect(await why.innerText()).toMatch(/, statement 2(?!\d)/);

    // Between statements there is nothing to run: it says so and runs nothing.
    await setScript(page, 'ENCODE "a";\n\n# nothing here\n');
    await page.evaluate(() => window.t2m!.select(14, 14));
    await page.evaluate(() => window.t2m!.runPart());
    expect(await status(page).innerText()).toMatch(/^not run: no statement at the cursor/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('run history survives a reload, and two runs\' memory tables can be compared', async () => {
    const { context, page, problems } = await newPage();
    await setScript(page, 'ENCODE "keep" TAGS "k";\nENCODE "drop" TAGS "d";');
    await page.evaluate(() => window.t2m!.run());
    await setScript(page, 'ENCODE "keep" TAGS "k";\nENCODE "new" TAGS "n";\nPROMOTE WHERE tags HAS "k" SET weight 0.9;');
    await page.evaluate(() => window.t2m!.run());
    expect((await state(page)).runs).toBe(2);
    await page.reload();
    await loaded(page);
    const s = await state(page);
    expect(s.runs).toBe(2);
    expect(s.results.map((r) => r.op)).toEqual(['Encode', 'Encode', 'Promote']);
    await page.evaluate(() => window.t2m!.showTab('Results'));
    expect(await page.locator('[data-testid=restored-run]').innerText()).toMatch(/Restored from an earlier visit/);
    expect(await page.locator('[data-testid=history] option').allInnerTexts()).toEqual([
      expect.stringMatching(/^run 2 · .* · 3 statements · committed/), expect.stringMatching(/^run 1 · .* · 2 statements · committed/),
    ]);
    // Compare: what run 2 left against what run 1 left.
    await page.locator('[data-testid=compare-run]').selectOption('1');
    const compare = page.locator('[data-testid=run-compare]');
    await expect.poll(() => compare.count()).toBe(1);
    expect(await compare.locator('b').innerText()).toBe('Memory: run 1 → run 2');
    const changes = await compare.locator('[data-testid=changes] li').allInnerTexts();
    expect(changes).toContain('~ #1 weight: 0.5 (default) → 0.9');
    expect(changes).toContain('~ #2 text: drop → new');
    // The timeline of a restored run says why it has no snapshots.
    await page.evaluate(() => window.t2m!.showTab('Timeline'));
    expect(await page.locator('[data-testid=timeline-restored]').innerText()).toMatch(/restored after a reload/);
    // A new run steps through again.
    await page.evaluate(() => window.t2m!.run());
    expect((await state(page)).runs).toBe(3);
    await page.evaluate(() => window.t2m!.showTab('Timeline'));
    expect(await page.locator('[data-testid=timeline-restored]').count()).toBe(0);
    expect(await page.locator('.pane[data-pane=Timeline] [data-testid=timeline-table]').count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Why links a fact to the version that superseded it and back', async () => {
    const { context, page, problems } = await newPage();
    await setScript(page, [
      'ENCODE "2026-07-15" SUBJECT "mira" ATTRIBUTE "passport_deadline" VALID FROM 2026-06-01T09:00:00Z EPISODE "e1";',
      'ENCODE "2026-06-30" SUBJECT "mira" ATTRIBUTE "passport_deadline" VALID FROM 2026-06-03T10:00:00Z EPISODE "e2";',
    ].join('\n'));
    await page.evaluate(() => window.t2m!.run());
    await page.evaluate(() => window.t2m!.showTab('Memory'));
    await page.locator('[data-testid=memory-table] button[data-why="1"]').click();
    const why = page.locator('[data-testid=memory-why]');
    await expect.poll(() => why.innerText()).toMatch(/Why #1/);
    expect(await why.innerText()).toMatch(/superseded by #2/);
    await why.locator('button[data-why-link="2"]').click();
    await expect.poll(() => why.innerText()).toMatch(/Why #2/);
    expect(await why.innerText()).toMatch(/supersedes #1/);
    await why.locator('button[data-why-link="1"]').first().click();
    await expect.poll(() => why.innerText()).toMatch(/Why #1/);
    expect(problems).toEqual([]);
    await context.close();
  });
});
