/** examples/sql-agent: the seed script is the loader's output (not stale), and the play script runs on it. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { irsToText, textToIr } from '../../src/pipeline.js';
import { seedIrs, tasks, trajectories } from '../../examples/sql-agent/trajectories.js';

describe('examples/sql-agent', () => {
  it('has a few dozen trajectories, each an episode with turns, and seed.t2m is generated from them', () => {
    const list = trajectories();
    expect(list.length).toBeGreaterThanOrEqual(24);
    for (const t of list) expect(t.turns.length, t.id).toBeGreaterThan(0);
    const seed = readFileSync('examples/sql-agent/seed.t2m', 'utf8');
    expect(seed.replace(/^(#.*\n)+/, '')).toBe(irsToText(seedIrs(list)));
    const families = new Set(list.map((t) => t.family));
    const { train, heldOut } = tasks();
    for (const task of [...train, ...heldOut]) expect(families.has(task.family), task.request).toBe(true);
  });

  it('play.t2m runs after seed.t2m: a plan episode, hints per turn, feedback that moves utilities', async () => {
    const store = await createStore();
    const now = '2025-07-01T00:00:00Z';
    const seed = textToIr(readFileSync('examples/sql-agent/seed.t2m', 'utf8'));
    expect(run(store, seed.irs, { now }).ok).toBe(true);
    const play = textToIr(readFileSync('examples/sql-agent/play.t2m', 'utf8'));
    expect(play.diagnostics).toEqual([]);
    const r = run(store, play.irs, { now, sourceMaps: play.sourceMaps });
    expect(r.ok).toBe(true);
    const levelled = r.results.filter((x) => x.experience);
    expect(levelled.map((x) => x.experience!.level)).toEqual(['episode', 'turn', 'turn', 'turn', 'episode']);
    const [plan] = levelled[0].experience!.selected;
    const last = levelled[4].experience!;
    // The plan episode was rewarded 0: it now ranks below its similarity.
    const judged = last.candidates.find((c) => c.id === plan)!;
    expect([judged.utility, judged.utilityN]).toEqual([0, 1]);
    expect(judged.score!).toBeLessThan(judged.similarity);
    expect(last.selected).not.toContain(plan);
  });
});
