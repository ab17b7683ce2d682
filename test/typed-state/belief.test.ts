/** examples/typed-state/belief.t2m: both time axes, run through the CLI exactly as its README says. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { t2m } from '../cli/run-cli.js';

const FILE = resolve(import.meta.dirname, '../../examples/typed-state/belief.t2m');
const REPLAY = ['--now', '2026-06-01T09:00:00Z', '--tick', 'P1D'];

describe('examples/typed-state/belief.t2m', () => {
  it('t2m run … --json: the deadline on June 2 as believed before the correction (2026-07-15), then as believed now (2026-06-30)', () => {
    const r = t2m(['run', FILE, ...REPLAY, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const results = JSON.parse(r.stdout).results as { rows: { text: string; episode: string }[] }[];
    expect(results.slice(-2).map((x) => x.rows.map((row) => [row.text, row.episode]))).toEqual([[['2026-07-15', 'e1']], [['2026-06-30', 'e2']]]);
    // The schema declaration is statement 3; the ill-typed value after it is refused (a dry run: nothing written) with its fix.
    const refused = (results[3] as unknown as { ids: number[]; warnings: { code: string; fix?: { edits?: { text: string }[] } }[] });
    expect(refused.ids).toEqual([]);
    expect(refused.warnings.map((w) => w.code)).toEqual(['fact-type-mismatch']);
    expect(JSON.stringify(refused.warnings[0].fix)).toContain('2026-06-30');
    // HISTORY shows both intervals: the first version is valid at no instant now, and was believed until the correction was recorded.
    const history = results.at(-3)!.rows;
    expect(history).toEqual([
      { id: 1, text: '2026-07-15', valid_from: '2026-06-01T09:00:00Z', valid_to: '2026-06-01T09:00:00Z', believed_from: '2026-06-01T09:00:00Z', believed_to: '2026-06-02T09:00:00Z', episode: 'e1' },
      { id: 2, text: '2026-06-30', valid_from: '2026-06-01T09:00:00Z', valid_to: null, believed_from: '2026-06-02T09:00:00Z', believed_to: null, episode: 'e2' },
    ]);
  });

  it('without a tick both values are recorded at one instant: the evening of June 1 already knows the correction', () => {
    const r = t2m(['run', FILE, '--now', '2026-06-01T09:00:00Z', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const results = JSON.parse(r.stdout).results as { rows: { text: string }[] }[];
    expect(results.slice(-2).map((x) => x.rows.map((row) => row.text))).toEqual([['2026-06-30'], ['2026-06-30']]);
  });

  it('t2m why shows when each version was believed; a bad tick is refused', () => {
    const db = join(mkdtempSync(join(tmpdir(), 't2m-belief-')), 'belief.sqlite');
    expect(t2m(['run', FILE, ...REPLAY, '--db', db]).status).toBe(0);
    const w = t2m(['why', '2', '--db', db]);
    expect(w.status, w.stderr).toBe(0);
    expect(w.stdout).toContain('believed 2026-06-02T09:00:00Z .. now');
    expect(w.stdout).toContain('believed 2026-06-01T09:00:00Z .. 2026-06-02T09:00:00Z');
    const bad = t2m(['run', FILE, '--now', '2026-06-01T09:00:00Z', '--tick', 'soon', '--json']);
    expect(bad.status).not.toBe(0);
    expect(bad.stdout + bad.stderr).toContain('invalid-duration');
  });
});
