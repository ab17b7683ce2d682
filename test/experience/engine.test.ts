/** Experience memory in the engine: levels, two-stage retrieval with pluggable selectors, utility feedback (spec/semantics.md#experience-memory). */
import { describe, expect, it } from 'vitest';
import { auditLog, run, undo, type RunOptions, type Selector, type Store } from '../../src/engine/index.js';
import { textToIr } from '../../src/pipeline.js';
import { freshStore, NOW, rows } from '../engine/harness.js';

function runText(store: Store, text: string, options: RunOptions = {}) {
  const { irs, sourceMaps, diagnostics } = textToIr(text);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return run(store, irs, { now: NOW, sourceMaps, ...options });
}
const byId = (store: Store) => new Map(rows(store).map((r) => [r.id, r]));

describe('levels as data', () => {
  it('ENCODE stores the level and a turn\'s episode (OF $e)', async () => {
    const store = await freshStore();
    const r = runText(store, 'LET $e = ENCODE "task: count orders" LEVEL episode;\nENCODE "state: start; action: list tables" LEVEL turn OF $e;\nENCODE "plain note";');
    expect(r.ok).toBe(true);
    const m = byId(store);
    expect([m.get(1)!.level, m.get(1)!.episode_id, m.get(1)!.utility_n]).toEqual(['episode', null, 0]);
    expect([m.get(2)!.level, m.get(2)!.episode_id]).toEqual(['turn', 1]);
    expect([m.get(3)!.level, m.get(3)!.episode_id]).toEqual([null, null]);
  });

  it('OF naming a record that is not a live episode refuses the script, which changes nothing', async () => {
    const store = await freshStore();
    expect(runText(store, 'ENCODE "a note";').ok).toBe(true);
    const r = runText(store, 'ENCODE "t1" LEVEL turn OF 1;');
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['episode-not-found']);
    expect(r.diagnostics[0].range).toBeDefined();
    const missing = runText(store, 'ENCODE "t2" LEVEL turn OF 9;');
    expect(missing.diagnostics.map((d) => d.code)).toEqual(['episode-not-found']);
    expect(rows(store).length).toBe(1);
  });

  it('OF naming a record the writer may not read is "not found", whatever its level (nothing about it is revealed)', async () => {
    const store = await freshStore();
    expect(runText(store, 'ENCODE "ann\'s plan" LEVEL episode SET read_perm_level = "private";', { actor: 'ann' }).ok).toBe(true);
    expect(runText(store, 'ENCODE "ann\'s note" SET read_perm_level = "private";', { actor: 'ann' }).ok).toBe(true);
    const episode = runText(store, 'ENCODE "t1" LEVEL turn OF 1;', { actor: 'bob' });
    const note = runText(store, 'ENCODE "t2" LEVEL turn OF 2;', { actor: 'bob' });
    expect([episode.ok, note.ok]).toEqual([false, false]);
    // The same message shape for an episode and a plain note: no level leaks.
    expect(episode.diagnostics[0].message.replaceAll('#1', '#n')).toBe(note.diagnostics[0].message.replaceAll('#2', '#n'));
    expect(runText(store, 'ENCODE "t3" LEVEL turn OF 1;', { actor: 'ann' }).ok).toBe(true);
  });

  it('SPLIT … LEVEL turn makes the pieces turns of the source, which stays as their episode', async () => {
    const store = await freshStore();
    const r = runText(store, 'LET $e = ENCODE "Request: top customers.\\n\\nState: start. Action: list tables.\\n\\nState: got customers. Action: join orders." LEVEL episode;\nLET $t = SPLIT ID $e STRATEGY custom LEVEL turn;\nRETRIEVE IDS $t INCLUDE id, text;');
    expect(r.ok).toBe(true);
    const m = byId(store);
    expect(m.get(1)!.deleted).toBe(0);
    const pieces = [2, 3, 4].map((id) => m.get(id)!);
    expect(pieces.map((p) => [p.level, p.episode_id])).toEqual([['turn', 1], ['turn', 1], ['turn', 1]]);
    expect(m.get(1)!.level).toBe('episode');
  });
});

const SEED = [
  'LET $a = ENCODE "request: monthly revenue by region from sales" LEVEL episode;',
  'ENCODE "state: error no such column amt; action: inspect schema of sales" LEVEL turn OF $a;',
  'LET $b = ENCODE "request: revenue by region per month" LEVEL episode;',
  'ENCODE "state: error no such column region; action: join regions table" LEVEL turn OF $b;',
  'ENCODE "an unrelated note about revenue by region" TAGS "note";',
].join('\n');

describe('two-stage retrieval', () => {
  it('LEVEL episode: candidates are only episodes (at most K), the selector keeps PICK, and says why', async () => {
    const store = await freshStore();
    expect(runText(store, SEED).ok).toBe(true);
    const r = runText(store, 'RETRIEVE WHERE search "revenue by region per month" K 10 LEVEL episode INCLUDE id, text;');
    expect(r.ok).toBe(true);
    const res = r.results[0];
    const e = res.experience!;
    expect(e.level).toBe('episode');
    expect(e.selector).toBe('utility');
    expect(e.candidates.map((c) => c.id).sort()).toEqual([1, 3]);
    expect(e.selected).toEqual([3]);
    expect(res.ids).toEqual([3]);
    expect(res.rows).toEqual([{ id: 3, text: 'request: revenue by region per month' }]);
    expect(e.why[3]).toMatch(/^score [\d.]+ = similarity [\d.]+ \+ 1·0·\(utility 0\.5 − 0\.5\) from 0 outcomes; rank 1 of 2$/);
  });

  it('LEVEL turn searches by the state (CONTEXT) and EXPAND episode adds the kept turn\'s episode', async () => {
    const store = await freshStore();
    expect(runText(store, SEED).ok).toBe(true);
    const r = runText(store, 'RETRIEVE WHERE search CONTEXT "error no such column amt" LEVEL turn EXPAND episode INCLUDE id, level;');
    expect(r.ok).toBe(true);
    const res = r.results[0];
    expect(res.experience!.query).toBe('error no such column amt');
    expect(res.experience!.candidates.map((c) => c.id).sort()).toEqual([2, 4]);
    expect(res.experience!.selected).toEqual([2]);
    expect(res.experience!.expanded).toEqual({ 2: 1 });
    // The episode is shown, but the statement's ids (what LET binds and a REWARD credits) are the kept turn's.
    expect(res.rows!.map((row) => row.id)).toEqual([2, 1]);
    expect(res.ids).toEqual([2]);
  });

  it('RunOptions.selector replaces the default; SET selector = "similarity" keeps the static ranking', async () => {
    const store = await freshStore();
    expect(runText(store, SEED).ok).toBe(true);
    const seen: number[][] = [];
    const last: Selector = (input) => {
      seen.push(input.candidates.map((c) => c.id));
      const worst = input.candidates[input.candidates.length - 1];
      return { ids: [worst.id], why: 'the least similar, on purpose' };
    };
    const r = runText(store, 'RETRIEVE WHERE search "revenue by region per month" LEVEL episode;', { selector: last });
    expect(r.results[0].experience!.selector).toBe('caller');
    expect(r.results[0].experience!.selected).toEqual([1]);
    expect(r.results[0].experience!.why).toEqual({ 1: 'the least similar, on purpose' });
    expect(seen).toEqual([[3, 1]]);
    const s = runText(store, 'RETRIEVE WHERE search "revenue by region per month" LEVEL episode SET selector = "similarity";', { selector: last });
    expect(s.results[0].experience!.selected).toEqual([3]);
  });

  it('a selector choosing a record that is not a candidate refuses the statement (selector-invalid); one that throws too', async () => {
    const store = await freshStore();
    expect(runText(store, SEED).ok).toBe(true);
    const stray = runText(store, 'RETRIEVE WHERE search "revenue" LEVEL episode;', { selector: () => ({ ids: [5] }) });
    expect(stray.ok).toBe(false);
    expect(stray.diagnostics.map((d) => d.code)).toEqual(['selector-invalid']);
    const boom = runText(store, 'RETRIEVE WHERE search "revenue" LEVEL episode;', { selector: () => { throw new Error('model offline'); } });
    expect(boom.diagnostics.map((d) => [d.code, d.message])).toEqual([['selector-invalid', 'the selector failed: model offline']]);
  });
});

describe('utility feedback', () => {
  it('PROMOTE … REWARD moves the utility by a running mean, leaves the weight, is audited, and undo takes it back', async () => {
    const store = await freshStore();
    expect(runText(store, SEED).ok).toBe(true);
    for (const reward of ['1', '0', '1']) expect(runText(store, `PROMOTE ID 1 REWARD ${reward};`).ok).toBe(true);
    let m = byId(store).get(1)!;
    expect([m.utility, m.utility_n, m.weight]).toEqual([0.666667, 3, null]);
    const entries = auditLog(store).filter((e) => e.op === 'Promote');
    expect(entries.length).toBe(3);
    expect(entries[2].before).toEqual({ 1: { utility: 0.5, utility_n: 2 } });
    expect(entries[2].after).toEqual({ 1: { utility: 0.666667, utility_n: 3 } });
    // Undo the middle one (the failure): the mean of the other two rewards remains.
    const u = undo(store, entries[1].id, { now: NOW });
    expect(u.ok).toBe(true);
    m = byId(store).get(1)!;
    expect([m.utility, m.utility_n]).toEqual([1, 2]);
  });

  it('simulation: after repeated feedback the default selector prefers what led to success over what is merely more similar', async () => {
    const store = await freshStore();
    expect(runText(store, SEED).ok).toBe(true);
    const ask = (selector?: 'similarity') => runText(store, `RETRIEVE WHERE search "revenue by region per month" K 10 LEVEL episode${selector ? ' SET selector = "similarity"' : ''};`).results[0].experience!;
    // Episode 3 is the more similar one; before any feedback both selectors pick it.
    expect(ask().selected).toEqual([3]);
    // The agent follows each selection; using #3 keeps failing, #1 (tried when #3 failed) succeeds.
    for (let round = 0; round < 6; round++) {
      const picked = ask().selected[0];
      const success = picked === 1;
      expect(runText(store, `PROMOTE ID ${picked} REWARD ${success ? 1 : 0};`).ok).toBe(true);
      if (!success) expect(runText(store, 'PROMOTE ID 1 REWARD 1;').ok).toBe(true);
    }
    const after = ask();
    expect(after.selected).toEqual([1]);
    const sim = Object.fromEntries(after.candidates.map((c) => [c.id, c.similarity]));
    expect(sim[3]).toBeGreaterThan(sim[1]);
    expect(ask('similarity').selected).toEqual([3]);
  });

  it('REWARD on a locked record is refused like any write', async () => {
    const store = await freshStore();
    expect(runText(store, 'ENCODE "task" LEVEL episode;\nLOCK ID 1 MODE read_only;').ok).toBe(true);
    const r = runText(store, 'PROMOTE ID 1 REWARD 1;');
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['record-locked']);
  });
});
