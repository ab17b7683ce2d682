/**
 * A throwaway PostgreSQL server for tests, shared by every test file of one vitest run: the first
 * file that asks for it runs `initdb` in a temp directory and `pg_ctl start` on a free loopback
 * port, as an unprivileged OS user (`t2mpg`, created when missing: PostgreSQL refuses to run as
 * root), with trust authentication for that user on 127.0.0.1 only. Each file then works in a
 * fresh database of its own. The global teardown (test/support/postgres-global.ts) stops and
 * removes the cluster. Binaries: `pg_config --bindir`, else /usr/lib/postgresql/<n>/bin; when
 * none is installed, `postgresBinaries()` is null and the server tests skip saying so.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, chownSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const PG_USER = 't2mpg';

/** The directory holding initdb/pg_ctl, or null when PostgreSQL is not installed. */
export function postgresBinaries(): string | null {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch { /* no pg_config on the path */ }
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  } catch { /* not installed */ }
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) ?? null;
}

export const SKIP_REASON = 'PostgreSQL binaries (initdb, pg_ctl) are not installed: apt-get install -y postgresql (.ci/run does)';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function ensureUser(): { uid: number; gid: number } | null {
  if (!isRoot()) return null;
  if (spawnSync('id', ['-u', PG_USER]).status !== 0) {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', PG_USER], { stdio: 'ignore' });
  }
  const uid = Number(execFileSync('id', ['-u', PG_USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', PG_USER], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** Runs a PostgreSQL binary, as `t2mpg` when we are root. */
function pgRun(bin: string, tool: string, args: string[]): void {
  const cmd = isRoot() ? ['runuser', '-u', PG_USER, '--', join(bin, tool), ...args] : [join(bin, tool), ...args];
  const r = spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8', cwd: '/' });
  if (r.status !== 0) throw new Error(`${tool} failed (${r.status}): ${r.stderr || r.stdout}`);
}

export interface PgServer {
  /** `postgres://t2mpg@127.0.0.1:<port>/postgres`: the maintenance database. */
  readonly adminUrl: string;
  readonly port: number;
  readonly dir: string;
}

/** The run directory shared with the global setup, or one of our own when run without it. */
function runDir(): string {
  const dir = process.env.T2M_PG_RUN_DIR ?? mkdtempSync(join(tmpdir(), 't2m-pg-run-'));
  process.env.T2M_PG_RUN_DIR = dir;
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Starts a cluster in `dir/cluster` (initdb, configuration, pg_ctl start) and returns its port. */
async function startCluster(bin: string, dir: string): Promise<number> {
  const user = ensureUser();
  const cluster = join(dir, 'cluster');
  mkdirSync(cluster, { recursive: true });
  chmodSync(dir, 0o755);
  if (user) chownSync(cluster, user.uid, user.gid);
  chmodSync(cluster, 0o700);
  pgRun(bin, 'initdb', ['-D', cluster, '-U', PG_USER, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  writeFileSync(join(cluster, 'pg_hba.conf'), `local all ${PG_USER} trust\nhost all ${PG_USER} 127.0.0.1/32 trust\n`);
  const conf = [
    `listen_addresses = '127.0.0.1'`, `port = ${port}`, `unix_socket_directories = '${cluster}'`,
    'fsync = off', 'synchronous_commit = off', 'full_page_writes = off', 'max_connections = 60', `shared_buffers = '64MB'`,
  ];
  writeFileSync(join(cluster, 'postgresql.auto.conf'), conf.join('\n') + '\n');
  if (user) {
    chownSync(join(cluster, 'pg_hba.conf'), user.uid, user.gid);
    chownSync(join(cluster, 'postgresql.auto.conf'), user.uid, user.gid);
  }
  pgRun(bin, 'pg_ctl', ['-D', cluster, '-l', join(cluster, 'server.log'), '-w', '-t', '60', 'start']);
  return port;
}

let shared: Promise<PgServer> | undefined;

/**
 * The run's server, started on first use. Files in other workers wait for the one that starts
 * it (a `mkdir` lock in the run directory, then `server.json`).
 */
export function sharedPostgres(): Promise<PgServer> {
  shared ??= (async () => {
    const bin = postgresBinaries();
    if (!bin) throw new Error(SKIP_REASON);
    const dir = runDir();
    const info = join(dir, 'server.json');
    let owner = false;
    try {
      mkdirSync(join(dir, 'lock'));
      owner = true;
    } catch { /* another worker starts it */ }
    if (owner) {
      try {
        const port = await startCluster(bin, dir);
        writeFileSync(info, JSON.stringify({ port, bin }));
      } catch (e) {
        writeFileSync(info, JSON.stringify({ error: (e as Error).message }));
        throw e;
      }
    } else {
      const until = Date.now() + 120_000;
      while (!existsSync(info)) {
        if (Date.now() > until) throw new Error('timed out waiting for the shared PostgreSQL server');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const parsed = JSON.parse(readFileSync(info, 'utf8')) as { port?: number; error?: string };
    if (parsed.error) throw new Error(parsed.error);
    const port = parsed.port!;
    return { adminUrl: `postgres://${PG_USER}@127.0.0.1:${port}/postgres`, port, dir };
  })();
  return shared;
}

/** A fresh database on the shared server; returns its URL. */
export async function freshDatabase(prefix = 't2m'): Promise<string> {
  const server = await sharedPostgres();
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`.toLowerCase();
  const client = new pg.Client({ connectionString: server.adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return `postgres://${PG_USER}@127.0.0.1:${server.port}/${name}`;
}

/** Stops the cluster in `dir` (if one was started) and removes the directory. */
export function stopCluster(dir: string): void {
  const info = join(dir, 'server.json');
  if (existsSync(info)) {
    const { bin } = JSON.parse(readFileSync(info, 'utf8')) as { bin?: string };
    if (bin) {
      try {
        pgRun(bin, 'pg_ctl', ['-D', join(dir, 'cluster'), '-m', 'immediate', '-w', 'stop']);
      } catch { /* already stopped */ }
    }
  }
  rmSync(dir, { recursive: true, force: true });
}
