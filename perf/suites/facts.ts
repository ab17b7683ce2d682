/**
 * Typed facts at 100k versions (spec/semantics.md "Typed state"): 10,000 keys (subject,
 * attribute) of 10 versions each, written through the engine on sql.js in scripts of 1,000
 * Encodes; then a current-value read `RETRIEVE WHERE subject = s AND attribute = a INCLUDE text`
 * through the whole pipeline, p50/p95 over 500 keys after 50 warm-ups, and the same read
 * `AS OF` a past instant and `KNOWN AT` a past recording time (where the revision has it).
 * Issue 30's target: the current-value read within x1.5 of the revision before transaction time.
 */
import { project, quantile, sizes, SIZED, type Figures, type Suite } from './suite.js';

const KEYS_PER_SUBJECT = 1;
const VERSIONS = 10;
const READS = 500;
const WARMUP = 50;
const DAY = 86_400_000;
const BASE = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';

const suite: Suite = {
  rounds: 1,
  ...SIZED,
  async round(root, flags) {
    const t2m = await project(root);
    const figures: Figures = {};
    for (const size of sizes(flags, [100_000])) {
      const store = await t2m.createStore();
      const keys = Math.max(1, Math.floor(size / VERSIONS / KEYS_PER_SUBJECT));
      // Version v of every key is written in round v, recorded a day later than round v - 1.
      const t0 = performance.now();
      for (let v = 0; v < VERSIONS; v++) {
        for (let from = 0; from < keys; from += 1000) {
          const batch = [];
          for (let k = from; k < Math.min(keys, from + 1000); k++) {
            batch.push({ stage: 'ENC', op: 'Encode', args: { payload: { text: `value ${k}.${v}` }, subject: `s${k}`, attribute: 'deadline', valid_from: iso(BASE + v * DAY) } });
          }
          const res = t2m.run(store, batch, { now: iso(BASE + v * DAY + 3600_000) });
          if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
        }
      }
      figures[`write ${size} facts s`] = (performance.now() - t0) / 1000;
      const read = (k: number, time = '') => [{ stage: 'RET', op: 'Retrieve', target: { filter: { subject: `s${k}`, attribute: 'deadline' } }, args: { include: ['text'], ...(time ? JSON.parse(time) : {}) } }];
      const now = iso(BASE + 30 * DAY);
      const measure = (label: string, time: string, expect: (k: number) => string) => {
        const ms: number[] = [];
        for (let i = 0; i < WARMUP + READS; i++) {
          const k = (i * 7919) % keys;
          const t = performance.now();
          const res = t2m.run(store, read(k, time), { now });
          const dt = performance.now() - t;
          // A revision without the read (KNOWN AT before transaction time) ignores or refuses it:
          // its figures are NaN (both sides of --vs list the same figures).
          if (!res.ok || res.diagnostics.some((d) => d.code === 'ignored-arg')) {
            figures[`${label} ${size} p50 ms`] = figures[`${label} ${size} p95 ms`] = Number.NaN;
            return;
          }
          const got = String(res.results[0].rows?.[0]?.text);
          if (got !== expect(k)) throw new Error(`${label}: key ${k} read ${got}, not ${expect(k)}`);
          if (i >= WARMUP) ms.push(dt);
        }
        figures[`${label} ${size} p50 ms`] = quantile(ms, 0.5);
        figures[`${label} ${size} p95 ms`] = quantile(ms, 0.95);
      };
      measure('current read', '', (k) => `value ${k}.${VERSIONS - 1}`);
      measure('AS OF read', JSON.stringify({ as_of: iso(BASE + 4 * DAY + 60_000) }), (k) => `value ${k}.4`);
      // Known at the recording time of round 4: the versions of rounds 0-4; valid now, the last of them.
      measure('KNOWN AT read', JSON.stringify({ known_at: iso(BASE + 4 * DAY + 3600_000) }), (k) => `value ${k}.4`);
      store.close();
    }
    return figures;
  },
  notes: 'p50/p95 of one read through the whole pipeline (parse-free IR, check, lower, compile, execute) on sql.js in memory. Target (issue 30): the current read within x1.5 of the revision before transaction time.',
};
export default suite;
