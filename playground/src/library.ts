/**
 * The playground's view of the project: the front end (`src/pipeline.ts`) and the engine
 * (`src/engine`) on sql.js, whose wasm file Vite serves as an asset.
 */
import wasmUrl from 'sql.js/dist/sql-wasm.wasm?url';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { SourceMap } from '../../src/diagnostics/sourceMap.js';
import { explain, run, why, type StatementOutcome, type StatementResult, type Store, type WhyResult } from '../../src/engine/index.js';
import { openStore as openEngineStore } from '../../src/dialect/sqlite/store.js';
import type { IR } from '../../src/ir/schema.js';
import { irsToText, readInput, textToIr } from '../../src/pipeline.js';
import type { StoreVocabulary } from '../../src/services/completion.js';
import type { Row } from '../../src/services/timeline.js';
import { termsOfRows } from '../../src/services/rowTerms.js';

export interface Analysis {
  readonly irs: IR[];
  readonly sourceMaps: SourceMap[];
  readonly diagnostics: Diagnostic[];
}

/** Memoised: the page asks for the same text's IR several times per edit (IR pane, run, timeline). */
let last: { text: string; analysis: Analysis } | undefined;
/** Hands the page the analysis the worker made, so the main thread does not parse the same text again. */
export function primeAnalysis(text: string, analysis: Analysis): void {
  last = { text, analysis };
}

export function analyze(text: string): Analysis {
  if (last?.text !== text) last = { text, analysis: textToIr(text) };
  return last.analysis;
}

/** IR JSON (already parsed) → canonical DSL and the IRs read, or the diagnostics of the IR. */
export function irsToDsl(json: unknown[]): { text?: string; irs?: IR[]; diagnostics: Diagnostic[] } {
  const read = readInput(JSON.stringify(json, null, 2));
  if (read.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: read.diagnostics };
  return { text: irsToText(read.irs), irs: read.irs, diagnostics: read.diagnostics };
}

/** One IR → its canonical DSL statement. */
export const printIr = (ir: IR): string => irsToText([ir]);

export interface StatementRun {
  readonly affectedIds: string[];
  readonly rows: Row[];
  readonly warnings: string[];
  readonly errors: Diagnostic[];
  readonly sql: { sql: string; params: readonly unknown[] }[];
  readonly summary?: string;
}

export interface ScriptRun {
  /** True when every statement succeeded and the script was committed. */
  readonly committed: boolean;
  /** One entry per statement that ran (up to and including the first failure), with its index in the script. */
  readonly statements: readonly { statement: number; run: StatementRun; before: Row[]; after: Row[] }[];
}

export interface PlaygroundStore {
  /**
   * Runs a script as `t2m run` does — one engine call, one transaction, one trace id, references
   * resolved across statements — with a hook that snapshots `memory` after each statement; the
   * first failure rolls the whole script back. `statementOffset`: where the first of `irs` stands
   * in the script they were taken from (a part run), so that provenance names the statement as
   * the page numbers it.
   */
  runScript(irs: readonly IR[], sourceMaps: readonly SourceMap[], now: Date, statementOffset?: number): ScriptRun;
  /** The plan of a script against the current store, changing nothing (the engine's `explain`). */
  explain(irs: readonly IR[], sourceMaps: readonly SourceMap[], now: Date): { plans: StatementRun['sql'][]; errors: Diagnostic[] };
  memoryRows(): Row[];
  /** Why a record is what it is: its provenance, the versions it superseded and the audit entries that wrote them (the engine's `why`, as `t2m why`). */
  why(id: number): WhyResult | { ok: false; diagnostics: Diagnostic[] };
  vocabulary(): StoreVocabulary;
  /** The engine's store itself, for the Ask box's planner (its vocabulary, related memories and dry run). */
  readonly engine: Store;
  exportBytes(): Uint8Array;
  close(): void;
}

const MEMORY_SELECT = { sql: 'SELECT * FROM memory ORDER BY id', params: [] };

/** A search result's score and what it is made of (spec/retrieval.md), as columns of its row. */
function withScore(r: StatementResult, row: Record<string, unknown>): Row {
  const e = r.explain?.[Number(row.id)];
  return e ? { ...row, score: e.score, bm25: e.bm25, vector: e.vector, fused: e.fused, context: e.context, weight: e.weight } : { ...row };
}

/**
 * The playground's store lives in the user's own browser and the person at the keyboard is the
 * caller, so a statement's `AS "<actor>"` acts as that actor: impersonation is granted, as
 * `t2m run --allow-impersonation` would (spec/security.md). It lets one try owner-only records,
 * reviewers and private reads from one page.
 */
const IMPERSONATE = true;

/** A statement as the page shows it: its result or the errors that refused it, and the run's other warnings about it. */
function statementRun(outcome: StatementOutcome, warnings: readonly string[]): StatementRun {
  const r = outcome.result;
  if (!r) return { affectedIds: [], rows: [], warnings: [...warnings], errors: [...outcome.errors], sql: [] };
  return {
    affectedIds: r.ids.map(String),
    rows: (r.rows ?? []).map((row) => withScore(r, row)),
    warnings: [...warnings, ...r.warnings.map((w) => w.message)].filter((w, i, all) => all.indexOf(w) === i),
    errors: [],
    sql: r.sql.map((s) => ({ sql: s.sql, params: s.params })),
    summary: r.summary,
  };
}

/**
 * The runner of the page (`PlaygroundStore.runScript`) on any synchronous store: the script in
 * one engine call, `memory` read after each statement by the run's hook, inside its transaction.
 */
export function runOnStore(store: Store, irs: readonly IR[], sourceMaps: readonly SourceMap[], now: Date, statementOffset = 0): ScriptRun {
  const steps: { index: number; outcome: StatementOutcome; before: Row[]; after: Row[] }[] = [];
  let last = memoryRowsOf(store);
  const result = run(store, irs, {
    now, sourceMaps, impersonate: IMPERSONATE, statementOffset,
    onStatement: (index, outcome) => {
      // A refused statement changed nothing: the script stops there and is rolled back. Reads
      // (and dry runs) write nothing either: memory is read again only after a write.
      const r = outcome.result;
      const after = r && !r.dryRun && r.op !== 'Retrieve' && r.op !== 'Summarize' ? memoryAfter(store, last, r) : last;
      steps.push({ index, outcome, before: last, after });
      last = after;
    },
  });
  if (!result.ok && steps.every((s) => s.outcome.result)) {
    // Refused before anything ran (the checks the engine makes first): shown on the statement
    // they name, as a statement that did nothing.
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    steps.push({ index: errors.find((d) => d.statement !== undefined)?.statement ?? 0, outcome: { errors }, before: last, after: last });
  }
  // The checks' warnings name their statement; the engine's ride on each result.
  const warningsOf = (i: number) => result.diagnostics.filter((d) => d.severity !== 'error' && d.statement === i).map((d) => d.message);
  return {
    committed: result.ok,
    statements: steps.map(({ index, outcome, before, after }) => ({ statement: index, run: statementRun(outcome, warningsOf(index)), before, after })),
  };
}

/** Writes that may touch rows beyond the ones they report (children of a merge, parts of a split, cascades): memory is read whole after them. */
const READ_WHOLE_AFTER = new Set(['Merge', 'Split', 'Delete']);

/**
 * `memory` after a write, from the snapshot before it: the rows it reports (its ids and the rows
 * its audit images name, such as the fact version an Encode superseded) read again, the rest
 * kept — a 300-statement script then reads a few rows per statement, not the whole table.
 */
function memoryAfter(store: Store, last: Row[], r: StatementResult): Row[] {
  if (READ_WHOLE_AFTER.has(r.op)) return memoryRowsOf(store);
  const touched = [...new Set([...r.ids, ...r.changes.map((c) => c.id)])];
  if (!touched.length) return last;
  const fresh = store.all({ sql: `SELECT * FROM memory WHERE id IN (${touched.map(() => '?').join(', ')}) ORDER BY id`, params: touched })
    .map(({ search_text: _t, embedding_f32: _v, ...row }) => row);
  const byId = new Map(last.map((row) => [Number(row.id), row]));
  for (const id of touched) byId.delete(id);
  for (const row of fresh) byId.set(Number(row.id), row);
  return [...byId.entries()].sort((a, b) => a[0] - b[0]).map(([, row]) => row);
}

/** The rows of `memory`, without the derived columns (search tokens, packed vectors). */
function memoryRowsOf(store: Store): Row[] {
  return store.all(MEMORY_SELECT).map(({ search_text: _t, embedding_f32: _v, ...row }) => row);
}

class BrowserStore implements PlaygroundStore {
  constructor(private readonly store: Store) {}

  get engine(): Store {
    return this.store;
  }

  runScript(irs: readonly IR[], sourceMaps: readonly SourceMap[], now: Date, statementOffset?: number): ScriptRun {
    return runOnStore(this.store, irs, sourceMaps, now, statementOffset);
  }

  explain(irs: readonly IR[], sourceMaps: readonly SourceMap[], now: Date): { plans: StatementRun['sql'][]; errors: Diagnostic[] } {
    const result = explain(this.store, irs, { now, sourceMaps, impersonate: IMPERSONATE });
    return {
      plans: result.results.map((r) => r.sql.map((s) => ({ sql: s.sql, params: s.params }))),
      errors: result.diagnostics.filter((d) => d.severity === 'error'),
    };
  }

  memoryRows(): Row[] {
    return memoryRowsOf(this.store);
  }

  why(id: number): WhyResult | { ok: false; diagnostics: Diagnostic[] } {
    return why(this.store, id);
  }

  vocabulary(): StoreVocabulary {
    return termsOfRows(this.memoryRows());
  }

  exportBytes(): Uint8Array {
    return this.store.export();
  }

  close(): void {
    this.store.close();
  }
}

/** Opens the in-browser store: empty, or from the bytes of a `.sqlite` store file. */
export async function openStore(bytes?: Uint8Array): Promise<PlaygroundStore> {
  const opened = await openEngineStore({ locateFile: () => wasmUrl, data: bytes });
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  return playgroundStore(opened.store);
}

/** The page's view of an engine store already open (the tests run the page's runner on Node with it). */
export function playgroundStore(store: Store): PlaygroundStore {
  return new BrowserStore(store);
}
