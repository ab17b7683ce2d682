/** Values reach SQL only as bound parameters: hostile strings through every verb never appear in SQL text. */
import { describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { encode, freshStore, NOW, op, rows } from '../engine/harness.js';

const HOSTILE = [
  `'); DROP TABLE memory; --`,
  `" OR 1=1 --`,
  `x' || (SELECT group_concat(name) FROM sqlite_master) || '`,
  `Robert'); DELETE FROM audit_log; --`,
  `\\'; ATTACH DATABASE '/tmp/evil.db' AS evil; --`,
];

describe('hostile values', () => {
  for (const h of HOSTILE) {
    it(`never splices ${JSON.stringify(h)} into SQL, through every verb`, async () => {
      const store = await freshStore();
      const filter = { has_tags: [h], not_tags: [h + 'x'], type: h, subject: h, location: h, topic: h, facets: { [h]: h } };
      const script = [
        encode(h, { type: h, tags: [h, 'plain'], subject: h, location: h, topic: h, source: h, facets: { subject: h, [h]: h }, time: '2025-10-20T00:00:00Z' }),
        encode(`second. ${h}. third`, { type: h, tags: [h], subject: h, location: h, topic: h, facets: { subject: h, [h]: h }, time: '2025-10-20T00:00:00Z' }),
        op('Retrieve', { filter }, { include: ['id', 'text'] }),
        op('Retrieve', { search: { intent: { query: h } } }),
        op('Summarize', { search: { intent: { query: h } } }, { focus: h, max_tokens: 50 }),
        op('Update', { ids: ['1'] }, { set: { text: h, [h]: h, facets: { [h]: h } } }),
        op('Label', { filter }, { tags: [h, `${h}2`], facets: { [h]: h }, mode: 'add' }),
        op('Promote', { filter }, { weight_delta: 0.1, reason: h }),
        op('Demote', { filter }, { weight_delta: -0.1, reason: h }),
        op('Split', { ids: ['2'] }, { strategy: 'by_sentences', inherit_all: true }),
        op('Merge', { ids: ['1', '3'] }, { primary_id: '1' }),
        op('Lock', { ids: ['4'] }, { mode: 'append_only', reason: h, policy: { reviewers: [h] } }),
        op('Expire', { filter }, { until: '2026-01-01T00:00:00Z', on_expire: 'anonymize' }),
        op('Delete', { filter }, { soft: true, reason: h }),
      ];
      const result = run(store, script, { now: NOW, actor: h });
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(result.ok).toBe(true);
      const sql = result.results.flatMap((r) => r.sql.map((s) => s.sql));
      expect(sql.length).toBeGreaterThan(20);
      for (const text of sql) {
        expect(text).not.toContain(h);
        expect(text).not.toMatch(/DROP|ATTACH|sqlite_master|DELETE FROM audit_log/i);
      }
      // Every verb issued SQL, and the values were stored verbatim.
      expect(new Set(result.results.map((r) => r.op)).size).toBe(12);
      const all = rows(store);
      expect(all[0].text.startsWith(h)).toBe(true);
      expect(JSON.parse(all[0].tags)).toContain(h);
      expect(rows(store, `SELECT count(*) AS n FROM audit_log`)[0].n).toBeGreaterThan(5);
    });
  }
});
