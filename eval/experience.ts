/**
 * `npm run bench:experience`: experience memory on a small real text-to-SQL environment
 * (eval/sql-env/env.ts). A scripted agent answers each request by retrieving an episode by the
 * request (`LEVEL episode`), adapting its final query's literals to the request, executing it on
 * the shop database, and on an error retrieving a turn by the error state (`LEVEL turn`) and
 * applying its fix (at most twice). Its reward is whether the executed result equals the gold
 * result — never a stored label. While learning, the episode gets that terminal reward and each
 * turn the reward of its execution status (dense, per level: neither credits the other).
 *
 * Families are split: the agent learns on the requests of seven families and is tested on two
 * further requests of each of those ("seen") and on every request of the other seven ("unseen"),
 * whose experiences are in memory but were never rewarded. Three selectors, each on its own
 * store: `similarity` (the candidate stage's order), `utility` (the fixed formula: similarity +
 * per-memory utility) and `learned` (the contextual bandit of src/experience/learner.ts, whose
 * features carry over between memories). Deterministic: seeded data, the local embedder, a
 * fixed clock.
 *
 *   npx tsx eval/experience.ts            the report
 *   npx tsx eval/experience.ts --json     {"unseen": {n, similarity, item_utility, learned}, "seen": {…}}
 *   npx tsx eval/experience.ts --write    regenerates docs/performance.md and examples/sql-agent/README.md
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Database } from 'sql.js';
import { createStore, run, textToIr, type Store } from '../src/index.js';
import { loadSqlJs } from '../src/dialect/sqlite/store.js';
import { statusReward, type TurnScorer } from '../src/experience/experience.js';
import {
  FAMILIES, MIGRATION, PAST_TURNS, adapt, buildDb, execute, legacySql, literals, pastEpisodes, requests, type Request,
} from './sql-env/env.js';

export type Mode = 'similarity' | 'utility' | 'learned';
export const MODES: readonly Mode[] = ['similarity', 'utility', 'learned'];
const EPOCHS = 2;
const MAX_FIXES = 2;

export interface BenchResult {
  readonly unseen: { n: number; similarity: number; item_utility: number; learned: number };
  readonly seen: { n: number; similarity: number; item_utility: number; learned: number };
  readonly sizes: { requests: number; families: number; episodes: number; turns: number; learning: number; okEpisodes: number };
}

class Clock {
  private t = Date.parse('2025-06-01T00:00:00Z');
  next(): string { this.t += 60_000; return new Date(this.t).toISOString().replace('.000Z', 'Z'); }
}

function runText(store: Store, text: string, now: string) {
  const { irs, diagnostics } = textToIr(text);
  if (diagnostics.some((d) => d.severity === 'error')) throw new Error(`${text}: ${diagnostics.map((d) => d.message).join('; ')}`);
  const r = run(store, irs, { now });
  if (!r.ok) throw new Error(`${text}: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  return r;
}

const status = (o: ReturnType<typeof execute>) => (!o.ok ? 'error' : o.rows === '[]' ? 'empty' : 'ok');

/** The experience set, each past query's status found by executing it on the database of its time. */
async function experienceSet() {
  const SQL = await loadSqlJs();
  const db = buildDb(SQL);
  const legacyDb = buildDb(SQL, true);
  const episodes = pastEpisodes().map((e) => {
    const fam = FAMILIES.find((f) => f.name === e.family)!;
    const onDb = e.legacy ? legacyDb : db;
    const goldSql = fam.gold(literals(e.request)[0]);
    const out = execute(onDb, e.sql);
    const gold = execute(onDb, e.legacy ? legacySql(goldSql) : goldSql);
    const st = !out.ok ? 'error' : out.rows === '[]' ? 'empty' : gold.ok && out.rows === gold.rows ? 'ok' : 'wrong';
    return { ...e, status: st };
  });
  return { db, episodes };
}

async function seed(store: Store, episodes: Awaited<ReturnType<typeof experienceSet>>['episodes']): Promise<void> {
  const ids: number[] = [];
  for (const e of episodes) {
    // The key is the request; the value (the final query) is returned, never searched.
    const r = runText(store, `ENCODE ${JSON.stringify(e.request)} LEVEL episode VALUE ${JSON.stringify(JSON.stringify({ sql: e.sql }))} STATUS ${e.status} TAGS "sql-agent";`, e.at);
    ids.push(r.results[0].ids[0]);
  }
  // Each turn belongs to a past episode that met the error after the migration.
  const legacy = episodes.map((e, i) => ({ e, id: ids[i] })).filter((x) => x.e.legacy);
  PAST_TURNS.forEach((t, k) => {
    const owner = legacy[k % legacy.length].id;
    const at = new Date(Date.parse(MIGRATION) + (k + 1) * 86_400_000).toISOString().replace('.000Z', 'Z');
    runText(store, `ENCODE ${JSON.stringify(t.state)} LEVEL turn OF ${owner} VALUE ${JSON.stringify(JSON.stringify(t.fix))} STATUS ${t.status} TAGS "sql-agent";`, at);
  });
}

function valueOf(row: Record<string, unknown> | undefined): Record<string, string> | undefined {
  const f = row?.facets as Record<string, unknown> | undefined;
  const v = f?.value;
  return typeof v === 'string' ? JSON.parse(v) : undefined;
}

/** One request, played by the agent; returns whether the executed result equals the gold result. */
function play(store: Store, db: Database, clock: Clock, q: Request, mode: Mode, learn: boolean, scorer: TurnScorer): boolean {
  const gold = execute(db, FAMILIES.find((f) => f.name === q.family)!.gold(q.literal));
  const sel = `SET selector = "${mode}"`;
  const ep = runText(store, `RETRIEVE WHERE search ${JSON.stringify(q.text)} K 10 LEVEL episode PICK 1 ${sel} INCLUDE id, text, facets;`, clock.next()).results[0];
  const row = ep.rows?.[0] as Record<string, unknown> | undefined;
  const value = valueOf(row);
  if (!row || !value) return false;
  let sql = adapt(value.sql, literals(String(row.text)), literals(q.text));
  let out = execute(db, sql);
  for (let fix = 0; !out.ok && fix < MAX_FIXES; fix++) {
    const state = `error: ${out.error}`;
    const t = runText(store, `RETRIEVE WHERE search CONTEXT ${JSON.stringify(state)} K 10 LEVEL turn PICK 1 ${sel} INCLUDE id, facets;`, clock.next()).results[0];
    const turn = t.rows?.[0] as Record<string, unknown> | undefined;
    const f = valueOf(turn);
    if (!turn || !f) break;
    sql = sql.split(f.replace).join(f.with);
    out = execute(db, sql);
    // The turn's dense reward: its scorer's (by default the status of executing its fix), not the episode's outcome.
    if (learn) runText(store, `PROMOTE ID ${Number(turn.id)} REWARD ${scorer({ state, memory: f, status: status(out), observation: out.ok ? out.rows : out.error })};`, clock.next());
  }
  const solved = out.ok && gold.ok && out.rows === gold.rows;
  if (learn) runText(store, `PROMOTE ID ${Number(row.id)} REWARD ${solved ? 1 : 0};`, clock.next());
  return solved;
}

/** `turnScorer`: a rubric scorer (process reward model) for the turns' rewards; the status reward by default. */
export async function runExperienceBench(options: { readonly turnScorer?: TurnScorer } = {}): Promise<BenchResult> {
  const scorer: TurnScorer = options.turnScorer ?? ((t) => statusReward(t.status));
  const { db, episodes } = await experienceSet();
  const all = requests();
  const seenFamilies = new Set(FAMILIES.filter((_, i) => i % 2 === 0).map((f) => f.name));
  const seenReqs = all.filter((q) => seenFamilies.has(q.family));
  const learning = seenReqs.filter((_, i) => i % 6 < 4);
  const seenTest = seenReqs.filter((_, i) => i % 6 >= 4);
  const unseenTest = all.filter((q) => !seenFamilies.has(q.family));
  const score: Record<Mode, { seen: number; unseen: number }> = { similarity: { seen: 0, unseen: 0 }, utility: { seen: 0, unseen: 0 }, learned: { seen: 0, unseen: 0 } };
  for (const mode of MODES) {
    const store = await createStore();
    await seed(store, episodes);
    const clock = new Clock();
    for (let epoch = 0; epoch < EPOCHS; epoch++) for (const q of learning) play(store, db, clock, q, mode, true, scorer);
    score[mode].seen = seenTest.filter((q) => play(store, db, clock, q, mode, false, scorer)).length;
    score[mode].unseen = unseenTest.filter((q) => play(store, db, clock, q, mode, false, scorer)).length;
  }
  return {
    unseen: { n: unseenTest.length, similarity: score.similarity.unseen, item_utility: score.utility.unseen, learned: score.learned.unseen },
    seen: { n: seenTest.length, similarity: score.similarity.seen, item_utility: score.utility.seen, learned: score.learned.seen },
    sizes: { requests: all.length, families: FAMILIES.length, episodes: episodes.length, turns: PAST_TURNS.length, learning: learning.length, okEpisodes: episodes.filter((e) => e.status === 'ok').length },
  };
}

const pct = (x: number, n: number) => `${x}/${n} (${Math.round((100 * x) / n)}%)`;

/** The report block both documents carry (regenerated by `--write`, checked by test/experience/bench.test.ts). */
export function reportBlock(r: BenchResult): string {
  return [
    `Shop database: 400 customers, 60 products, 2,000 orders; ${r.sizes.requests} requests in ${r.sizes.families} families; experience set of ${r.sizes.episodes} past episodes (${r.sizes.okEpisodes} with status ok) and ${r.sizes.turns} turns. Learning: ${EPOCHS} passes over ${r.sizes.learning} requests of 7 families; tested after learning, without rewards, on held-out requests of those families (seen) and on every request of the other 7 (unseen). Solved = the executed result equals the gold result.`,
    '',
    '| selector | seen | unseen |',
    '| --- | --- | --- |',
    `| similarity only | ${pct(r.seen.similarity, r.seen.n)} | ${pct(r.unseen.similarity, r.unseen.n)} |`,
    `| fixed formula (per-memory utility) | ${pct(r.seen.item_utility, r.seen.n)} | ${pct(r.unseen.item_utility, r.unseen.n)} |`,
    `| learned (contextual bandit over features) | ${pct(r.seen.learned, r.seen.n)} | ${pct(r.unseen.learned, r.unseen.n)} |`,
  ].join('\n');
}

export const BEGIN = '<!-- bench:experience -->';
export const END = '<!-- /bench:experience -->';
export const DOCS = ['docs/performance.md', 'examples/sql-agent/README.md'];

/** `text` with its generated block replaced by `block`. */
export function withBlock(text: string, block: string): string {
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`no ${BEGIN} … ${END} block`);
  return `${text.slice(0, a + BEGIN.length)}\n${block}\n${text.slice(b)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runExperienceBench();
  if (process.argv.includes('--json')) console.log(JSON.stringify({ unseen: r.unseen, seen: r.seen }));
  else console.log(reportBlock(r));
  if (process.argv.includes('--write')) for (const f of DOCS) writeFileSync(f, withBlock(readFileSync(f, 'utf8'), reportBlock(r)));
}
