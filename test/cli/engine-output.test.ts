import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/diagnostics/codeFrame.js';
import { formatStatement, jsonReplacer, table } from '../../src/cli/engine-output.js';
import { run } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';

describe('CLI result tables', () => {
  it('align columns by terminal width, so Chinese text lines up with ASCII', () => {
    const out = table([
      { id: 1, text: '收件箱中存在大量垃圾邮件', tags: '["邮件"]' },
      { id: 2, text: 'plain english text', tags: '["mail"]' },
    ]).split('\n');
    // The tags column starts at the same terminal column on every row.
    const col = (line: string, needle: string) => displayWidth(line.slice(0, line.indexOf(needle)));
    expect(col(out[2], '["邮件"]')).toBe(col(out[3], '["mail"]'));
    expect(col(out[0], 'tags')).toBe(col(out[3], '["mail"]'));
  });

  it('cuts long cells by width and marks the cut', () => {
    const [, , row] = table([{ text: '长'.repeat(100) }]).split('\n');
    expect(displayWidth(row.trim())).toBeLessThanOrEqual(60);
    expect(row.trim().endsWith('…')).toBe(true);
  });

  it('--explain shows what each search score is made of; JSON shows a packed vector by its size', async () => {
    const store = await createStore();
    const r = run(store, [
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'Quarterly budget review' } } },
      { stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'budget' }, limit: 3 } }, args: { include: ['id', 'text'] } },
    ], { now: '2025-05-01T00:00:00Z' });
    if (!r.ok) throw new Error('run');
    const [head, rule, row] = formatStatement(r.results[1], { explain: true }).split('\n').slice(2);
    expect(head).toMatch(/id\s+text\s+score\s+bm25\s+vector\s+fused\s+context\s+weight/);
    expect(rule).toMatch(/^\s+-+/);
    expect(row).toMatch(/^\s+1\s+Quarterly budget review\s+[\d.]+\s+[\d.]+ \(#1\)\s+[\d.]+ \(#1\)/);
    expect(formatStatement(r.results[1]).split('\n')[2]).not.toContain('bm25');
    expect(JSON.stringify({ v: new Uint8Array(1024) }, jsonReplacer)).toBe('{"v":"[blob 1024 bytes]"}');
  });

  it('a never-promoted weight reads as the default every read takes, marked, as the playground shows it', async () => {
    const store = await createStore();
    const r = run(store, [
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'a' } } },
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'b' } } },
      { stage: 'STO', op: 'Promote', target: { ids: ['2'] }, args: { weight: 0.9 } },
      { stage: 'RET', op: 'Retrieve', target: { ids: ['1', '2'] }, args: { include: ['id', 'text', 'weight'] } },
    ], { now: '2025-05-01T00:00:00Z' });
    if (!r.ok) throw new Error('run');
    expect(formatStatement(r.results[2])).toContain('#2 weight: 0.5 (default) → 0.9');
    const rows = formatStatement(r.results[3]).split('\n').slice(4);
    expect(rows.map((l) => l.trim().split(/\s{2,}/))).toEqual([['1', 'a', '0.5 (default)'], ['2', 'b', '0.9']]);
  });
});
