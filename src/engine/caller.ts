/**
 * What the caller gives every engine operation, read the same way by each: the clock (a trusted
 * caller's `now`, or the real time), the tenant, and where a statement's diagnostics point.
 */
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { resolveRange, type SourceMap } from '../diagnostics/sourceMap.js';
import { DEFAULT_TENANT } from '../store/columns.js';
import { formatUtc, parseInstant } from '../lower/index.js';
import type { SqlStatement } from '../compile/index.js';

export { DEFAULT_TENANT };

export type SourceMaps = readonly (SourceMap | undefined)[];

/** A tenant is a name the caller gives; a blank one names nobody's records (`bad-tenant`). */
export function tenantProblem(tenant: string): Diagnostic | undefined {
  return tenant.trim() === '' ? diagnostic('bad-tenant', `the tenant '${tenant}' is blank: give the tenant a name (or leave it out for '${DEFAULT_TENANT}')`) : undefined;
}

/** The last clock text read, its instant and its UTC form: a caller passing the same `now` to run after run has it read once. */
let lastClock: { readonly text: string; readonly ms: number; utc?: string } | undefined;

/** `formatUtc(now)`, taken from `lastClock` when `now` is its instant. */
export function clockText(now: Date): string {
  const last = lastClock;
  if (last === undefined || last.ms !== now.getTime()) return formatUtc(now);
  return (last.utc ??= formatUtc(now));
}

export function clock(now: Date | string | undefined): Date | Diagnostic {
  if (now === undefined) return new Date();
  if (now instanceof Date) return now;
  // A fresh Date each time: the caller's script may not share one mutable Date with another run.
  if (lastClock?.text === now) return new Date(lastClock.ms);
  const at = parseInstant(now);
  if (!at) return diagnostic('invalid-datetime', `--now '${now}' is not an ISO-8601 date-time`);
  lastClock = { text: now, ms: at.getTime() };
  return at;
}

export function locate(d: Diagnostic, index: number, maps: SourceMaps | undefined): Diagnostic {
  const map = maps?.[index];
  const range = d.range ?? resolveRange(map, d.path ?? '');
  // An engine fix that rewrites the value it points at (src/execute/schemas.ts) takes the diagnostic's range, or is dropped without one.
  const placed = d.fix?.edits.some((e) => e.range.start.offset < 0) ? (range ? { fix: { ...d.fix, edits: d.fix.edits.map((e) => (e.range.start.offset < 0 ? { ...e, range } : e)) } } : { fix: undefined }) : {};
  return { ...d, statement: index, ...(range ? { range } : {}), ...placed };
}

/** Diagnostics of statement `i`, located. */
export function locateAll(diagnostics: readonly Diagnostic[], i: number, maps: SourceMaps | undefined): Diagnostic[] {
  return diagnostics.map((d) => locate(d, i, maps));
}

/** A compiled statement as the arguments of a query. */
export const stmt = (s: SqlStatement): [string, SqlStatement['params']] => [s.sql, s.params];
