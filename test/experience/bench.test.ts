/** `npm run bench:experience`: the documents carry its current figures, and the learned selector meets its targets by execution. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BEGIN, DOCS, END, reportBlock, runExperienceBench } from '../../eval/experience.js';
import { FAMILIES, adapt, buildDb, execute, literals, pastEpisodes, requests } from '../../eval/sql-env/env.js';
import { loadSqlJs } from '../../src/dialect/sqlite/store.js';
import { statusReward, type TurnScorer } from '../../src/experience/experience.js';

describe('the experience benchmark', () => {
  it('is a real environment: 60+ requests in 12+ families, gold by execution, a wrong query differs from the gold', async () => {
    const reqs = requests();
    expect(reqs.length).toBeGreaterThanOrEqual(60);
    expect(new Set(reqs.map((r) => r.family)).size).toBeGreaterThanOrEqual(12);
    const db = buildDb(await loadSqlJs());
    expect(execute(db, 'SELECT COUNT(*) FROM orders')).toEqual({ ok: true, rows: '[[2000]]' });
    const f = FAMILIES[0];
    const gold = execute(db, f.gold('Lyon'));
    expect(gold.ok).toBe(true);
    expect(execute(db, f.wrong('Lyon'))).not.toEqual(gold);
    // Adapting a past query's literals to a request gives the request's gold.
    expect(execute(db, adapt(f.gold('Paris'), ['Paris'], literals('… "Lyon"?')))).toEqual(gold);
    // A query of the old schema fails on the current one.
    const legacy = pastEpisodes().find((e) => e.legacy && /town/.test(e.sql))!;
    expect(execute(db, legacy.sql)).toMatchObject({ ok: false, error: expect.stringMatching(/no such column/) });
  });

  it('meets its targets, and docs/performance.md and examples/sql-agent/README.md show its current figures', async () => {
    const r = await runExperienceBench();
    expect(Object.keys(r.unseen)).toEqual(['n', 'similarity', 'item_utility', 'learned']);
    // Unseen families: the learned selector solves at least 15% of the test requests more than both baselines.
    expect(r.unseen.learned - Math.max(r.unseen.similarity, r.unseen.item_utility)).toBeGreaterThanOrEqual(0.15 * r.unseen.n);
    // Seen families: at least as good as the fixed formula.
    expect(r.seen.learned).toBeGreaterThanOrEqual(r.seen.item_utility);
    for (const file of DOCS) {
      const text = readFileSync(file, 'utf8');
      const block = text.slice(text.indexOf(BEGIN) + BEGIN.length, text.indexOf(END)).trim();
      expect(block, `${file} is stale: run npx tsx eval/experience.ts --write`).toBe(reportBlock(r));
    }
  }, 180_000);

  it('takes a rubric turn scorer in place of the status reward (a function)', async () => {
    const seen: string[] = [];
    const scorer: TurnScorer = (t) => { seen.push(t.status); return statusReward(t.status); };
    const r = await runExperienceBench({ turnScorer: scorer });
    expect(seen.length).toBeGreaterThan(0);
    expect({ unseen: r.unseen, seen: r.seen }).toEqual({ unseen: (await runExperienceBench()).unseen, seen: r.seen });
  }, 180_000);
});
