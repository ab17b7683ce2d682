/**
 * Experience memory (spec/semantics.md#experience-memory), after MERIT: records at two levels —
 * an episode (a whole past task) and its turns (state → action → observation) — retrieved in two
 * stages (the engine's search proposes K candidates of the level, a `Selector` keeps at most
 * `pick`), and a utility per record learned from outcomes (`PROMOTE … REWARD r`).
 *
 * The execute side of the feature lives here; the verbs (src/execute/verbs/) call in at four points (Encode's
 * episode check, Split's turn pieces, Promote's reward, Retrieve's selection).
 */
import type { Dialect, SqlStatement } from '../store/dialect.js';
import { compileTargetSelect } from '../compile/index.js';
import type { Code } from '../diagnostics/codes.js';
import type { ExperienceRetrieval, Level, RetrieveOp } from '../lower/operation.js';
import type { Io, Row } from '../retrieve/seam.js';
import {
  DEFAULT_THRESHOLD, EXPLORATION, applyReward, features, loadModel, modelWrite, namedWeights, predict, weights,
  type ExecStatus, type FeatureName, type Model,
} from './learner.js';

export { FEATURES, EXPLORATION, DEFAULT_THRESHOLD, RIDGE, type ExecStatus, type FeatureName } from './learner.js';

/** The statement an experience stage works in, as it sees it (the engine's Execution, src/execute/execution.ts). */
export interface ExperienceContext {
  readonly store: { readonly dialect: Dialect };
  readonly op: { readonly tenant: string; readonly now: string; readonly actor?: string };
  /** Runs a statement (recorded in the statement's SQL log) and returns decoded rows. */
  query(stmt: SqlStatement): Io<Row[]>;
  /** Refuses the statement; returns false. */
  refuse(code: Code, message: string, path?: string): false;
  warn(code: Code, message: string, path?: string): void;
}

/** The utility a record has before any feedback (a reward of 0.5: neither success nor failure). */
export const UTILITY_PRIOR = 0.5;
/** How much learned utility counts against similarity in the default selector (λ). */
export const UTILITY_WEIGHT = 1;
/** Feedback count at which the utility is trusted half (κ): confidence = n / (n + κ). */
export const UTILITY_CONFIDENCE_HALF = 1;

/** One candidate of the candidate stage, as a selector sees it. */
export interface Candidate {
  readonly id: number;
  readonly text: string;
  readonly level: Level;
  /** A turn's episode. */
  readonly episodeId: number | null;
  /** The search's relevance score (keyword overlap and embedding cosine, mixed by ALPHA). */
  readonly similarity: number;
  /** The learned utility (a running mean of rewards), null before any feedback. */
  readonly utility: number | null;
  /** How many rewards the utility averages. */
  readonly utilityN: number;
  /** The execution status it was stored with (`STATUS`), null when none. */
  readonly status?: ExecStatus | null;
  /** The stored value (`VALUE`): returned, never searched. */
  readonly value?: unknown;
  /** When it was written. */
  readonly createdAt?: string | null;
  /** Whether it is (a turn of) the running episode (`OF` on the retrieval). */
  readonly fromCurrent?: boolean;
  /** The learned selector's features (FEATURES order). */
  readonly features?: readonly number[];
}

export interface SelectorInput {
  readonly level: Level;
  /** The text candidates were ranked against: the request (episode) or the state (turn). */
  readonly query: string;
  /** The candidates, best similarity first. */
  readonly candidates: readonly Candidate[];
  /** Keep at most this many (0: the statement asks for none). */
  readonly pick: number;
  /** A candidate whose expected value is below it is not kept (the learned selector's threshold). */
  readonly threshold?: number;
}

export interface SelectorChoice {
  /** The kept candidates' ids, best first (at most `pick`, each one of the candidates). */
  readonly ids: readonly number[];
  /** Why each was kept (by id), or one reason for the choice. */
  readonly why?: string | Readonly<Record<number, string>>;
  /** A score per candidate, when the selector has one (shown with the candidates). */
  readonly scores?: Readonly<Record<number, number>>;
}

/** The second stage of `RETRIEVE … LEVEL`: keeps at most `pick` of the candidates. */
export type Selector = (input: SelectorInput) => SelectorChoice;

/** A candidate in a statement's result: what the candidate stage found and how it scored. */
export interface CandidateReport {
  readonly id: number;
  readonly similarity: number;
  readonly utility: number | null;
  readonly utilityN: number;
  /** The selector's score, when it gives one. */
  readonly score?: number;
  readonly status?: ExecStatus | null;
}

/** What `RETRIEVE … LEVEL` reports beside its rows. */
export interface ExperienceReport {
  readonly level: Level;
  readonly query: string;
  /** `utility`, `similarity`, or `caller` (RunOptions.selector). */
  readonly selector: string;
  readonly candidates: readonly CandidateReport[];
  readonly selected: readonly number[];
  readonly why: Readonly<Record<number, string>>;
  /** EXPAND episode: each selected turn's episode. */
  readonly expanded?: Readonly<Record<number, number>>;
  /** The learned selector's weights by feature, and how many rewards they were learned from. */
  readonly model?: { readonly weights: Readonly<Record<FeatureName, number>>; readonly rewards: number };
  /** Candidates left out before selection: the running episode's, or (positive_only) those not `ok`. */
  readonly excluded?: readonly number[];
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** confidence(n) = n / (n + κ): 0 before feedback, ½ after κ rewards, → 1. */
export function confidence(n: number): number {
  return n <= 0 ? 0 : n / (n + UTILITY_CONFIDENCE_HALF);
}

/**
 * The default selector's score: similarity + λ · confidence(n) · (utility − prior). Before any
 * feedback it is the similarity; memories that led to success rise, failures sink, and the
 * more outcomes were seen the more they count.
 */
export function utilityScore(c: Candidate): number {
  const u = c.utility ?? UTILITY_PRIOR;
  return c.similarity + UTILITY_WEIGHT * confidence(c.utilityN) * (u - UTILITY_PRIOR);
}

function ranked(input: SelectorInput, score: (c: Candidate) => number, explain: (c: Candidate, s: number) => string): SelectorChoice {
  const scored = input.candidates.map((c) => ({ c, s: score(c) })).sort((a, b) => b.s - a.s || b.c.similarity - a.c.similarity || a.c.id - b.c.id);
  const kept = scored.slice(0, input.pick);
  return {
    ids: kept.map((x) => x.c.id),
    scores: Object.fromEntries(scored.map((x) => [x.c.id, round(x.s)])),
    why: Object.fromEntries(kept.map((x, i) => [x.c.id, `${explain(x.c, x.s)}; rank ${i + 1} of ${scored.length}`])),
  };
}

/** Similarity plus learned utility (`utilityScore`); the default. */
export const utilitySelector: Selector = (input) => ranked(input, utilityScore, (c, s) => {
  const u = c.utility ?? UTILITY_PRIOR;
  return `score ${round(s)} = similarity ${round(c.similarity)} + ${UTILITY_WEIGHT}·${round(confidence(c.utilityN))}·(utility ${round(u)} − ${UTILITY_PRIOR}) from ${c.utilityN} outcome${c.utilityN === 1 ? '' : 's'}`;
});

/** Similarity only (the candidate stage's order): a static retriever, for comparison. */
export const similaritySelector: Selector = (input) => ranked(input, (c) => c.similarity, (c) => `similarity ${round(c.similarity)}`);

/**
 * The learned selector over a model (learner.ts): ranks by expected reward plus the exploration
 * bonus, keeps only candidates whose expected reward reaches the threshold (so it may keep none).
 */
export function learnedSelector(model: Model): Selector {
  const theta = weights(model);
  return (input) => {
    const threshold = input.threshold ?? DEFAULT_THRESHOLD;
    const scored = input.candidates.map((c) => {
      const p = predict(model, theta, c.features ?? features({ ...c, status: c.status ?? null, ageDays: 0, fromCurrent: c.fromCurrent ?? false }));
      return { c, mean: p.mean, s: p.mean + EXPLORATION * p.width };
    }).sort((a, b) => b.s - a.s || b.c.similarity - a.c.similarity || a.c.id - b.c.id);
    const kept = scored.filter((x) => x.mean >= threshold).slice(0, input.pick);
    return {
      ids: kept.map((x) => x.c.id),
      scores: Object.fromEntries(scored.map((x) => [x.c.id, round(x.s)])),
      why: Object.fromEntries(kept.map((x, i) => [x.c.id, `expected reward ${round(x.mean)} (≥ threshold ${threshold}) + exploration ${round(x.s - x.mean)}; rank ${i + 1} of ${scored.length}; learned from ${model.n} reward${model.n === 1 ? '' : 's'}`])),
    };
  };
}

export const BUILTIN_SELECTORS: Readonly<Record<Exclude<ExperienceRetrieval['selector'], 'learned'>, Selector>> = {
  utility: utilitySelector,
  similarity: similaritySelector,
};

/** The reward a turn earns from its execution status when no rubric scorer is given (the dense default). */
export function statusReward(status: ExecStatus): number {
  return status === 'ok' ? 1 : status === 'empty' ? 0.25 : 0;
}

/** A process reward model: scores a turn's use of a memory (state, the memory's value, what happened) in [0, 1]. */
export type TurnScorer = (input: { readonly state: string; readonly memory: unknown; readonly status: ExecStatus; readonly observation?: string }) => number;

/**
 * The utility update for one reward r ∈ [0, 1]: a running mean, n' = n + 1, u' = u + (r − u)/n'
 * (the first reward sets u). An outcome of a stored experience does not drift over time the way
 * a user's interest does, so every outcome counts the same, and the count is what the selector's
 * confidence reads.
 */
export function feedbackValues(row: Row, reward: number): { utility: number; utility_n: number } {
  const n = typeof row.utility_n === 'number' ? row.utility_n : 0;
  const u = typeof row.utility === 'number' ? row.utility : UTILITY_PRIOR;
  const next = n + 1;
  return { utility: Math.round((n === 0 ? reward : u + (reward - u) / next) * 1e6) / 1e6, utility_n: next };
}

/**
 * Takes one reward r back out of the running mean (undo of a feedback entry): n' = n − 1,
 * u' = (u·n − r)/n' (no utility when n' = 0). Feedback given since then stays counted.
 */
export function withoutFeedback(row: Readonly<Record<string, unknown>>, reward: number): { utility: number | null; utility_n: number } | undefined {
  const n = typeof row.utility_n === 'number' ? row.utility_n : 0;
  const u = typeof row.utility === 'number' ? row.utility : undefined;
  if (n < 1 || u === undefined) return undefined;
  const prev = n - 1;
  return { utility: prev === 0 ? null : Math.round(Math.min(1, Math.max(0, (u * n - reward) / prev)) * 1e6) / 1e6, utility_n: prev };
}

/**
 * A turn's episode must be a live episode record the writer may read: refuses the statement
 * otherwise (an unreadable record is "not found", so the refusal reveals nothing about it).
 */
export function* checkEpisode(x: ExperienceContext, episodeId: number): Io<boolean> {
  const [row] = yield* x.query(compileTargetSelect({ ids: [episodeId], all: false, orderBy: 'time_desc' }, x.store.dialect, { tenant: x.op.tenant, now: x.op.now, applyReadPermissions: true, readerActor: x.op.actor ?? null }));
  if (!row) return x.refuse('episode-not-found', `OF #${episodeId}: there is no live record #${episodeId} you may read (deleted, expired, private or never written)`, 'args.episode_id');
  if (row.level !== 'episode') return x.refuse('episode-not-found', `OF #${episodeId}: record #${episodeId} is not an episode (its level is ${row.level === null || row.level === undefined ? 'none' : `'${String(row.level)}'`}); encode it with LEVEL episode`, 'args.episode_id');
  return true;
}

/** The columns a SPLIT … LEVEL turn gives each piece of `source`. */
export function turnPiece(source: Row): { level: 'turn'; episode_id: number } {
  return { level: 'turn', episode_id: source.id };
}

/** What SPLIT … LEVEL turn changes on its source: it is (now) an episode. */
export function episodeSource(source: Row): { level?: 'episode' } {
  return source.level === 'episode' ? {} : { level: 'episode' };
}

const STATUSES: readonly string[] = ['ok', 'error', 'empty', 'wrong'];

/** A record's facet, when its facets are an object. */
function facet(row: Row, key: string): unknown {
  const f = row.facets;
  return f !== null && typeof f === 'object' && !Array.isArray(f) ? (f as Record<string, unknown>)[key] : undefined;
}

function candidateOf(row: Row, similarity: number, level: Level, now: string, current: number | undefined): Candidate {
  const status = facet(row, 'status');
  const createdAt = typeof row.created_at === 'string' ? row.created_at : null;
  const ageDays = createdAt ? (Date.parse(now) - Date.parse(createdAt)) / 86_400_000 : 0;
  const episodeId = typeof row.episode_id === 'number' ? row.episode_id : null;
  const c = {
    id: row.id,
    text: typeof row.text === 'string' ? row.text : '',
    level,
    episodeId,
    similarity,
    utility: typeof row.utility === 'number' ? row.utility : null,
    utilityN: typeof row.utility_n === 'number' ? row.utility_n : 0,
    status: typeof status === 'string' && STATUSES.includes(status) ? status as ExecStatus : null,
    value: facet(row, 'value') ?? null,
    createdAt,
    fromCurrent: current !== undefined && (row.id === current || episodeId === current),
  };
  return { ...c, features: features({ ...c, ageDays: Number.isFinite(ageDays) ? ageDays : 0 }) };
}

/**
 * The second stage of `RETRIEVE … LEVEL`: `rows` are the candidate stage's (the engine's search,
 * limited to K, with its filters and the level), `scores` their relevance. The selector keeps at
 * most `pick`; with EXPAND episode each kept turn brings its episode, unless `hidden` says the
 * reader may not see it (a lock that denies Retrieve). Returns the rows to show
 * (kept ones first, then the episodes) and the report, or undefined when refused.
 */
export function* selectExperience(
  x: ExperienceContext, op: RetrieveOp, rows: readonly Row[], scores: Readonly<Record<number, number>>, caller?: Selector, hidden?: (row: Row) => boolean,
): Io<{ rows: Row[]; report: ExperienceReport } | undefined> {
  const e = op.experience!;
  const all = rows.map((r) => candidateOf(r, scores[r.id] ?? 0, e.level, op.now, e.episodeId));
  // Left out before selection: the running episode's own records (unless include_current), and
  // with positive_only every candidate whose status is not ok.
  const excluded = all.filter((c) => (c.fromCurrent && !e.includeCurrent) || (e.positiveOnly && c.status !== 'ok')).map((c) => c.id);
  const candidates = all.filter((c) => !excluded.includes(c.id));
  // A caller's selector (RunOptions.selector) replaces the default; SELECTOR similarity stays similarity.
  const useCaller = caller !== undefined && e.selector === 'utility';
  // Only the learned selector reads (and, through what it keeps, writes) the tenant's model: the
  // other selectors' retrievals stay reads.
  const learning = e.selector === 'learned' && !useCaller;
  const model = learning ? yield* loadModel((s) => x.query(s), x.store.dialect, e.level, op.tenant) : undefined;
  const selector = useCaller ? caller : model ? learnedSelector(model) : BUILTIN_SELECTORS[e.selector as 'utility' | 'similarity'];
  const input: SelectorInput = { level: e.level, query: e.query, candidates, pick: e.pick, ...(e.threshold !== undefined ? { threshold: e.threshold } : {}) };
  let choice: SelectorChoice;
  try {
    choice = candidates.length && e.pick > 0 ? selector(input) : { ids: [] };
  } catch (err) {
    // The caller's function failed: the statement is refused, the script rolled back.
    x.refuse('selector-invalid', `the selector failed: ${(err as Error)?.message ?? String(err)}`, 'args.level');
    return undefined;
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ids = Array.isArray(choice?.ids) ? [...new Set(choice.ids)] : [];
  const stray = ids.filter((id) => !byId.has(id));
  if (stray.length || !Array.isArray(choice?.ids)) {
    x.refuse('selector-invalid', `the selector chose ${stray.length ? stray.map((id) => `#${id}`).join(', ') : 'no list of ids'}, which ${stray.length === 1 ? 'is' : 'are'} not among the candidates ${candidates.map((c) => `#${c.id}`).join(', ') || '(none)'}`, 'args.level');
    return undefined;
  }
  if (ids.length > e.pick) x.warn('truncated', `the selector kept ${ids.length} candidates; PICK ${e.pick} keeps the first ${e.pick}`, 'args.pick');
  const kept = ids.slice(0, e.pick);
  const why: Record<number, string> = {};
  for (const id of kept) {
    const w = choice.why;
    why[id] = typeof w === 'string' ? w : w?.[id] ?? 'chosen by the selector';
  }
  const out = kept.map((id) => byId.get(id)!);
  let expanded: Record<number, number> | undefined;
  if (e.expand === 'episode') {
    expanded = {};
    const episodeIds = [...new Set(out.map((r) => r.episode_id).filter((v): v is number => typeof v === 'number'))];
    const episodes = episodeIds.length
      ? yield* x.query(compileTargetSelect({ ids: episodeIds, all: false, orderBy: 'time_desc' }, x.store.dialect, { tenant: op.tenant, now: op.now, applyReadPermissions: true, readerActor: op.actor ?? null }))
      : [];
    // An episode is read as a Retrieve reads: live, the tenant's, readable (in the select), and
    // not hidden from the reader (`hidden`: the execute side's lock check, as for the candidates).
    const found = new Map(episodes.filter((r) => !hidden?.(r)).map((r) => [r.id, r]));
    for (const r of out) if (typeof r.episode_id === 'number' && found.has(r.episode_id)) expanded[r.id] = r.episode_id;
    const missing = episodeIds.filter((id) => !found.has(id));
    if (missing.length) x.warn('ids-not-found', `EXPAND episode: episode ${missing.map((id) => `#${id}`).join(', ')} is not live, not readable or hidden by its lock; left out`, 'args.expand');
    for (const ep of found.values()) if (!kept.includes(ep.id)) out.push(ep);
  }
  // What the selector saw of each kept record: a later REWARD learns from it (learner.ts).
  if (model && kept.length && !op.dryRun) {
    for (const id of kept) model.picks[String(id)] = [...candidates.find((c) => c.id === id)!.features!];
    for (const s of modelWrite(x.store.dialect, e.level, op.tenant, model)) yield* x.query(s);
  }
  const report: ExperienceReport = {
    level: e.level,
    query: e.query,
    selector: useCaller ? 'caller' : e.selector,
    candidates: candidates.map((c) => ({
      id: c.id, similarity: round(c.similarity), utility: c.utility, utilityN: c.utilityN, status: c.status,
      ...(choice.scores?.[c.id] !== undefined ? { score: choice.scores[c.id] } : {}),
    })),
    selected: kept,
    why,
    ...(expanded ? { expanded } : {}),
    ...(model ? { model: { weights: namedWeights(weights(model)), rewards: model.n } } : {}),
    ...(excluded.length ? { excluded } : {}),
  };
  return { rows: out, report };
}

/**
 * A REWARD's update of the learned model: each rewarded record (`rewarded`: id and level, the
 * ones whose utility the statement moved) teaches its level's model with the features of its last
 * selection; a record never selected through a two-stage retrieval teaches nothing. Logged with
 * the statement's time, which its audit entry carries, for an exact undo.
 */
export function* learnFromReward(x: ExperienceContext, rewarded: readonly { id: number; level: unknown }[], reward: number): Io<void> {
  for (const level of ['episode', 'turn'] as const) {
    const ids = rewarded.filter((r) => r.level === level).map((r) => r.id);
    if (!ids.length) continue;
    const model = yield* loadModel((s) => x.query(s), x.store.dialect, level, x.op.tenant);
    let changed = false;
    for (const id of ids) {
      const feat = model.picks[String(id)];
      if (!feat) continue;
      applyReward(model, feat, reward, 1);
      model.events.push({ at: x.op.now, id, r: reward, x: feat });
      changed = true;
    }
    if (changed) for (const s of modelWrite(x.store.dialect, level, x.op.tenant, model)) yield* x.query(s);
  }
}

/**
 * Undo of a feedback entry, for the learned model: the updates logged at the entry's time for
 * its records, with its reward, are subtracted (later rewards stay learned) and dropped from the log.
 */
export function* unlearnReward<Y>(query: (s: SqlStatement) => Generator<Y, readonly Record<string, unknown>[], unknown>, d: Dialect, tenant: string, at: string, ids: readonly number[], reward: number): Generator<Y, number, unknown> {
  let undone = 0;
  for (const level of ['episode', 'turn'] as const) {
    const model = yield* loadModel(query, d, level, tenant);
    const keep = model.events.filter((ev) => {
      const match = ev.at === at && ev.r === reward && ids.includes(ev.id);
      if (match) { applyReward(model, ev.x, ev.r, -1); undone++; }
      return !match;
    });
    if (keep.length === model.events.length) continue;
    model.events = keep;
    for (const s of modelWrite(d, level, tenant, model)) yield* query(s);
  }
  return undone;
}
