/**
 * Concurrent writers on one store file: N processes × M rounds (the first round creates the file) of `t2m run --db same.sqlite`,
 * each script encoding 50 records tagged with its process and round; every third round of each
 * process fails on purpose after its encodes. Every run that exited 0 must have all its records
 * in the store, every failed one none, and no temporary or journal file may be left.
 */
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStoreFile } from '../../src/dialect/sqlite/native.js';
import { tempDir } from '../engine/harness.js';

/** The CLI from its sources, as test/cli/run-cli.ts runs it. */
const CLI = ['--import', 'tsx', resolve(import.meta.dirname, '../../src/cli/main.ts')];
const PROCESSES = 4;
// 3 rounds keep the test near 25 s on a busy machine; T2M_CONCURRENCY_ROUNDS=10 for the full measure.
const ROUNDS = Number(process.env.T2M_CONCURRENCY_ROUNDS ?? 3);
const RECORDS = 50;

function t2mAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...CLI, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

const failing = (round: number) => round % 3 === 2;

describe('concurrent t2m run on one store file', () => {
  it(`${PROCESSES} processes × ${ROUNDS} rounds: committed scripts keep all their records, failed ones leave none`, async () => {
    const dir = tempDir();
    const db = join(dir, 'same.sqlite');
    const scripts: string[][] = [];
    for (let p = 0; p < PROCESSES; p++) {
      scripts.push([]);
      for (let r = 0; r < ROUNDS; r++) {
        const tag = `p${p}r${r}`;
        const lines = Array.from({ length: RECORDS }, (_, i) => `ENCODE "${tag} record ${i}" TAGS "${tag}";`);
        // Fails after its encodes ran: the whole script must roll back.
        if (failing(r)) lines.push('MERGE ID "1";');
        const file = join(dir, `${tag}.t2m`);
        writeFileSync(file, `${lines.join('\n')}\n`);
        scripts[p].push(file);
      }
    }
    // Each process runs its rounds one after another; the processes run side by side.
    const results = await Promise.all(
      scripts.map(async (files, p) => {
        const out: { p: number; r: number; status: number | null; stderr: string }[] = [];
        for (const [r, file] of files.entries()) {
          const res = await t2mAsync(['run', file, '--db', db, '--now', '2025-10-21T00:00:00Z']);
          out.push({ p, r, status: res.status, stderr: res.stderr });
        }
        return out;
      }),
    );
    const runs = results.flat();
    const opened = openStoreFile(db);
    if (!opened.ok) throw new Error(opened.diagnostics[0].message);
    const counts = new Map(opened.store.query(`SELECT tags, COUNT(*) AS n FROM memory GROUP BY tags`).map((r) => [JSON.parse(String(r.tags))[0], Number(r.n)]));
    const total = Number(opened.store.query('SELECT COUNT(*) AS n FROM memory')[0].n);
    const audits = Number(opened.store.query(`SELECT COUNT(*) AS n FROM audit_log`)[0].n);
    opened.store.close();
    const committed = runs.filter((x) => x.status === 0);
    const failed = runs.filter((x) => x.status === 1);
    const tally = { runs: runs.length, committed: committed.length, failed: failed.length, other: runs.length - committed.length - failed.length, records: total, audits };
    console.log('concurrency:', JSON.stringify(tally));
    expect(runs.filter((x) => x.status !== 0 && x.status !== 1).map((x) => x.stderr)).toEqual([]);
    for (const x of runs) {
      expect(x.status, `p${x.p}r${x.r}: ${x.stderr}`).toBe(failing(x.r) ? 1 : 0);
      expect(counts.get(`p${x.p}r${x.r}`) ?? 0, `p${x.p}r${x.r}`).toBe(x.status === 0 ? RECORDS : 0);
    }
    expect(total).toBe(committed.length * RECORDS);
    expect(audits).toBe(committed.length * RECORDS);
    // The last connection to close checkpoints and removes the WAL: only the store file is left.
    expect(readdirSync(dir).filter((f) => !f.endsWith('.t2m'))).toEqual(['same.sqlite']);
  });
});
