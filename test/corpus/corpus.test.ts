/**
 * The DSL example corpus: every `*.t2m` here parses without diagnostics and is snapshotted,
 * to committed files in `__snapshots__/`, through every stage:
 *
 * | file | stage |
 * | --- | --- |
 * | `<name>.tokens.txt` | tokens: range, kind, token type, image (one per line) |
 * | `<name>.ast.json` | the AST, each `loc` written as `line:col-line:col` |
 * | `<name>.ir.json` | the IR |
 * | `<name>.fmt.t2m` | the formatted text (idempotent, meaning-preserving) |
 * | `<name>.<dialect>.sql` | the engine's `explain` on a fresh store of that dialect: SQL and bound parameters |
 * | `<name>.run.txt` | what running it did: per-statement results, diagnostics, the memory rows after |
 *
 * Scripts run on a fresh store with the fixed clock `NOW`. A statement whose leading comment
 * starts with `---` begins a new transaction (a separate `run`), so a script can commit a
 * setup and then show a refused transaction leaving the store as it was. The run snapshot is
 * the same file for every dialect: each dialect must give the same results and rows.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, tokenize } from '../../src/syntax/index.js';
import type { Script } from '../../src/syntax/index.js';
import { astToIr } from '../../src/convert/index.js';
import { print } from '../../src/convert/index.js';
import { postgres, postgresVector } from '../../src/dialect/postgres/dialect.js';
import { auditLog, explain, run, Store, type RunResult } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { SchemaDriver, SyncBridgeDriver } from '../support/sync-bridge.js';
import { decodeRow } from '../../src/compile/index.js';
import type { Diagnostic, Range } from '../../src/diagnostics/diagnostic.js';
import type { SourceMap } from '../../src/diagnostics/sourceMap.js';
import { UPSTREAM } from '../ir-corpus.js';

const DIR = import.meta.dirname;
const files = readdirSync(DIR).filter((f) => f.endsWith('.t2m')).sort();
const SNAPSHOTS = join(DIR, '__snapshots__');

/** The fixed clock every script runs against (relative times, expiries, created_at…). */
const NOW = '2025-10-21T00:00:00Z';

/**
 * A fresh store per SQL dialect, keyed by the dialect's name. PostgreSQL runs in PGlite (one
 * instance for the file, a fresh schema per store) behind the synchronous test bridge
 * (test/support/sync-bridge.ts), so this file's synchronous runs work on it unchanged.
 */
let pglite: SyncBridgeDriver | undefined;
let schemas = 0;
const DIALECTS: Readonly<Record<string, () => Promise<Store>>> = {
  sqlite: () => createStore(),
  postgres: async () => {
    pglite ??= new SyncBridgeDriver({ kind: 'pglite' });
    const schema = `corpus_${++schemas}`;
    const problems = pglite.prepare(schema);
    if (problems.length) throw new Error(problems.map((d) => d.message).join('; '));
    const driver = new SchemaDriver(pglite, schema);
    // PGlite has pgvector: the dialect postgresDialectOf picks for it (vectors of its own type).
    const pgvector = Number(driver.all(`SELECT to_regtype('vector') IS NOT NULL AS ok`)[0]?.ok) === 1;
    const store = new Store(driver, { dialect: pgvector ? postgresVector : postgres });
    return store;
  },
};
afterAll(() => pglite?.close());

const STAGE_FILES = ['tokens.txt', 'ast.json', 'ir.json', 'fmt.t2m', ...Object.keys(DIALECTS).map((d) => `${d}.sql`), 'run.txt'];

// Taken before any test runs: outside CI, toMatchFileSnapshot writes a missing snapshot and passes.
const snapshotsOnDisk = readdirSync(SNAPSHOTS).sort();
const expectedSnapshots = files.flatMap((f) => STAGE_FILES.map((s) => `${f.replace(/\.t2m$/, '')}.${s}`)).sort();

/** The snapshot files git tracks (a snapshot written locally but never committed is missing in CI). */
function committedSnapshots(): string[] {
  const out = execFileSync('git', ['ls-files', '--', '.'], { cwd: SNAPSHOTS, encoding: 'utf8' });
  return out.split('\n').filter(Boolean).sort();
}

function load(name: string) {
  const text = readFileSync(join(DIR, name), 'utf8');
  const lexed = tokenize(text);
  const parsed = parse(text);
  const converted = astToIr(parsed.script);
  return { text, lexed, parsed, converted, diagnostics: [...lexed.diagnostics, ...parsed.diagnostics, ...converted.diagnostics] };
}

// ---------------------------------------------------------------- front-end renderings

const at = (r: Range | undefined): string => (r ? `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}` : '?');

function isRange(v: unknown): v is Range {
  const r = v as Partial<Range> | null;
  return typeof r === 'object' && r !== null && typeof r.start?.line === 'number' && typeof r.end?.line === 'number';
}

function tokensText(tokens: ReturnType<typeof tokenize>['tokens']): string {
  return tokens.map((t) => `${at(t.range).padEnd(14)} ${t.kind.padEnd(11)} ${t.type.padEnd(16)} ${JSON.stringify(t.image)}`.trimEnd()).join('\n') + '\n';
}

/** The AST as JSON with every location object (`loc`, `keywordLoc`…) compacted to `line:col-line:col`. */
function astText(script: Script): string {
  return `${JSON.stringify(script, (_, v) => (isRange(v) ? at(v) : v), 2)}\n`;
}

// ---------------------------------------------------------------- engine renderings

interface Transaction {
  /** Index of its first statement in the script. */
  readonly first: number;
  readonly irs: unknown[];
  readonly sourceMaps: SourceMap[];
}

/** Splits the script into transactions at each statement whose leading comment starts with `---`. */
function transactions(script: Script, irs: unknown[], sourceMaps: SourceMap[]): Transaction[] {
  const starts = [0, ...script.statements.flatMap((st, i) => (i > 0 && st.leadingComments.some((c) => c.text.trim().startsWith('---')) ? [i] : []))];
  return starts.map((first, k) => {
    const end = starts[k + 1] ?? irs.length;
    return { first, irs: irs.slice(first, end), sourceMaps: sourceMaps.slice(first, end) };
  });
}

const opOf = (ir: unknown): string => (ir as { op: string }).op;

const statements = (tx: Transaction): string =>
  tx.irs.length === 1 ? `statement [${tx.first + 1}]` : `statements [${tx.first + 1}]-[${tx.first + tx.irs.length}]`;

/** `[n]` is the 1-based statement number in the script, as `t2m run` prints it. */
function diagnosticLine(d: Diagnostic, first: number): string {
  const where = d.statement === undefined ? '' : ` [${first + d.statement + 1}]`;
  return `${d.severity} ${d.code} at ${at(d.range)}${where}${d.path ? ` (${d.path})` : ''}: ${d.message}`;
}

/** An embedding vector bound as JSON text: its size and a digest instead of 64 floats. */
function param(v: unknown): unknown {
  if (v instanceof Uint8Array) return `<vector of ${v.byteLength / 4} floats, sha256 ${createHash('sha256').update(v).digest('hex').slice(0, 12)}>`;
  if (typeof v !== 'string' || !v.startsWith('[')) return v;
  try {
    const parsed: unknown = JSON.parse(v);
    if (Array.isArray(parsed) && parsed.length >= 16 && parsed.every((x) => typeof x === 'number')) {
      return `<vector of ${parsed.length} numbers, sha256 ${createHash('sha256').update(v).digest('hex').slice(0, 12)}>`;
    }
  } catch {
    // Not JSON: an ordinary string value.
  }
  return v;
}

/** Embedding vectors are long and say nothing a reader can check; their model column stays. */
function withoutVectors(o: Readonly<Record<string, unknown>> | null): Record<string, unknown> | null {
  return o && Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'embedding' && k !== 'embedding_f32'));
}

function resultLines(result: RunResult, first: number): string[] {
  const lines: string[] = [];
  for (const r of result.results) {
    lines.push(`[${first + r.index + 1}] ${r.op}${r.dryRun ? ' (dry run)' : ''}: ids ${r.ids.length ? r.ids.join(', ') : '-'}`);
    for (const c of r.changes) {
      // A new record's full image is in the memory rows below; a removed one's is in the audit log.
      if (c.before === null) lines.push(`    #${c.id} created`);
      else if (c.after === null) lines.push(`    #${c.id} removed`);
      else lines.push(`    #${c.id} ${JSON.stringify(withoutVectors(c.before))} -> ${JSON.stringify(withoutVectors(c.after))}`);
    }
    for (const row of r.rows ?? []) lines.push(`    row ${JSON.stringify(withoutVectors(row))}`);
    if (r.scores) lines.push(`    scores ${JSON.stringify(r.scores)}`);
    if (r.summary !== undefined) lines.push(`    summary ${JSON.stringify(r.summary)}`);
    if (r.refused) lines.push(`    would be refused: ${diagnosticLine(r.refused, first)}`);
  }
  for (const d of result.diagnostics) lines.push(diagnosticLine(d, first));
  return lines;
}

function planLines(result: RunResult, first: number): string[] {
  const lines: string[] = [];
  for (const r of result.results) {
    lines.push(`-- [${first + r.index + 1}] ${r.op}: ids ${r.ids.length ? r.ids.join(', ') : '-'}`);
    for (const s of r.sql) lines.push(`${s.sql.trimEnd().replace(/;$/, '')};`, `--   params ${JSON.stringify(s.params.map(param))}`);
    if (r.refused) lines.push(`-- would be refused: ${diagnosticLine(r.refused, first)}`);
    lines.push('');
  }
  for (const d of result.diagnostics) lines.push(`-- ${diagnosticLine(d, first)}`);
  return lines;
}

/** Every memory row in id order, JSON columns decoded, without the embedding vector and NULL columns. */
function memoryRows(store: Store): string[] {
  const q = store.dialect.quoteIdent;
  return store.all({ sql: `SELECT * FROM ${q('memory')} ORDER BY ${q('id')}`, params: [] })
    .map(decodeRow)
    .map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).filter(([k, v]) => k !== 'embedding' && k !== 'embedding_f32' && v !== null))));
}

interface EngineSnapshots {
  readonly plan: string;
  readonly run: string;
  readonly refused: { readonly tx: number; readonly diagnostics: readonly Diagnostic[] }[];
}

/**
 * Explains then runs each transaction on a fresh store of the dialect, checking on the way that
 * explain changes nothing and that a refused transaction leaves the rows and the audit log as
 * they were.
 */
async function runOnEngine(dialect: string, name: string, txs: Transaction[]): Promise<EngineSnapshots> {
  const store = await DIALECTS[dialect]();
  expect(store.dialect.name).toBe(dialect);
  const plan = [`-- ${name} explained on a fresh ${dialect} store, clock ${NOW}`];
  const out = [`# ${name} run on a fresh store, clock ${NOW}; rows without the embedding vector and NULL columns`];
  const refused: EngineSnapshots['refused'] = [];
  try {
    for (const [k, tx] of txs.entries()) {
      // The corpus is trusted text replayed as written: its AS clauses act (impersonation granted, as the benchmark runner does).
      const options = { now: NOW, sourceMaps: tx.sourceMaps, impersonate: true, traceId: `corpus-${name}-${k + 1}` };
      const before = memoryRows(store);
      const auditBefore = auditLog(store).length;

      const explained = explain(store, tx.irs, options);
      expect(memoryRows(store)).toEqual(before);
      plan.push('', `-- transaction ${k + 1}: ${statements(tx)}, ${explained.ok ? 'would commit' : 'would be refused'}`, '', ...planLines(explained, tx.first));

      const result = run(store, tx.irs, options);
      const rows = memoryRows(store);
      const audit = auditLog(store).length;
      expect(result.ok).toBe(explained.ok);
      if (!result.ok) {
        expect(rows).toEqual(before);
        expect(audit).toBe(auditBefore);
        refused.push({ tx: k, diagnostics: result.diagnostics });
      }
      out.push(
        '', `== transaction ${k + 1}: ${statements(tx)}, ${result.ok ? 'committed' : 'refused and rolled back'}`,
        ...resultLines(result, tx.first),
        `memory${result.ok ? '' : ' (unchanged)'}: ${rows.length} rows, ${audit} audit entries`,
        ...rows.map((r) => `  ${r}`),
      );
    }
  } finally {
    store.close();
  }
  return { plan: `${plan.join('\n').trimEnd()}\n`, run: `${out.join('\n')}\n`, refused };
}

// ---------------------------------------------------------------- tests

describe('DSL corpus', () => {
  it('has the brief, the paper workflows, the upstream scenarios and the verb scripts', () => {
    expect(files).toEqual(expect.arrayContaining([
      'brief_promote.t2m', 'brief_illustration.t2m', 'paper_b11_semantic_promotion.t2m', 'paper_b12_incident_postmortem.t2m',
      'scenario_incident_postmortem.t2m', 'scenario_investor_update.t2m', 'scenario_sales_qbr.t2m',
      'verbs_update_demote.t2m', 'verbs_merge_split.t2m', 'verbs_expire_delete.t2m', 'refused_update_locked.t2m',
    ]));
  });

  it('uses every one of the twelve verbs', () => {
    const ops = new Set(files.flatMap((f) => load(f).converted.irs.map(opOf)));
    expect([...ops].sort()).toEqual(['Delete', 'Demote', 'Encode', 'Expire', 'Label', 'Lock', 'Merge', 'Promote', 'Retrieve', 'Split', 'Summarize', 'Update']);
  });

  it('has every snapshot on disk and committed, and no snapshot without its script', () => {
    expect(snapshotsOnDisk).toEqual(expectedSnapshots);
    expect(committedSnapshots()).toEqual(expectedSnapshots);
  });

  for (const name of files) {
    describe(name, () => {
      const { text, lexed, parsed, converted, diagnostics } = load(name);
      const base = name.replace(/\.t2m$/, '');
      const txs = transactions(parsed.script, converted.irs, converted.sourceMaps);

      it('lexes and parses without diagnostics', () => {
        expect(diagnostics).toEqual([]);
        expect(converted.irs).toHaveLength(parsed.script.statements.length);
      });

      it('matches its token snapshot', async () => {
        await expect(tokensText(lexed.tokens)).toMatchFileSnapshot(`__snapshots__/${base}.tokens.txt`);
      });

      it('matches its AST snapshot', async () => {
        await expect(astText(parsed.script)).toMatchFileSnapshot(`__snapshots__/${base}.ast.json`);
      });

      it('matches its IR snapshot', async () => {
        await expect(`${JSON.stringify(converted.irs, null, 2)}\n`).toMatchFileSnapshot(`__snapshots__/${base}.ir.json`);
      });

      it('matches its formatted snapshot, and formatting is idempotent and meaning-preserving', async () => {
        const formatted = print(parsed.script);
        await expect(formatted).toMatchFileSnapshot(`__snapshots__/${base}.fmt.t2m`);
        const again = parse(formatted);
        expect(print(again.script)).toBe(formatted);
        expect(astToIr(again.script).irs).toStrictEqual(converted.irs);
        if (!name.startsWith('brief_')) expect(formatted).toBe(text);
      });

      for (const dialect of Object.keys(DIALECTS)) {
        it(`${dialect}: matches its SQL plan and run snapshots`, async () => {
          const { plan, run: ran } = await runOnEngine(dialect, name, txs);
          await expect(plan).toMatchFileSnapshot(`__snapshots__/${base}.${dialect}.sql`);
          await expect(ran).toMatchFileSnapshot(`__snapshots__/${base}.run.txt`);
        });
      }
    });
  }

  it('refuses the UPDATE of a locked record, rolling back its whole transaction', async () => {
    const { parsed, converted } = load('refused_update_locked.t2m');
    const txs = transactions(parsed.script, converted.irs, converted.sourceMaps);
    expect(txs.map((t) => t.irs.map(opOf))).toEqual([['Encode', 'Lock'], ['Encode', 'Update']]);
    for (const dialect of Object.keys(DIALECTS)) {
      const { refused } = await runOnEngine(dialect, 'refused_update_locked.t2m', txs);
      expect(refused).toHaveLength(1);
      expect(refused[0].tx).toBe(1);
      expect(refused[0].diagnostics.map((d) => ({ code: d.code, statement: d.statement, at: at(d.range) })))
        .toEqual([{ code: 'record-locked', statement: 1, at: '13:1-13:71' }]);
    }
  });

  it('gives back the upstream scenario IRs exactly', () => {
    for (const [file, json] of [
      ['scenario_incident_postmortem.t2m', 'workflow_incident_postmortem.json'],
      ['scenario_investor_update.t2m', 'workflow_investor_update.json'],
      ['scenario_sales_qbr.t2m', 'workflow_sales_qbr.json'],
    ]) {
      const upstream = JSON.parse(readFileSync(join(UPSTREAM, 'ir/examples/real_world_scenarios', json), 'utf8'));
      expect(load(file).converted.irs).toStrictEqual(upstream.steps.map((s: { ir: unknown }) => s.ir));
    }
  });

  it('reads the paper workflows with their faithful meaning', () => {
    const b11 = load('paper_b11_semantic_promotion.t2m').converted.irs;
    expect(b11[2]).toStrictEqual({
      stage: 'STO', op: 'Promote', target: { search: { intent: { query: 'OKR progress' }, limit: 5 } }, args: { weight: 0.9 },
    });
    const b12 = load('paper_b12_incident_postmortem.t2m').converted.irs as any[];
    expect(b12[1].target.filter).toStrictEqual({
      has_tags: ['incident:p1-network'], time_range: { start: '2025-09-28T00:00:00+08:00', end: '2025-10-05T23:59:59+08:00' }, limit: 200,
    });
    expect(b12[1].meta).toStrictEqual({ actor: 'sre-ling', timestamp: '2025-09-29T00:05:00+08:00' });
    expect(b12[2].target.search).toStrictEqual({
      intent: { query: '2025-09-28 API outage follow-up', context: 'executive briefing' }, overrides: { k: 8, order_by: 'time_desc' }, limit: 8,
    });
  });
});
