/**
 * Store files (Node only): the better-sqlite3 driver and opening a store file with it. The file
 * is written in place, one transaction per script, in WAL mode with a busy timeout, so
 * concurrent processes take turns instead of losing work; the file keeps its mode, owner and
 * symlinks. Never imported by the browser-safe entry (src/index.ts). See spec/storage.md.
 */
import { accessSync, closeSync, constants, existsSync, openSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { Code, Diagnostic } from '../../diagnostics/diagnostic.js';
import type { SqlValue } from '../../store/dialect.js';
import type { SqlDriver, SqlParams, SqlRow } from '../../store/driver.js';
import { Store, type OpenResult, type StoreParts } from '../../store/store.js';
import { sqlite } from './dialect.js';
import { prepareStore, type PrepareOptions } from './open.js';

// The CLI bundle holds better-sqlite3's JavaScript (scripts/bundle-cli.mjs), read from V8's code
// cache with the rest of the CLI, instead of a dozen files Node would compile at every start; its
// native addon is loaded from the installed package (`nativeBinding`).
type Db = Database.Database;
const requireHere = createRequire(import.meta.url);

/**
 * better-sqlite3's native addon in the installed package: the first of the three places the
 * `bindings` package tries first, in its order, else where `bindings` finds it from the package's
 * root. Passed to each database as `nativeBinding`, so that better-sqlite3 does not call
 * `bindings` itself: that reads the caller's file from a stack trace (in the bundle, the bundle's,
 * not the package's) and requires candidate paths until one loads, each miss a thrown error (about
 * 5 ms of every start that opens a store). Undefined when neither finds it: better-sqlite3 then
 * looks for it as usual, and the error it gives is the one a store cannot be opened with.
 */
const nativeBinding = ((): string | undefined => {
  try {
    const root = dirname(requireHere.resolve('better-sqlite3/package.json'));
    const built = [['build'], ['build', 'Debug'], ['build', 'Release']].map((dir) => join(root, ...dir, 'better_sqlite3.node')).find((file) => existsSync(file));
    if (built !== undefined) return built;
    const bindings = createRequire(join(root, 'package.json'))('bindings') as (options: object) => string;
    return bindings({ bindings: 'better_sqlite3.node', module_root: root, path: true });
  } catch {
    return undefined;
  }
})();

/** A better-sqlite3 database on the addon found above. */
function openDatabase(filename: string, options: Database.Options = {}): Db {
  return new Database(filename, nativeBinding === undefined ? options : { ...options, nativeBinding });
}
type Stmt = Database.Statement<unknown[], unknown>;

/** better-sqlite3 binds every JS number as REAL; sql.js binds whole numbers as INTEGER. Match sql.js. */
function value(v: SqlValue): SqlValue | bigint | Buffer {
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : v;
}

/** The arguments of a better-sqlite3 call: positional values, or one object of named ones. */
function bindable(params: SqlParams | undefined): unknown[] {
  if (!params) return [];
  if (Array.isArray(params)) {
    const out = new Array<unknown>(params.length);
    for (let i = 0; i < params.length; i++) out[i] = value(params[i]);
    return out;
  }
  const named: Record<string, unknown> = {};
  const given = params as Readonly<Record<string, SqlValue>>;
  for (const k in given) named[k] = value(given[k]);
  return [named];
}

/** Prepared statements kept per database (the least recently used go first). */
const CACHED_STATEMENTS = 500;

/** A row object from a row read as an array (better-sqlite3's `raw` mode), its columns in order. */
type RowMaker = (values: readonly unknown[]) => SqlRow;

/** Row makers by column list (`\0`-joined names): statements with the same columns share one, so its object literal keeps one shape. */
const rowMakers = new Map<string, RowMaker>();
const ROW_MAKERS = 1000;

/**
 * The row maker for these columns: an object literal with the columns as keys in their order,
 * which V8 builds from one boilerplate (half the time of better-sqlite3's own row objects on
 * Node 20, which set the 53 columns of a memory row one by one and look each name up again for
 * every row). It makes the same objects: a later column of the same name overwrites the value
 * and keeps the first one's place, and a column named `__proto__` sets the prototype when its
 * value is an object (a blob), as better-sqlite3's property stores do (test/store/drivers.test.ts).
 */
function rowMaker(names: readonly string[]): RowMaker {
  const key = names.join('\0');
  let make = rowMakers.get(key);
  if (!make) {
    // The names are data from SQLite, quoted as JSON strings; nothing else reaches the text.
    make = new Function('v', `return {${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')}};`) as RowMaker;
    if (rowMakers.size >= ROW_MAKERS) rowMakers.clear();
    rowMakers.set(key, make);
  }
  return make;
}

/**
 * A cached statement. One that returns rows reads them as arrays and makes its objects with
 * `row`, made for the columns it had when prepared. SQLite prepares a statement again by itself
 * when the schema changed; a `SELECT *` then has other columns: an array of another length
 * makes `row` again, and a schema change on this connection (`ddl`) forgets every cached
 * statement, so a renamed column is seen too.
 */
interface Prepared {
  readonly stmt: Stmt;
  row: RowMaker | undefined;
  width: number;
  readonly ddl: boolean;
}

const DDL = /^\s*(?:CREATE|ALTER|DROP)\b/i;

export class NativeDriver implements SqlDriver {
  readonly kind = 'better-sqlite3';
  private readonly prepared = new Map<string, Prepared>();

  constructor(readonly db: Db, readonly location: string) {}

  private statement(sql: string): Prepared {
    let s = this.prepared.get(sql);
    if (s) {
      // Most recently used last: the Map's order is the eviction order.
      this.prepared.delete(sql);
    } else {
      const stmt = this.db.prepare<unknown[], unknown>(sql);
      s = { stmt, row: undefined, width: 0, ddl: !stmt.reader && DDL.test(sql) };
      if (stmt.reader) {
        stmt.raw(true);
        this.columnsOf(s);
      }
      if (this.prepared.size >= CACHED_STATEMENTS) this.prepared.delete(this.prepared.keys().next().value!);
    }
    this.prepared.set(sql, s);
    return s;
  }

  private columnsOf(s: Prepared): RowMaker {
    const names = s.stmt.columns().map((c) => c.name);
    s.width = names.length;
    return (s.row = rowMaker(names));
  }

  all(sql: string, params?: SqlParams): SqlRow[] {
    const s = this.statement(sql);
    if (!s.row) {
      this.write(s, params);
      return [];
    }
    const rows = s.stmt.all(...bindable(params)) as unknown[][];
    const row = rows.length && rows[0].length !== s.width ? this.columnsOf(s) : s.row;
    for (let i = 0; i < rows.length; i++) rows[i] = row(rows[i]) as unknown as unknown[];
    return rows as unknown as SqlRow[];
  }

  /** Runs a statement that returns no rows; after a schema change every cached statement is prepared again on its next use. */
  private write(s: Prepared, params?: SqlParams): number {
    const changes = s.stmt.run(...bindable(params)).changes;
    if (s.ddl) this.prepared.clear();
    return changes;
  }

  run(sql: string, params?: SqlParams): number {
    return this.write(this.statement(sql), params);
  }

  /** One statement (no `;`) goes through the statement cache (savepoints come often); other text is run as given. */
  exec(sql: string): void {
    if (sql.includes(';') || !sql.trim()) {
      this.db.exec(sql);
      this.prepared.clear();
    } else this.write(this.statement(sql));
  }

  /** BEGIN IMMEDIATE: the write lock is taken at once (waiting up to the busy timeout), so two writers never deadlock on an upgrade. */
  begin(): void {
    this.statement('BEGIN IMMEDIATE').stmt.run();
  }

  commit(): void {
    this.statement('COMMIT').stmt.run();
  }

  rollback(): void {
    if (this.db.inTransaction) this.statement('ROLLBACK').stmt.run();
  }

  scratch(): SqlDriver {
    return new NativeDriver(openDatabase(':memory:'), ':memory:');
  }

  close(): void {
    this.prepared.clear();
    if (this.db.open) this.db.close();
  }
}

export interface StoreFileOptions extends Omit<StoreParts, 'dialect'>, Pick<PrepareOptions, 'integrity'> {
  /** How long to wait for another process's transaction before giving up (default: $T2M_BUSY_TIMEOUT_MS, else 10 s). */
  readonly busyTimeoutMs?: number;
  /** Open for reading only (no migration, no new file); used by `t2m audit`. */
  readonly readOnly?: boolean;
}

export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

const fail = (code: Code, message: string): Diagnostic => ({ code, severity: 'error', message });

/** True when the file cannot be written by this process (root ignores mode bits: a file with no write bit counts as read-only). */
export function isReadOnlyFile(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
  } catch {
    return true;
  }
  return (statSync(path).mode & 0o222) === 0;
}

/**
 * Opens (or creates) a store file with the native driver: WAL, `synchronous=FULL`, a busy
 * timeout, an integrity check, the schema check and version migration (./open.ts).
 */
export function openStoreFile(path: string, options: StoreFileOptions = {}): OpenResult {
  const exists = existsSync(path);
  if (exists && statSync(path).isDirectory()) return { ok: false, diagnostics: [fail('store-unreadable', `${path} is a directory, not a store file`)] };
  if (!exists && options.readOnly) return { ok: false, diagnostics: [fail('store-unreadable', `${path} does not exist`)] };
  const readOnly = options.readOnly === true;
  if (exists && !readOnly && isReadOnlyFile(path)) {
    return { ok: false, diagnostics: [fail('store-read-only', `${path} is read-only: nothing was changed (make it writable, or copy it, to write to it)`)] };
  }
  // A new store is the owner's alone (0600): created empty here, before SQLite opens it, since
  // SQLite gives its -wal, -shm and -journal files the mode of the database file.
  if (!exists && !readOnly) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
    } catch {
      // Created meanwhile by another process (kept as it is), or not creatable: SQLite says why.
    }
  }
  let db: Db;
  try {
    db = openDatabase(path, { readonly: readOnly, fileMustExist: readOnly, timeout: options.busyTimeoutMs ?? (Number(process.env.T2M_BUSY_TIMEOUT_MS) || DEFAULT_BUSY_TIMEOUT_MS) });
  } catch (e) {
    return { ok: false, diagnostics: [fail('store-unreadable', `cannot open store ${path}: ${(e as Error).message}`)] };
  }
  const driver = new NativeDriver(db, path);
  const refuse = (diagnostics: readonly Diagnostic[]): OpenResult => {
    driver.close();
    return { ok: false, diagnostics: diagnostics.map((d) => ({ ...d, message: `${path} is ${d.message}` })) };
  };
  try {
    // Refuse what is not SQLite before changing the journal mode (which would write the header).
    db.pragma('schema_version');
    if (!readOnly) {
      // WAL: readers do not block the writer, commits append to the -wal file. FULL: each
      // commit is fsynced, so a committed script survives a power loss.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
    }
    db.pragma('foreign_keys = OFF');
    db.pragma('trusted_schema = OFF');
    // Erasure at rest: deleted content is overwritten with zeros, not left in freed pages of the
    // file (spec/semantics.md "Retention"; its cost in docs/performance.md).
    db.pragma('secure_delete = ON');
  } catch (e) {
    return refuse([classify(e as Error)]);
  }
  let problems: Diagnostic[];
  try {
    problems = prepareStore(driver, sqlite, { readOnly, integrity: options.integrity });
  } catch (e) {
    return refuse([classify(e as Error)]);
  }
  if (problems.length) return refuse(problems);
  return { ok: true, store: new Store(driver, { embedder: options.embedder, summarizer: options.summarizer, dialect: sqlite }) };
}

/**
 * An empty store in memory on the native driver (`:memory:`): what `t2m bench` runs its samples
 * on in Node (no wasm, no JavaScript binding layer). Gone when closed; the browser and
 * `--db :memory:` use sql.js (./store.ts `openStore`).
 */
export function openMemoryStore(options: Omit<StoreParts, 'dialect'> = {}): Store {
  const db = openDatabase(':memory:');
  db.pragma('foreign_keys = OFF');
  db.pragma('trusted_schema = OFF');
  db.pragma('secure_delete = ON');
  const driver = new NativeDriver(db, ':memory:');
  const problems = prepareStore(driver, sqlite, { integrity: 'none' });
  if (problems.length) {
    driver.close();
    throw new Error(`internal: cannot prepare an empty in-memory store: ${problems.map((p) => p.message).join('; ')}`);
  }
  return new Store(driver, { embedder: options.embedder, summarizer: options.summarizer, dialect: sqlite });
}

/** True for an error SQLite reported (through better-sqlite3); other errors are bugs and are rethrown. */
export function isSqliteError(e: unknown): e is Error & { code: string } {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && (e as unknown as { code: string }).code.startsWith('SQLITE_');
}

/** A diagnostic for an error the driver threw while opening or writing a store file. */
export function classify(e: Error): Diagnostic {
  const code = (e as { code?: string }).code ?? '';
  const m = e.message;
  if (code === 'SQLITE_NOTADB' || /not a database/i.test(m)) return fail('bad-store-file', `not an SQLite database, or a corrupt one (${m})`);
  if (code.startsWith('SQLITE_CORRUPT') || /malformed/i.test(m)) return fail('store-corrupt', `corrupt (${m}); restore it from a backup, or recover it with the sqlite3 shell's .recover`);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return fail('store-busy', `busy: another process held it longer than the busy timeout (${m}); nothing was changed`);
  if (code.startsWith('SQLITE_READONLY')) return fail('store-read-only', `read-only (${m}); nothing was changed`);
  return fail('store-unwritable', `not writable (${m})`);
}

/** The first API's name for `openStoreFile`, kept for its callers (the Node entry exports it). */
export async function loadStoreFile(path: string, options: StoreFileOptions = {}): Promise<OpenResult> {
  return openStoreFile(path, options);
}

/** @deprecated A store file is written in place: each committed script is the save. Returns null. */
export function saveStoreFile(_store: Store, _path: string): Diagnostic | null {
  return null;
}
