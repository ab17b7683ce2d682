/** Keys apart from values, the learned selector (per tenant, audited, exactly undone), PICK 0 and the selector's options, rewards per level. */
import { describe, expect, it } from 'vitest';
import { Session, run, undo, auditLog, type RunOptions, type Store } from '../../src/engine/index.js';
import { irsToText, textToIr } from '../../src/pipeline.js';
import { FEATURES, learnedSelector, statusReward, type Candidate } from '../../src/experience/experience.js';
import { emptyModel, features } from '../../src/experience/learner.js';
import { freshStore, NOW, rows } from '../engine/harness.js';

function runText(store: Store, text: string, options: RunOptions = {}) {
  const { irs, sourceMaps, diagnostics } = textToIr(text);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return run(store, irs, { now: NOW, sourceMaps, ...options });
}
const modelText = (store: Store, level = 'episode', tenant = 'default') =>
  store.all({ sql: 'SELECT value FROM t2m_meta WHERE key = ?', params: [`experience-model:${level}:${tenant}`] })[0]?.value;

// Past episodes of two kinds of request: for each, one wrong and one ok; for the first the one
// worded closest to the new request was wrong.
const SEED = [
  'ENCODE "count the orders placed in Lyon last month" LEVEL episode VALUE "SELECT COUNT(DISTINCT customer_id) FROM orders" STATUS wrong;',
  'ENCODE "count the orders placed in Lyon" LEVEL episode VALUE "SELECT COUNT(*) FROM orders" STATUS ok;',
  'ENCODE "revenue by category" LEVEL episode VALUE "SELECT SUM(total) FROM orders" STATUS wrong;',
  'ENCODE "total revenue by product category last year" LEVEL episode VALUE "SELECT category, SUM(qty * price) FROM lines GROUP BY category" STATUS ok;',
].join('\n');
const ASK = 'RETRIEVE WHERE search "count the orders placed in Paris last month" K 10 LEVEL episode PICK 1 SET selector = "learned" INCLUDE id, facets;';
const ASK2 = 'RETRIEVE WHERE search "total revenue by product category this year" K 10 LEVEL episode PICK 1 SET selector = "learned" INCLUDE id, facets;';

describe('keys apart from values', () => {
  it('VALUE and STATUS are one ENCODE each, round-trip through the IR, and the value is returned but never searched', async () => {
    const text = 'ENCODE "error: no such column town" LEVEL turn OF 1 VALUE "replace town with city" STATUS error;';
    const { irs } = textToIr(text);
    expect(irs[0].args).toMatchObject({ level: 'turn', episode_id: 1, value: 'replace town with city', status: 'error' });
    expect(textToIr(irsToText(irs)).irs).toEqual(irs);
    const store = await freshStore();
    expect(runText(store, 'ENCODE "monthly revenue by region" LEVEL episode VALUE "SELECT zebra FROM sales" STATUS ok;').ok).toBe(true);
    expect(JSON.parse(String(rows(store)[0].facets))).toEqual({ value: 'SELECT zebra FROM sales', status: 'ok' });
    // The search tokens are the key's; a word of the value alone does not make a record match.
    expect(store.all({ sql: 'SELECT search_text FROM memory WHERE id = 1', params: [] })[0].search_text).toBe('monthli revenu region');
    expect(runText(store, 'ENCODE "zebra sightings by region" LEVEL episode VALUE "SELECT 1" STATUS ok;').ok).toBe(true);
    const byValue = runText(store, 'RETRIEVE WHERE search "zebra" K 10 LEVEL episode PICK 1 INCLUDE id;').results[0].experience!;
    expect(byValue.selected).toEqual([2]);
    const byKey = runText(store, 'RETRIEVE WHERE search "revenue by region" K 10 LEVEL episode INCLUDE id, facets;');
    expect(byKey.results[0].rows).toEqual([{ id: 1, facets: { value: 'SELECT zebra FROM sales', status: 'ok' } }]);
  });

  it('an experience record\'s status outside ok / error / empty / wrong is refused; without LEVEL status is the free facet it was', async () => {
    const store = await freshStore();
    const r = runText(store, 'ENCODE "x" LEVEL episode STATUS fine;');
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['bad-arg']);
    expect(rows(store)).toEqual([]);
    expect(runText(store, 'ENCODE "x" SET status = "done", value = 3;').ok).toBe(true);
  });
});

describe('the learned selector', () => {
  it('learns from rewards through features, not ids: after failures of a wrong episode it prefers the ok one', async () => {
    const store = await freshStore();
    expect(runText(store, SEED).ok).toBe(true);
    const first = runText(store, ASK).results[0].experience!;
    // Before any reward the expected reward is the similarity: the wrong one, worded closest, is kept.
    expect(first.selected).toEqual([1]);
    expect(first.model!.rewards).toBe(0);
    expect(runText(store, 'PROMOTE ID 1 REWARD 0;').ok).toBe(true);
    // Another kind of request: its ok episode is kept and succeeds.
    expect(runText(store, ASK2).results[0].experience!.selected).toEqual([4]);
    expect(runText(store, 'PROMOTE ID 4 REWARD 1;').ok).toBe(true);
    const second = runText(store, ASK).results[0].experience!;
    expect(second.model!.rewards).toBe(2);
    expect(second.model!.weights.status_wrong).toBeLessThan(0);
    expect(second.model!.weights.status_ok).toBeGreaterThan(0);
    expect(second.selected).toEqual([2]);
    // A new wrong episode the model never saw is ranked below an ok one by what it learned.
    expect(runText(store, 'ENCODE "count the orders placed in Paris last month please" LEVEL episode VALUE "SELECT 1" STATUS wrong;').ok).toBe(true);
    const third = runText(store, ASK).results[0].experience!;
    expect(third.candidates[0].id).toBe(5);
    expect(third.selected).toEqual([2]);
  });

  it('two candidates alike in every feature score the same whatever their ids', () => {
    const base = { text: 't', level: 'episode' as const, episodeId: null, similarity: 0.7, utility: null, utilityN: 0, status: 'ok' as const, createdAt: NOW, fromCurrent: false };
    const f = features({ ...base, ageDays: 0 });
    const cands: Candidate[] = [{ ...base, id: 5, features: f }, { ...base, id: 99, features: f }];
    const choice = learnedSelector(emptyModel())({ level: 'episode', query: 'q', candidates: cands, pick: 2 });
    expect(choice.scores![5]).toBe(choice.scores![99]);
    expect(FEATURES).not.toContain('id');
  });

  it('PICK 0 keeps nothing and still reports the candidates; a threshold no candidate reaches keeps nothing', async () => {
    const store = await freshStore();
    expect(runText(store, SEED).ok).toBe(true);
    const none = runText(store, 'RETRIEVE WHERE search "orders in Lyon" K 10 LEVEL episode PICK 0 SET selector = "learned";').results[0];
    expect(none.experience!.selected).toEqual([]);
    expect(none.experience!.candidates.length).toBe(2);
    expect(none.ids).toEqual([]);
    const high = runText(store, 'RETRIEVE WHERE search "orders in Lyon" K 10 LEVEL episode PICK 1 SET selector = "learned", threshold = 5;').results[0];
    expect(high.experience!.selected).toEqual([]);
  });

  it('positive_only leaves out what is not ok; SET episode_id leaves out the running episode\'s own turns unless include_current', async () => {
    const store = await freshStore();
    expect(runText(store, `${SEED}\nENCODE "error: no such column town" LEVEL turn OF 2 VALUE "town -> city" STATUS ok;\nENCODE "error: no such column town" LEVEL turn OF 1 VALUE "town -> region" STATUS error;`).ok).toBe(true);
    const pos = runText(store, 'RETRIEVE WHERE search "count the orders placed in Lyon last month" K 10 LEVEL episode PICK 4 SET positive_only = true;').results[0].experience!;
    expect(pos.excluded).toContain(1);
    expect(pos.selected).toContain(2);
    expect(pos.candidates.every((c) => c.status === 'ok')).toBe(true);
    // Turn 5 belongs to episode 2, turn 6 to episode 1 (the running one).
    const cur = runText(store, 'RETRIEVE WHERE search CONTEXT "error: no such column town" K 10 LEVEL turn PICK 2 SET episode_id = 1;').results[0].experience!;
    expect(cur.selected).toEqual([5]);
    expect(cur.excluded).toEqual([6]);
    const withCur = runText(store, 'RETRIEVE WHERE search CONTEXT "error: no such column town" K 10 LEVEL turn PICK 2 SET episode_id = 1, include_current = true;').results[0].experience!;
    expect([...withCur.selected].sort()).toEqual([5, 6]);
  });

  it('is kept per tenant: one tenant\'s rewards do not move another\'s model', async () => {
    const store = await freshStore();
    const a = new Session(store, { tenant: 'A', actor: 'u', now: NOW });
    const b = new Session(store, { tenant: 'B', actor: 'u', now: NOW });
    for (const s of [a, b]) expect((await s.run(textToIr(SEED).irs)).ok).toBe(true);
    const [aFirst] = (await a.run(textToIr(ASK).irs)).results;
    const wrongA = aFirst.experience!.selected[0];
    expect((await a.run(textToIr(`PROMOTE ID ${wrongA} REWARD 0;`).irs)).ok).toBe(true);
    expect(modelText(store, 'episode', 'A')).toBeDefined();
    const [bAsk] = (await b.run(textToIr(ASK).irs)).results;
    expect(bAsk.experience!.model!.rewards).toBe(0);
    const [aAsk] = (await a.run(textToIr(ASK).irs)).results;
    expect(aAsk.experience!.model!.rewards).toBe(1);
  });

  it('undo of a reward is exact: the model is what it was before, and later rewards stay learned', async () => {
    const store = await freshStore();
    expect(runText(store, SEED).ok).toBe(true);
    runText(store, ASK);
    const before = modelText(store);
    expect(runText(store, 'PROMOTE ID 1 REWARD 0;', { now: '2025-10-21T00:01:00Z' }).ok).toBe(true);
    const afterFirst = modelText(store);
    expect(afterFirst).not.toBe(before);
    const entries = auditLog(store);
    const feedback = entries.filter((e) => e.op === 'Promote');
    const u = undo(store, feedback[0].id, { now: '2025-10-21T00:02:00Z' });
    expect(u.ok).toBe(true);
    expect(JSON.parse(String(modelText(store)))).toEqual({ ...JSON.parse(String(before)) });
    expect(rows(store).find((r) => r.id === 1)).toMatchObject({ utility: null, utility_n: 0 });
    // Two rewards, the first undone: the model equals the one that learned only the second.
    runText(store, 'PROMOTE ID 1 REWARD 0;', { now: '2025-10-21T00:03:00Z' });
    runText(store, ASK2, { now: '2025-10-21T00:04:00Z' });
    runText(store, 'PROMOTE ID 4 REWARD 1;', { now: '2025-10-21T00:05:00Z' });
    const firstOf = auditLog(store).filter((e) => e.op === 'Promote' && !e.undoneBy).at(-2)!;
    expect(undo(store, firstOf.id, { now: '2025-10-21T00:06:00Z' }).ok).toBe(true);
    const m = JSON.parse(String(modelText(store)));
    expect(m.n).toBe(1);
    expect(m.events.map((e: { id: number; r: number }) => [e.id, e.r])).toEqual([[4, 1]]);
  });

  it('a reward on a locked record is refused and teaches the model nothing', async () => {
    const store = await freshStore();
    expect(runText(store, SEED).ok).toBe(true);
    runText(store, ASK);
    const before = modelText(store);
    expect(runText(store, 'LOCK ID 1 MODE read_only;').ok).toBe(true);
    expect(runText(store, 'PROMOTE ID 1 REWARD 0;').ok).toBe(false);
    expect(modelText(store)).toBe(before);
  });
});

describe('rewards per level', () => {
  it('a turn\'s reward under EXPAND episode credits the turn only; the episode\'s terminal reward its episode only', async () => {
    const store = await freshStore();
    expect(runText(store, 'LET $e = ENCODE "count orders" LEVEL episode STATUS ok;\nENCODE "error: no such column town" LEVEL turn OF $e VALUE "town -> city" STATUS ok;').ok).toBe(true);
    const r = runText(store, 'LET $t = RETRIEVE WHERE search CONTEXT "error: no such column town" K 10 LEVEL turn EXPAND episode SET selector = "learned";\nPROMOTE IDS $t REWARD 1;');
    expect(r.ok).toBe(true);
    const m = new Map(rows(store).map((x) => [x.id, x]));
    expect([m.get(2)!.utility, m.get(2)!.utility_n]).toEqual([1, 1]);
    expect([m.get(1)!.utility, m.get(1)!.utility_n]).toEqual([null, 0]);
    expect(JSON.parse(String(modelText(store, 'turn'))).n).toBe(1);
    expect(modelText(store, 'episode')).toBeUndefined();
  });

  it('a turn\'s default reward comes from its execution status', () => {
    expect(['ok', 'empty', 'error', 'wrong'].map((s) => statusReward(s as 'ok'))).toEqual([1, 0.25, 0, 0]);
  });
});
