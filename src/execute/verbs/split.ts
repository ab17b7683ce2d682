/**
 * Split: cuts each target record's text into pieces, new records that inherit its metadata
 * (SPLIT … LEVEL turn: the pieces are turns of the source, now an episode).
 */
import { episodeSource, turnPiece } from '../../experience/experience.js';
import type { SplitOp } from '../../lower/operation.js';
import { splitChunks, splitInto, splitSections, splitSentences } from '../../text/text.js';
import type { Execution } from '../execution.js';
import { retracted } from '../facts.js';
import type { Io } from '../../store/io.js';
import { asIds, pick, type Row } from '../rows.js';

function pieces(op: SplitOp, text: string): string[] {
  const r = op.rule;
  switch (r.kind) {
    case 'by_sentences': {
      const s = splitSentences(text);
      const out: string[] = [];
      const sep = /[\u3040-\u30ff\u3400-\u9fff]/.test(text) ? '' : ' ';
      for (let i = 0; i < s.length; i += r.maxSentences) out.push(s.slice(i, i + r.maxSentences).join(sep));
      return out;
    }
    case 'by_chunks':
      return r.chunkSize ? splitChunks(text, r.chunkSize) : splitInto(text, r.numChunks ?? 2);
    case 'custom': {
      const cut = r.delimiters ? text.split(new RegExp(r.delimiters.map((d) => d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'))) : undefined;
      const s = cut ? cut.map((p) => p.trim()).filter(Boolean) : splitSections(text);
      if (!r.maxSplits || s.length <= r.maxSplits) return s;
      // Too many sections: fold the tail into the last allowed piece.
      return [...s.slice(0, r.maxSplits - 1), s.slice(r.maxSplits - 1).join(cut ? r.delimiters![0] : '\n\n')];
    }
  }
}

const INHERITED = ['type', 'tags', 'facets', 'time', 'subject', 'location', 'topic', 'source', 'weight', 'expire_at', 'expire_action',
  'expire_reason', 'read_perm_level', 'write_perm_level', 'read_whitelist', 'read_blacklist', 'write_whitelist', 'write_blacklist'];

/** Split pieces always keep their source's owner and permissions: a piece is the source's content. */
const SPLIT_KEPT = ['owner', 'read_perm_level', 'write_perm_level', 'read_whitelist', 'read_blacklist', 'write_whitelist', 'write_blacklist'];

export function* split(x: Execution, op: SplitOp, rows: Row[]): Io<number[]> {
  if (!x.guard(op, rows)) return [];
  if (!x.readGuard(rows, 'a Split copies its text into new records')) return [];
  const ids: number[] = [];
  for (const row of rows) {
    const parts = pieces(op, String(row.text ?? ''));
    if (parts.length < 2) {
      x.warn('split-single-piece', `memory #${row.id} yields one piece under ${op.rule.kind}; it is left as is`);
      continue;
    }
    const childIds: number[] = [];
    for (const text of parts) {
      const values: Record<string, unknown> = {
        text,
        ...(op.inheritAll ? pick(row, INHERITED) : { type: row.type ?? null, time: row.time ?? null }),
        ...pick(row, SPLIT_KEPT),
        ...(op.level === 'turn' ? turnPiece(row) : {}),
        lineage_parents: [row.id],
        created_at: op.now,
        updated_at: op.now,
        deleted: 0,
        ...(yield* x.embedding(text)),
      };
      childIds.push(yield* x.insert(values));
    }
    const changes: Record<string, unknown> = { lineage_children: [...asIds(row.lineage_children), ...childIds], ...(op.level === 'turn' ? episodeSource(row) : {}) };
    if (!op.keepSource) Object.assign(changes, { deleted: 1, deleted_at: op.now });
    yield* x.update(row, changes);
    ids.push(row.id, ...childIds);
  }
  // A source that was a fact version leaves its chain (src/execute/facts.ts).
  if (!op.keepSource) yield* retracted(x, rows);
  return ids;
}
