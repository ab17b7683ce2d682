/**
 * The DSL example corpus: every `*.t2m` here parses without diagnostics; its IR and its
 * formatted text are snapshotted; formatting is idempotent; the upstream scenarios give back
 * exactly the upstream IRs.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/syntax/index.ts';
import { astToIr } from '../../src/convert/index.ts';
import { print } from '../../src/print/index.ts';
import { SHARED } from '../ir-corpus.ts';

const DIR = import.meta.dirname;
const files = readdirSync(DIR).filter((f) => f.endsWith('.t2m')).sort();
const SNAPSHOTS = join(DIR, '__snapshots__');
// Taken before any test runs: outside CI, toMatchFileSnapshot writes a missing snapshot and passes.
const snapshotsOnDisk = readdirSync(SNAPSHOTS).sort();
const expectedSnapshots = files.flatMap((f) => [`${f.replace(/\.t2m$/, '')}.fmt.t2m`, `${f.replace(/\.t2m$/, '')}.ir.json`]).sort();

/** The snapshot files git tracks (a snapshot written locally but never committed is missing in CI). */
function committedSnapshots(): string[] {
  const out = execFileSync('git', ['ls-files', '--', '.'], { cwd: SNAPSHOTS, encoding: 'utf8' });
  return out.split('\n').filter(Boolean).sort();
}

function load(name: string) {
  const text = readFileSync(join(DIR, name), 'utf8');
  const parsed = parse(text);
  const converted = astToIr(parsed.script);
  return { text, parsed, converted, diagnostics: [...parsed.diagnostics, ...converted.diagnostics] };
}

describe('DSL corpus', () => {
  it('has the brief, the paper workflows and the upstream scenarios', () => {
    expect(files).toEqual(expect.arrayContaining([
      'brief_promote.t2m', 'brief_illustration.t2m', 'paper_b11_semantic_promotion.t2m', 'paper_b12_incident_postmortem.t2m',
      'scenario_incident_postmortem.t2m', 'scenario_investor_update.t2m', 'scenario_sales_qbr.t2m',
    ]));
  });

  it('has every snapshot on disk and committed, and no snapshot without its script', () => {
    expect(snapshotsOnDisk).toEqual(expectedSnapshots);
    expect(committedSnapshots()).toEqual(expectedSnapshots);
  });

  for (const name of files) {
    describe(name, () => {
      const { text, parsed, converted, diagnostics } = load(name);
      const base = name.replace(/\.t2m$/, '');

      it('parses without diagnostics', () => {
        expect(diagnostics).toEqual([]);
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
    });
  }

  it('gives back the upstream scenario IRs exactly', () => {
    for (const [file, json] of [
      ['scenario_incident_postmortem.t2m', 'workflow_incident_postmortem.json'],
      ['scenario_investor_update.t2m', 'workflow_investor_update.json'],
      ['scenario_sales_qbr.t2m', 'workflow_sales_qbr.json'],
    ]) {
      const upstream = JSON.parse(readFileSync(join(SHARED, 'ir/examples/real_world_scenarios', json), 'utf8'));
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
