/**
 * The learned selector of experience memory (spec/semantics.md#experience-memory): a linear
 * contextual bandit (LinUCB). Each candidate is described by features that carry over from one
 * memory to another (similarity, status, level, utility, recency, current episode — never its
 * id), the expected reward is θ·x with θ the ridge-regression solution of the rewards seen, and
 * candidates are ranked by θ·x + α·√(xᵀA⁻¹x) (optimism under uncertainty: the stated exploration
 * rule). Ridge regression, not logistic, because its statistics are sums (A = λI + Σxxᵀ,
 * b = λm₀ + Σrx): one reward is taken back out exactly, which is what undo needs.
 *
 * The model lives in the store per tenant and level (table `t2m_meta`, key
 * `experience-model:<level>:<tenant>`), with the features of each record's last selection (a
 * reward learns from what the selector saw when it chose) and the log of the updates (each with
 * the time of its statement, so undo of that statement's audit entry subtracts exactly them).
 */
import type { Dialect, SqlStatement } from '../store/dialect.js';
import type { Level } from '../lower/operation.js';

export const FEATURES = [
  'bias', 'similarity', 'status_ok', 'status_error', 'status_empty', 'status_wrong', 'level_turn',
  'utility', 'utility_count', 'recency', 'current_episode',
] as const;
export type FeatureName = (typeof FEATURES)[number];
const D = FEATURES.length;

/** Ridge strength λ: how many rewards the prior is worth. */
export const RIDGE = 1;
/** Exploration α: the width of the confidence bonus added to the expected reward when ranking. */
export const EXPLORATION = 0.1;
/** Default threshold: a candidate whose expected reward is below it is not injected (PICK may keep none). */
export const DEFAULT_THRESHOLD = 0.2;
/** τ of the recency feature e^(−age/τ), in days. */
export const RECENCY_DAYS = 30;

/** The prior mean of θ: before any reward the expected reward is the similarity. */
export const PRIOR: readonly number[] = FEATURES.map((f) => (f === 'similarity' ? 1 : 0));

export type ExecStatus = 'ok' | 'error' | 'empty' | 'wrong';

/** What the features are computed from. */
export interface FeatureInput {
  readonly similarity: number;
  readonly status: ExecStatus | null;
  readonly level: Level;
  readonly utility: number | null;
  readonly utilityN: number;
  /** Age in days at selection time (0 when unknown). */
  readonly ageDays: number;
  readonly fromCurrent: boolean;
}

export function features(c: FeatureInput): number[] {
  const conf = c.utilityN <= 0 ? 0 : c.utilityN / (c.utilityN + 1);
  const u = c.utility ?? 0.5;
  return [
    1, c.similarity,
    c.status === 'ok' ? 1 : 0, c.status === 'error' ? 1 : 0, c.status === 'empty' ? 1 : 0, c.status === 'wrong' ? 1 : 0,
    c.level === 'turn' ? 1 : 0,
    // Utility counts as far as the memory is like the request: an outcome is evidence for requests like its own.
    c.similarity * conf * (u - 0.5), conf,
    Math.exp(-Math.max(0, c.ageDays) / RECENCY_DAYS),
    c.fromCurrent ? 1 : 0,
  ];
}

/** One reward the model learned from: undo removes it by (at, id, reward). */
export interface ModelEvent { readonly at: string; readonly id: number; readonly r: number; readonly x: readonly number[] }

export interface Model {
  /** λI + Σxxᵀ (row-major D×D). */
  a: number[][];
  /** λm₀ + Σrx. */
  b: number[];
  n: number;
  /** The features of each record's last selection, by id. */
  picks: Record<string, number[]>;
  events: ModelEvent[];
}

export function emptyModel(): Model {
  return {
    a: FEATURES.map((_, i) => FEATURES.map((__, j) => (i === j ? RIDGE : 0))),
    b: PRIOR.map((m) => RIDGE * m),
    n: 0, picks: {}, events: [],
  };
}

/** Solves A·x = y by Gaussian elimination with partial pivoting (A is symmetric positive definite). */
function solve(a: readonly (readonly number[])[], y: readonly number[]): number[] {
  const m = a.map((row, i) => [...row, y[i]]);
  for (let c = 0; c < D; c++) {
    let p = c;
    for (let r = c + 1; r < D; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    const piv = m[c][c] || 1e-12;
    for (let r = 0; r < D; r++) {
      if (r === c) continue;
      const f = m[r][c] / piv;
      if (f) for (let k = c; k <= D; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[D] / (row[i] || 1e-12));
}

const dot = (u: readonly number[], v: readonly number[]) => u.reduce((s, x, i) => s + x * v[i], 0);

/** The model's weights θ = A⁻¹b. */
export function weights(model: Model): number[] {
  return solve(model.a, model.b);
}

/** Expected reward θ·x and its confidence width √(xᵀA⁻¹x). */
export function predict(model: Model, theta: readonly number[], x: readonly number[]): { mean: number; width: number } {
  return { mean: dot(theta, x), width: Math.sqrt(Math.max(0, dot(x, solve(model.a, x)))) };
}

/** Adds (sign 1) or removes (sign −1) one reward r at features x. */
export function applyReward(model: Model, x: readonly number[], r: number, sign: 1 | -1): void {
  for (let i = 0; i < D; i++) {
    model.b[i] += sign * r * x[i];
    for (let j = 0; j < D; j++) model.a[i][j] += sign * x[i] * x[j];
  }
  model.n += sign;
}

const round6 = (v: number) => Math.round(v * 1e9) / 1e9;

/** The model as stored: sums rounded so that add-then-remove gives back the stored text exactly. */
function serialise(model: Model): string {
  return JSON.stringify({ ...model, a: model.a.map((r) => r.map(round6)), b: model.b.map(round6) });
}

export const modelKey = (level: Level, tenant: string) => `experience-model:${level}:${tenant}`;

/** The statements that read and write a model (any dialect: placeholders from the dialect). */
export function modelSelect(d: Dialect, level: Level, tenant: string): SqlStatement {
  return { sql: `SELECT value FROM t2m_meta WHERE key = ${d.placeholder(0)}`, params: [modelKey(level, tenant)] };
}

export function modelWrite(d: Dialect, level: Level, tenant: string, model: Model): SqlStatement[] {
  const key = modelKey(level, tenant);
  return [
    { sql: `DELETE FROM t2m_meta WHERE key = ${d.placeholder(0)}`, params: [key] },
    { sql: `INSERT INTO t2m_meta (key, value) VALUES (${d.placeholder(0)}, ${d.placeholder(1)})`, params: [key, serialise(model)] },
  ];
}

export function parseModel(rows: readonly Record<string, unknown>[]): Model {
  const v = rows[0]?.value;
  if (typeof v !== 'string') return emptyModel();
  try {
    const m = JSON.parse(v) as Model;
    if (Array.isArray(m.a) && m.a.length === D && Array.isArray(m.b) && m.b.length === D) return { ...m, picks: m.picks ?? {}, events: m.events ?? [] };
  } catch { /* a damaged model is relearned */ }
  return emptyModel();
}

/** Reads the tenant's model of a level through a query function of the caller's stage. */
export function* loadModel<Y>(query: (s: SqlStatement) => Generator<Y, readonly Record<string, unknown>[], unknown>, d: Dialect, level: Level, tenant: string): Generator<Y, Model, unknown> {
  return parseModel(yield* query(modelSelect(d, level, tenant)));
}

/** The weights by feature name, rounded, for reports. */
export function namedWeights(theta: readonly number[]): Record<FeatureName, number> {
  return Object.fromEntries(FEATURES.map((f, i) => [f, Math.round(theta[i] * 1e4) / 1e4])) as Record<FeatureName, number>;
}
