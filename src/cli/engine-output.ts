/**
 * Readable rendering of engine results for the CLI: one block per statement, tables for rows.
 * Stored values are shown with their control characters escaped (src/diagnostics/escape.ts), a line feed in
 * a cell as `\n`, so no value starts a line or reaches the terminal as an escape sequence.
 */
import { displayWidth } from '../diagnostics/codeFrame.js';
import type { Change, StatementResult } from '../engine/index.js';
import { escapeControls, oneLine } from '../diagnostics/escape.js';
import { defaultOf, defaultedText } from '../services/timeline.js';

const MAX_CELL = 60;

function cell(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  const flat = oneLine(s).replace(/\s+/g, ' ');
  if (displayWidth(flat) <= MAX_CELL) return flat;
  // Cut by terminal columns, not UTF-16 units, so Chinese text stays aligned.
  let cut = '';
  for (const ch of flat) {
    if (displayWidth(cut + ch) > MAX_CELL - 1) break;
    cut += ch;
  }
  return `${cut}…`;
}

/** A changed field's value; an empty (NULL) one is shown as ∅ so `∅ → 0.9` reads as a change. */
function changed(v: unknown): string {
  return v === null || v === undefined ? '∅' : cell(v);
}

/** A plain-text table with a header rule. */
export function table(rows: readonly Record<string, unknown>[]): string {
  if (!rows.length) return '  (no rows)';
  const keys = Object.keys(rows[0]);
  const cols = keys.map(oneLine);
  const cells = rows.map((r) => keys.map((c) => {
    const d = defaultOf(c, r[c]);
    return d === undefined ? cell(r[c]) : defaultedText(d);
  }));
  const widths = cols.map((c, i) => Math.max(displayWidth(c), ...cells.map((r) => displayWidth(r[i]))));
  const pad = (v: string, w: number) => v + ' '.repeat(Math.max(0, w - displayWidth(v)));
  const line = (vals: string[]) => '  ' + vals.map((v, i) => pad(v, widths[i])).join('  ').trimEnd();
  return [line(cols), '  ' + widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

function change(c: Change): string {
  if (!c.before) return `  #${c.id} created`;
  if (!c.after) return `  #${c.id} removed`;
  const shown = (k: string, v: unknown) => {
    const d = defaultOf(k, v);
    return d === undefined ? changed(v) : defaultedText(d);
  };
  const fields = Object.keys(c.after).map((k) => `${oneLine(k)}: ${shown(k, c.before?.[k])} → ${shown(k, c.after?.[k])}`);
  return `  #${c.id} ${fields.join('; ')}`;
}

/** RETRIEVE … LEVEL: the candidate stage, then what the selector kept and why. */
function experience(e: NonNullable<StatementResult['experience']>): string[] {
  const out = [`  ${e.level} retrieval by ${JSON.stringify(e.query)}: ${e.candidates.length} candidate${e.candidates.length === 1 ? '' : 's'}, selector ${e.selector}`];
  const kept = new Set(e.selected);
  out.push(table(e.candidates.map((c) => ({
    candidate: `#${c.id}`, similarity: c.similarity, utility: c.utility, n: c.utilityN, ...(c.score !== undefined ? { score: c.score } : {}), kept: kept.has(c.id) ? 'yes' : '',
  }))));
  for (const id of e.selected) out.push(`  kept #${id}: ${oneLine(String(e.why[id]))}${e.expanded?.[id] !== undefined ? ` (episode #${e.expanded[id]})` : ''}`);
  if (!e.selected.length) out.push('  kept nothing: no candidate');
  return out;
}


/** JSON.stringify's replacer for engine output: a BLOB (a packed vector) is shown by its size, not byte by byte. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? `[blob ${value.byteLength} bytes]` : value;
}

export interface FormatOptions {
  /** Show what each search result's score is made of (bm25, vector, fused, weight). */
  readonly explain?: boolean;
}

/** A result row with its score, and with `explain` its parts (ranks in parentheses). */
function scored(r: StatementResult, row: Record<string, unknown>, options: FormatOptions): Record<string, unknown> {
  const id = Number(row.id);
  if (!r.scores) return row;
  const e = r.explain?.[id];
  if (!options.explain || !e) return { ...row, score: r.scores[id] };
  const ranked = (v: number | null, rank: number | null) => (v === null ? '-' : `${v} (#${rank})`);
  const parts = { ...row, score: e.score, bm25: ranked(e.bm25, e.bm25Rank), ...(e.keywords ? { keywords: e.keywords } : {}), vector: ranked(e.vector, e.vectorRank), fused: e.fused, context: e.context, weight: e.weight };
  // A reranker's score and rank (the result's order) when one reordered the results.
  return e.rerank === undefined ? parts : { ...parts, rerank: ranked(e.rerank, e.rerankRank ?? null) };
}

export function formatStatement(r: StatementResult, options: FormatOptions = {}): string {
  const head = `[${r.index + 1}] ${r.op}${r.dryRun ? ' (dry run: nothing changed)' : ''}`;
  const out = [head];
  if (r.refused) {
    out.push(`  would be refused: ${r.refused.code}: ${oneLine(r.refused.message)}`);
    return escapeControls(out.join('\n'));
  }
  if (r.op === 'Retrieve') {
    out.push(`  ${r.ids.length} record${r.ids.length === 1 ? '' : 's'}`);
    out.push(table((r.rows ?? []).map((row) => scored(r, row, options))));
    if (r.experience) out.push(...experience(r.experience));
  } else if (r.op === 'Summarize') {
    out.push(`  from ${r.ids.length} record${r.ids.length === 1 ? '' : 's'} [${r.ids.join(', ')}]`, ...(r.summary ? r.summary.split('\n').map((l) => `  ${oneLine(l)}`) : ['  (nothing to summarise)']));
    if (options.explain && r.explain) out.push(table(r.ids.map((id) => scored(r, { id }, options))));
  } else if (r.op === 'Encode' && r.schema) {
    out.push(`  ${r.dryRun ? 'would declare' : 'declared'} the schema of ${oneLine(r.schema.attribute)}, version ${r.schema.version}: ${oneLine(JSON.stringify(r.schema.schema))}`);
  } else if (r.op === 'Encode') {
    out.push(`  ${r.dryRun ? 'would create' : 'created'} #${r.ids[0]}`);
  } else {
    out.push(`  ${r.dryRun ? 'would affect' : 'affected'}: ${r.ids.length ? r.ids.map((id) => `#${id}`).join(', ') : 'none'}`);
    out.push(...r.changes.map(change));
  }
  if (r.dryRun) for (const s of r.sql) out.push(`  sql: ${s.sql}  -- params ${JSON.stringify(s.params, jsonReplacer)}`);
  // What is left (a query in JSON, with C1 or bidirectional controls) is escaped on the way out.
  return escapeControls(out.join('\n'));
}
