/**
 * Load test of the MCP server over HTTP: `npm run perf:serve [-- --clients 16 --calls 200
 * --backends pglite,postgres --json]`.
 *
 * For each backend the harness starts `t2m mcp --http 127.0.0.1:0` (from the sources) on a fresh
 * store — PGlite in a temporary directory, or a database on a PostgreSQL server it starts itself
 * (Debian's binaries, as the tests do: test/support/postgres.ts) — with one token per client,
 * the clients split between two tenants. Every client (the SDK's client, loopback only) makes its
 * calls one after another, all clients at once: encode, retrieve with a search, label, promote,
 * feedback and check, in a fixed mix. It reports calls/s, latency p50/p95/p99 and errors (any
 * error result or exception; there must be none), then stops the server with SIGTERM (it must
 * exit 0) and checks, on the store itself: every acknowledged write is there (each encoded
 * record with its text, tenant and owner; each label), the audit log holds exactly one entry per
 * acknowledged write, by its actor, in its tenant, and no read saw a record of the other tenant.
 * Bounded: `--calls` per client and a deadline per backend (`--timeout`, seconds).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openStoreUrl } from '../src/node.js';
import { Session } from '../src/engine/index.js';
import { freshDatabase, postgresBinaries, sharedPostgres, SKIP_REASON, stopCluster } from '../test/support/postgres.js';

const ROOT = resolve(import.meta.dirname, '..');

interface Options {
  clients: number;
  calls: number;
  backends: string[];
  timeoutS: number;
  json: boolean;
}

function options(argv: string[]): Options {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const int = (name: string, d: number) => {
    const v = Number(get(name) ?? d);
    if (!Number.isSafeInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
    return v;
  };
  return {
    clients: int('clients', 16), calls: int('calls', 200), timeoutS: int('timeout', 600),
    backends: (get('backends') ?? 'pglite,postgres').split(',').filter(Boolean), json: argv.includes('--json'),
  };
}

const TENANTS = ['acme', 'globex'] as const;
const WORDS = ['roadmap', 'invoice', 'deploy', 'meeting', 'incident', 'budget', 'hiring', 'review'];

/** The fixed mix, one slot per call in turn (encodes first so that later calls have ids to use). */
const MIX = ['encode', 'retrieve', 'encode', 'label', 'check', 'retrieve', 'promote', 'encode', 'feedback', 'retrieve'] as const;
type Kind = (typeof MIX)[number];

interface ClientPlan {
  readonly index: number;
  readonly actor: string;
  readonly tenant: string;
  readonly token: string;
}

interface Ledger {
  encoded: Map<number, { text: string; actor: string; tenant: string }>;
  labelled: Map<number, string>;
  /** Acknowledged writes per tenant and op (one audit entry each). */
  writes: Map<string, number>;
  latencies: Map<Kind, number[]>;
  errors: string[];
  /** Reads that returned a record of another tenant. */
  leaks: string[];
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (x: number) => Math.round(x * 10) / 10;

async function startServer(db: string, tokens: string): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'mcp', '--db', db, '--http', '127.0.0.1:0', '--tokens', tokens], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 120 s:\n${stderr}`)), 120_000);
    child.stderr!.on('data', () => {
      const m = / at (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${stderr}`)));
  });
  return { child, url, log: () => stderr };
}

async function clientLoop(plan: ClientPlan, url: string, calls: number, ledger: Ledger, deadline: number): Promise<void> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${plan.token}` } } });
  const client = new Client({ name: `perf-${plan.index}`, version: '1.0.0' });
  await client.connect(transport);
  const own: number[] = [];
  const other = TENANTS.find((t) => t !== plan.tenant)!;
  const acknowledge = (op: string) => {
    const key = `${plan.tenant}\u0000${op}`;
    ledger.writes.set(key, (ledger.writes.get(key) ?? 0) + 1);
  };
  for (let j = 0; j < calls; j++) {
    if (Date.now() > deadline) throw new Error('deadline passed');
    let kind: Kind = MIX[j % MIX.length];
    if (own.length === 0 && (kind === 'label' || kind === 'promote' || kind === 'feedback')) kind = 'encode';
    const word = WORDS[(plan.index + j) % WORDS.length];
    const target = own[(j * 7) % Math.max(1, own.length)];
    const started = performance.now();
    let r: CallToolResult & { structuredContent?: Record<string, any> };
    try {
      switch (kind) {
        case 'encode': {
          const text = `${plan.tenant} ${word} note from ${plan.actor} number ${j}`;
          r = await client.callTool({ name: 'run', arguments: { script: `ENCODE "${text}" TAGS "${word}", "perf" TYPE "note";` } }) as typeof r;
          if (!r.isError) {
            const id = r.structuredContent!.results[0].ids[0] as number;
            own.push(id);
            ledger.encoded.set(id, { text, actor: plan.actor, tenant: plan.tenant });
            acknowledge('Encode');
          }
          break;
        }
        case 'retrieve': {
          r = await client.callTool({ name: 'retrieve', arguments: { query: `${word} note`, limit: 10, include: ['id', 'text'] } }) as typeof r;
          for (const row of (r.structuredContent?.rows ?? []) as Array<{ id: number; text: string }>) {
            if (!row.text.startsWith(`${plan.tenant} `) || row.text.startsWith(`${other} `)) ledger.leaks.push(`${plan.actor} saw #${row.id}`);
          }
          break;
        }
        case 'label': {
          const tag = `seen-by-${plan.index}`;
          r = await client.callTool({ name: 'run', arguments: { script: `LABEL IDS "${target}" TAGS "${tag}";` } }) as typeof r;
          // Labelling a record with a tag it has already changes nothing and writes no audit entry.
          if (!r.isError && r.structuredContent!.results[0].changes.length > 0) {
            ledger.labelled.set(target, tag);
            acknowledge('Label');
          }
          break;
        }
        case 'promote':
          r = await client.callTool({ name: 'run', arguments: { script: `PROMOTE IDS "${target}" BY 0.05;` } }) as typeof r;
          if (!r.isError) acknowledge('Promote');
          break;
        case 'feedback':
          r = await client.callTool({ name: 'feedback', arguments: { ids: [target], reward: (j % 3) / 2 } }) as typeof r;
          if (!r.isError) acknowledge('Promote');
          break;
        case 'check':
          r = await client.callTool({ name: 'check', arguments: { script: `RETRIEVE WHERE tags HAS "${word}" LIMIT 5; ENCODE "draft";` } }) as typeof r;
          break;
      }
    } catch (e) {
      ledger.errors.push(`${plan.actor} ${kind}: ${(e as Error).message}`);
      continue;
    }
    const ms = performance.now() - started;
    if (r.isError) ledger.errors.push(`${plan.actor} ${kind}: ${JSON.stringify(r.structuredContent?.diagnostics ?? r.content).slice(0, 300)}`);
    ledger.latencies.get(kind)!.push(ms);
  }
  await client.close();
}

/** Checks the store against the ledger; returns the problems found. */
async function verify(db: string, ledger: Ledger, plans: ClientPlan[]): Promise<string[]> {
  const opened = await openStoreUrl(db);
  if (!opened.ok) return [`cannot open ${db}: ${opened.diagnostics.map((d) => d.message).join('; ')}`];
  const problems: string[] = [];
  const actorTenant = new Map(plans.map((p) => [p.actor, p.tenant]));
  try {
    for (const tenant of TENANTS) {
      const session = new Session(opened.store, { tenant, actor: 'perf:verifier', impersonate: true, limits: { maxRows: 1_000_000 } });
      const ids = [...ledger.encoded].filter(([, e]) => e.tenant === tenant).map(([id]) => id);
      const read = await session.run([{ stage: 'RET', op: 'Retrieve', target: { ids: ids.map(String) }, args: { include: ['id', 'text', 'tags'] } }]);
      const rows = new Map((read.results[0]?.rows ?? []).map((r) => [Number(r.id), r]));
      for (const id of ids) {
        const row = rows.get(id);
        const want = ledger.encoded.get(id)!;
        if (!row) problems.push(`${tenant}: acknowledged record #${id} is missing`);
        else if (row.text !== want.text) problems.push(`${tenant}: #${id} holds ${JSON.stringify(row.text)}, not ${JSON.stringify(want.text)}`);
        else {
          const tag = ledger.labelled.get(id);
          if (tag && !(row.tags as string[]).includes(tag)) problems.push(`${tenant}: #${id} lost its label ${tag}`);
        }
      }
      const log = await session.auditLog();
      const counted = new Map<string, number>();
      for (const entry of log) {
        counted.set(entry.op, (counted.get(entry.op) ?? 0) + 1);
        if (actorTenant.get(entry.actor ?? '') !== tenant) problems.push(`${tenant}: audit entry ${entry.id} by ${entry.actor}, who is not of this tenant`);
        if (entry.op === 'Encode') {
          const id = entry.affectedIds[0];
          const want = ledger.encoded.get(id);
          if (!want || want.actor !== entry.actor) problems.push(`${tenant}: audit entry ${entry.id} (Encode #${id}) matches no acknowledged encode by ${entry.actor}`);
        }
      }
      for (const op of ['Encode', 'Label', 'Promote']) {
        const want = ledger.writes.get(`${tenant}\u0000${op}`) ?? 0;
        const got = counted.get(op) ?? 0;
        if (want !== got) problems.push(`${tenant}: ${got} ${op} audit entries for ${want} acknowledged`);
      }
      for (const op of counted.keys()) if (!['Encode', 'Label', 'Promote'].includes(op)) problems.push(`${tenant}: unexpected ${op} audit entries`);
    }
  } finally {
    await opened.store.close();
  }
  return problems;
}

interface Figures {
  backend: string;
  clients: number;
  calls: number;
  seconds: number;
  callsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  leaks: number;
  lost: string[];
  byKind: Record<string, { n: number; p50: number; p95: number }>;
  logLines: number;
  exitCode: number | null;
}

async function runBackend(backend: string, o: Options, dir: string): Promise<Figures> {
  let db: string;
  if (backend === 'pglite') db = `pglite:${join(dir, 'pglite')}`;
  else if (backend === 'sqlite') db = join(dir, 'store.sqlite');
  else if (backend === 'postgres') {
    if (!postgresBinaries()) throw new Error(SKIP_REASON);
    await sharedPostgres();
    db = await freshDatabase('t2m_serve');
  } else throw new Error(`unknown backend ${backend} (pglite, postgres, sqlite)`);
  const plans: ClientPlan[] = Array.from({ length: o.clients }, (_, i) => ({
    index: i, actor: `agent-${i}`, tenant: TENANTS[i % TENANTS.length], token: randomBytes(24).toString('base64url'),
  }));
  const tokens = join(dir, `tokens-${backend}.json`);
  writeFileSync(tokens, JSON.stringify(Object.fromEntries(plans.map((p) => [p.token, { actor: p.actor, tenant: p.tenant }]))));
  chmodSync(tokens, 0o600);
  const server = await startServer(db, tokens);
  const ledger: Ledger = { encoded: new Map(), labelled: new Map(), writes: new Map(), latencies: new Map(MIX.map((k) => [k, []])), errors: [], leaks: [] };
  const deadline = Date.now() + o.timeoutS * 1000;
  const started = performance.now();
  let seconds: number;
  let exitCode: number | null;
  try {
    const results = await Promise.allSettled(plans.map((p) => clientLoop(p, server.url, o.calls, ledger, deadline)));
    for (const r of results) if (r.status === 'rejected') ledger.errors.push(String((r.reason as Error)?.message ?? r.reason));
    seconds = (performance.now() - started) / 1000;
  } finally {
    // A graceful stop: the server must finish what is in flight and exit 0.
    exitCode = await new Promise<number | null>((r) => {
      server.child.once('exit', (code) => r(code));
      server.child.kill('SIGTERM');
    });
  }
  const lost = await verify(db, ledger, plans);
  const all = [...ledger.latencies.values()].flat().sort((a, b) => a - b);
  const byKind = Object.fromEntries([...ledger.latencies].map(([k, v]) => {
    const s = [...v].sort((a, b) => a - b);
    return [k, { n: s.length, p50: round(percentile(s, 50)), p95: round(percentile(s, 95)) }];
  }));
  const logLines = server.log().split('\n').filter((l) => / tool=\w+ .*outcome=/.test(l) && !/ tool=- /.test(l)).length;
  if (ledger.errors.length) process.stderr.write(`${backend}: first errors:\n  ${ledger.errors.slice(0, 5).join('\n  ')}\n`);
  return {
    backend, clients: o.clients, calls: all.length, seconds: round(seconds), callsPerSecond: round(all.length / seconds),
    p50: round(percentile(all, 50)), p95: round(percentile(all, 95)), p99: round(percentile(all, 99)),
    errors: ledger.errors.length, leaks: ledger.leaks.length, lost, byKind, logLines, exitCode,
  };
}

const o = options(process.argv.slice(2));
const dir = mkdtempSync(join(tmpdir(), 't2m-serve-'));
const figures: Figures[] = [];
let failed = false;
try {
  for (const backend of o.backends) {
    process.stderr.write(`perf:serve: ${backend}: ${o.clients} clients × ${o.calls} calls…\n`);
    const f = await runBackend(backend, o, dir);
    figures.push(f);
    const ok = f.errors === 0 && f.leaks === 0 && f.lost.length === 0 && f.exitCode === 0 && f.logLines === f.calls;
    if (!ok) failed = true;
    if (!o.json) {
      process.stdout.write(`${backend}: ${f.calls} calls in ${f.seconds} s = ${f.callsPerSecond} calls/s; latency ms p50 ${f.p50}, p95 ${f.p95}, p99 ${f.p99}; errors ${f.errors}; cross-tenant reads ${f.leaks}; `
        + `store check: ${f.lost.length ? `${f.lost.length} problems` : 'every acknowledged write present, audit entries match'}; log lines ${f.logLines}; exit ${f.exitCode}\n`);
      for (const [k, v] of Object.entries(f.byKind)) process.stdout.write(`  ${k.padEnd(9)} n=${String(v.n).padStart(4)}  p50 ${v.p50} ms  p95 ${v.p95} ms\n`);
      for (const p of f.lost.slice(0, 10)) process.stdout.write(`  ! ${p}\n`);
    }
  }
} finally {
  const pgDir = process.env.T2M_PG_RUN_DIR;
  if (pgDir && o.backends.includes('postgres')) stopCluster(pgDir);
  rmSync(dir, { recursive: true, force: true });
}
if (o.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
process.exit(failed ? 1 : 0);
