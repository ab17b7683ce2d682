/**
 * The playground's own runner (playground/src/run.ts `runScript` on library.ts's store), on Node:
 * every script of the examples menu, the Welcome tab, README and docs/playground.md runs in one
 * engine call — references resolve, provenance keeps each statement's index and one trace id per
 * run — with the same results and the same store as `t2m run` (the engine's `run`), and the
 * timeline's snapshots follow each other statement by statement.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { run, type Store } from '../../src/engine/index.js';
import { textToIr } from '../../src/pipeline.js';
import { playgroundStore } from '../../playground/src/library.js';
import { runScript } from '../../playground/src/run.js';
import { VERB_EXAMPLES } from '../../playground/src/welcome-examples.js';
import { examples } from '../../scripts/playground-examples.js';
import { t2mBlocks } from '../spec/blocks.js';

const ROOT = resolve(import.meta.dirname, '../..');
const NOW = new Date('2025-10-01T00:00:00Z');

/** Every script a user is shown to try, by where it is shown. */
const scripts: [string, string][] = [
  // The menu (playground/src/examples.ts): the generated examples and the typed-state file.
  ...[...examples()].map(([name, text]) => [`menu ${name}`, text] as [string, string]),
  ['menu 30-typed-state-mira', readFileSync(resolve(ROOT, 'examples/typed-state/mira.t2m'), 'utf8')],
  ...VERB_EXAMPLES.map((e) => [`welcome ${e.verb}`, e.script] as [string, string]),
  ...['README.md', 'docs/playground.md'].flatMap((file) =>
    t2mBlocks(readFileSync(resolve(ROOT, file), 'utf8'), file).filter((b) => b.expect.length === 0).map((b) => [`${file}:${b.line}`, b.source] as [string, string])),
];

const memory = (store: Store) => store.all({ sql: 'SELECT * FROM memory ORDER BY id', params: [] });
/** A row without the run's random trace id and the derived columns the page does not show. */
const comparable = ({ trace_id: _t, search_text: _s, embedding_f32: _e, ...row }: Record<string, unknown>) => row;

describe('the page\'s runner', () => {
  it('has the scripts: the menu, the Welcome tab, README (with LET)', () => {
    expect(scripts.filter(([n]) => n.startsWith('menu ')).length).toBeGreaterThanOrEqual(25);
    expect(scripts.filter(([n]) => n.startsWith('welcome ')).length).toBe(12);
    const withLet = scripts.filter(([, text]) => /\bLET\s+\$/i.test(text)).map(([n]) => n);
    expect(withLet.some((n) => n.startsWith('README.md'))).toBe(true);
    expect(withLet.some((n) => n.startsWith('menu '))).toBe(true);
  });

  it.each(scripts)('%s runs as `t2m run` runs it', async (_name, text) => {
    const engine = await createStore();
    const page = playgroundStore(engine);
    const { results, committed } = runScript(page, text, NOW);
    const refused = results.filter((r) => !r.ok).map((r) => `${r.statement + 1} ${r.op}: ${r.errors.map((e) => `${e.code} ${e.message}`).join('; ')}`);
    expect(refused).toEqual([]);
    expect(committed).toBe(true);
    const { irs, sourceMaps } = textToIr(text);
    expect(results.map((r) => r.statement)).toEqual(irs.map((_, i) => i));

    // The same ids per statement and the same store as the engine's own run of the script.
    const cli = await createStore();
    const ran = run(cli, irs, { now: NOW, sourceMaps, impersonate: true });
    expect(ran.ok).toBe(true);
    expect(results.map((r) => r.affectedIds)).toEqual(ran.results.map((r) => r.ids.map(String)));
    // The rows each statement returned, with the columns `t2m run` prints (a search's weight column
    // is the score's weight term on both: `t2m run --explain` adds it as the page does).
    expect(results.map((r) => r.rows.map((row) => Object.keys(row).filter((k) => !['score', 'bm25', 'vector', 'fused', 'context', 'weight'].includes(k)).map((k) => [k, row[k]]))))
      .toEqual(ran.results.map((r) => (r.rows ?? []).map((row) => Object.keys(row).filter((k) => k !== 'weight').map((k) => [k, row[k]]))));
    expect(results.map((r) => r.summary)).toEqual(ran.results.map((r) => r.summary));
    const rows = memory(engine);
    expect(rows.map(comparable)).toEqual(memory(cli).map(comparable));

    // The timeline: each statement starts where the one before it ended, the last ends as the store.
    for (let i = 1; i < results.length; i++) expect(results[i].before).toEqual(results[i - 1].after);
    // Each snapshot is the whole table after its statement (the page reads only what a write touched).
    const whole: Record<string, unknown>[][] = [];
    const again = await createStore();
    run(again, irs, { now: NOW, sourceMaps, impersonate: true, onStatement: () => whole.push(memory(again).map(comparable)) });
    expect(results.map((r) => r.after.map(comparable))).toEqual(whole.map((rows) => rows.map(({ search_text: _s, embedding_f32: _e, ...row }) => row)));
    again.close();
    expect(results.at(-1)!.after).toEqual(rows.map(({ search_text: _s, embedding_f32: _e, ...row }) => row));

    // Provenance: one trace id for the run; each record names the statement that wrote it.
    const traces = new Set(rows.map((r) => r.trace_id).filter((t) => t !== null));
    expect(traces.size).toBeLessThanOrEqual(1);
    for (const r of rows) {
      if (r.statement_index === null) continue;
      const writer = results[Number(r.statement_index)];
      const id = String(r.id);
      const touched = writer.diff.added.some((a) => String(a.id) === id) || writer.diff.changed.some((c) => String(c.id) === id) || writer.affectedIds.includes(id);
      expect(touched, `record #${r.id} names statement ${Number(r.statement_index) + 1} (${writer.op})`).toBe(true);
    }
    engine.close();
    cli.close();
  });

  it.each(scripts.filter(([, text]) => !/\bLET\s+\$/i.test(text)))('%s: Run statement at cursor, one statement after another, leaves the store one Run leaves', async (_name, text) => {
    const whole = await createStore();
    runScript(playgroundStore(whole), text, NOW);
    const parts = await createStore();
    const page = playgroundStore(parts);
    const { irs } = textToIr(text);
    for (let i = 0; i < irs.length; i++) {
      const { results, committed } = runScript(page, text, NOW, [i]);
      expect(committed).toBe(true);
      expect(results.map((r) => r.statement)).toEqual([i]);
    }
    // Each part is a run of its own (its trace id differs); its records name the statement's
    // index in the whole script, as the whole run's do.
    expect(memory(parts).map(comparable)).toEqual(memory(whole).map(comparable));
    whole.close();
    parts.close();
  });

  it('references: a LET bound by one statement is used by a later one, on the page as in `t2m run`', async () => {
    const page = playgroundStore(await createStore());
    const { results, committed } = runScript(page, 'LET $n = ENCODE "Book the venue" TAGS "offsite";\nENCODE "other" TAGS "offsite";\nEXPIRE ID $n TTL P30D THEN soft_delete;', NOW);
    expect(committed).toBe(true);
    expect(results.map((r) => r.affectedIds)).toEqual([['1'], ['2'], ['1']]);
    expect(results[2].diff.changed.map((c) => String(c.id))).toEqual(['1']);
  });

  it('a refused statement: the run stops there, is rolled back, and the statement shows its error', async () => {
    const engine = await createStore();
    const page = playgroundStore(engine);
    const { results, committed } = runScript(page, 'ENCODE "a";\nLET $none = RETRIEVE WHERE tags HAS "nothing";\nDELETE IDS $none SOFT;\nENCODE "never";', NOW);
    expect(committed).toBe(false);
    expect(results.map((r) => [r.statement, r.ok])).toEqual([[0, true], [1, true], [2, false]]);
    expect(results[2].errors.map((e) => [e.code, e.statement])).toEqual([['ref-empty', 2]]);
    expect(results[2].after).toEqual(results[2].before);
    expect(memory(engine)).toEqual([]);
  });
});
