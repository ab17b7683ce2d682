/**
 * `npm run bench:experience`: episode selection on the sql-agent example set
 * (examples/sql-agent): similarity-only versus utility-aware selection, on held-out tasks whose
 * best experience is known (a successful episode of the task's family), before and after the
 * agent plays the training tasks with feedback. Deterministic: the hash embedder, a fixed clock,
 * fixed task order.
 *
 * The training loop is MERIT's episode level, with the engine's default selector: retrieve K = 10
 * episodes for the request, use the one selected; the task succeeds when that episode is a
 * success of the same family (the simulated outcome), and `PROMOTE ID … REWARD 1|0` records it.
 * On a failure the agent tries the next-best candidate (at most 3 tries per task), rewarding
 * each attempt.
 */
import { createStore, run, textToIr, type Store } from '../src/index.js';
import { seedIrs, tasks, trajectories, type Task, type Trajectory } from '../examples/sql-agent/trajectories.js';

const NOW = '2025-07-01T00:00:00Z';

function runText(store: Store, text: string) {
  const { irs, diagnostics } = textToIr(text);
  if (diagnostics.some((d) => d.severity === 'error')) throw new Error(diagnostics.map((d) => d.message).join('; '));
  const r = run(store, irs, { now: NOW });
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
  return r;
}

interface Ranked { readonly selected: number | undefined; readonly byScore: number[] }

function retrieve(store: Store, request: string, selector: 'utility' | 'similarity'): Ranked {
  const sel = selector === 'similarity' ? ' SET selector = "similarity"' : '';
  const r = runText(store, `RETRIEVE WHERE search ${JSON.stringify(request)} K 10 LEVEL episode${sel} INCLUDE id;`);
  const e = r.results[0].experience!;
  const byScore = [...e.candidates].sort((a, b) => (b.score ?? b.similarity) - (a.score ?? a.similarity) || a.id - b.id).map((c) => c.id);
  return { selected: e.selected[0], byScore };
}

async function main(): Promise<void> {
  const list = trajectories();
  const { train, heldOut } = tasks();
  {
    const store = await createStore();
    const seeded = run(store, seedIrs(list), { now: NOW });
    if (!seeded.ok) throw new Error(seeded.diagnostics.map((d) => d.message).join('; '));
    // Record id → trajectory: each episode's facets name its trajectory.
    const byId = new Map<number, Trajectory>();
    const episodes = store.all({ sql: "SELECT id, facets FROM memory WHERE level = 'episode'", params: [] });
    const byTrajectory = new Map(list.map((t) => [t.id, t]));
    for (const row of episodes) byId.set(Number(row.id), byTrajectory.get(JSON.parse(String(row.facets)).trajectory)!);
    const good = (id: number | undefined, task: Task) => {
      const t = id === undefined ? undefined : byId.get(id);
      return t !== undefined && t.family === task.family && t.outcome === 'success';
    };
    const accuracy = (selector: 'utility' | 'similarity') => heldOut.filter((task) => good(retrieve(store, task.request, selector).selected, task)).length;

    const before = { similarity: accuracy('similarity'), utility: accuracy('utility') };
    let attempts = 0;
    let rewards = 0;
    for (const task of train) {
      const { byScore } = retrieve(store, task.request, 'utility');
      for (const id of byScore.slice(0, 3)) {
        attempts++;
        const success = good(id, task);
        runText(store, `PROMOTE ID ${id} REWARD ${success ? 1 : 0};`);
        rewards++;
        if (success) break;
      }
    }
    const after = { similarity: accuracy('similarity'), utility: accuracy('utility') };
    const n = heldOut.length;
    const pct = (x: number) => `${x}/${n} (${Math.round((100 * x) / n)}%)`;
    console.log(`experience set: ${list.length} episodes (${list.filter((t) => t.outcome === 'success').length} successful), ${list.reduce((s, t) => s + t.turns.length, 0)} turns; ${train.length} training tasks, ${n} held-out tasks`);
    console.log(`training: ${attempts} attempts, ${rewards} rewards recorded (PROMOTE … REWARD)`);
    console.log('| selection | before feedback | after feedback |');
    console.log('| --- | --- | --- |');
    console.log(`| similarity only | ${pct(before.similarity)} | ${pct(after.similarity)} |`);
    console.log(`| similarity + utility (default) | ${pct(before.utility)} | ${pct(after.utility)} |`);
    console.log(`held-out selection accuracy: similarity-only ${pct(before.similarity)} before, ${pct(after.similarity)} after feedback; utility-aware ${pct(before.utility)} before, ${pct(after.utility)} after feedback`);
  }
}

await main();
