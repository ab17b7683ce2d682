/** Small helpers for engine tests: a fresh store, IR builders, and running that must succeed. */
import { expect } from 'vitest';
import { createStore, run, type RunOptions, type RunResult, type Store } from '../../src/engine/index.js';

export const NOW = '2025-10-21T00:00:00Z';

export const freshStore = (): Promise<Store> => createStore();

export function encode(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { meta, ...args } = extra;
  return { stage: 'ENC', op: 'Encode', args: { payload: { text }, ...args }, ...(meta ? { meta } : {}) };
}

export function op(opName: string, target: Record<string, unknown> | undefined, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) {
  const stage = opName === 'Retrieve' || opName === 'Summarize' ? 'RET' : opName === 'Encode' ? 'ENC' : 'STO';
  return { stage, op: opName, ...(target ? { target } : {}), args, ...(meta ? { meta } : {}) };
}

export function runOk(store: Store, irs: unknown[], options: RunOptions = {}): RunResult {
  const r = run(store, irs, { now: NOW, ...options });
  expect(r.diagnostics.filter((d) => d.severity === 'error'), JSON.stringify(r.diagnostics)).toEqual([]);
  expect(r.ok).toBe(true);
  return r;
}

export function rows(store: Store, sql = 'SELECT * FROM memory ORDER BY id'): Record<string, any>[] {
  const res = store.db.exec(sql);
  if (!res.length) return [];
  return res[0].values.map((v) => Object.fromEntries(res[0].columns.map((c, i) => [c, v[i]])));
}

export function row(store: Store, id: number): Record<string, any> {
  const r = rows(store, `SELECT * FROM memory WHERE id = ${Number(id)}`)[0];
  if (!r) throw new Error(`no row ${id}`);
  return { ...r, tags: r.tags && JSON.parse(r.tags), facets: r.facets && JSON.parse(r.facets) };
}
