/**
 * The store's vocabulary for an agent (the planner's prompt, the MCP server's vocabulary resource): the tags, types and subjects in use, with how many live
 * records carry each, counted over the records the session's actor may read (the same read
 * permissions as Retrieve, and leaving out records whose lock in force denies Retrieve), so the
 * vocabulary never names what a record hidden from the actor is about.
 * One parameterised select (src/compile's target select: live, not expired, readable).
 */
import { compileTargetSelect, decodeRow } from '../compile/index.js';
import { DEFAULT_TENANT } from '../store/columns.js';
import { lockActive, lockDenies } from '../execute/governance.js';
import { schemasIo, type StoredSchema } from '../execute/schemas.js';
import type { AnySqlDriver } from '../store/driver.js';
import { all, type Io } from '../store/io.js';
import type { Store } from '../store/store.js';
import { formatUtc } from '../lower/index.js';

export interface Term {
  readonly value: string;
  readonly count: number;
}

export interface Vocabulary {
  /** Live records the actor may read. */
  readonly records: number;
  readonly tags: readonly Term[];
  readonly types: readonly Term[];
  readonly subjects: readonly Term[];
}

/** Most used first, then alphabetically. */
function terms(counts: Map<string, number>): Term[] {
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

function add(counts: Map<string, number>, v: unknown): void {
  if (typeof v === 'string' && v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
}

/**
 * The vocabulary of the live records of `tenant` that `actor` may read at `now`; each list holds
 * at most `maxValues` values (the caller's row limit), the most used.
 */
export function vocabulary(store: Store, actor: string | undefined, now: Date, tenant: string = DEFAULT_TENANT, maxValues = Infinity): Vocabulary {
  return store.drive(vocabularyIo(store, actor, now, tenant, maxValues));
}

/** `vocabulary` on any store (a PostgreSQL one answers after an await). */
export function vocabularyAsync(store: Store<AnySqlDriver>, actor: string | undefined, now: Date, tenant: string = DEFAULT_TENANT, maxValues = Infinity): Promise<Vocabulary> {
  return store.driveAsync(vocabularyIo(store, actor, now, tenant, maxValues));
}

function* vocabularyIo(store: Store<AnySqlDriver>, actor: string | undefined, now: Date, tenant: string, maxValues: number): Io<Vocabulary> {
  const at = formatUtc(now);
  const select = compileTargetSelect({ all: true, orderBy: 'time_desc' }, store.dialect, { tenant, now: at, applyReadPermissions: true, readerActor: actor ?? null });
  const q = store.dialect.quoteIdent;
  const columns = ['tags', 'type', 'subject', 'lock_mode', 'lock_expires', 'lock_policy'].map(q).join(', ');
  const rows = (yield* all(`SELECT ${columns} FROM (${select.sql}) AS t`, select.params)).map(decodeRow)
    .filter((r) => !(lockActive(r, at) && lockDenies(r, 'Retrieve', actor)));
  const tags = new Map<string, number>();
  const types = new Map<string, number>();
  const subjects = new Map<string, number>();
  for (const row of rows) {
    if (Array.isArray(row.tags)) for (const t of new Set(row.tags)) add(tags, t);
    add(types, row.type);
    add(subjects, row.subject);
  }
  const most = (counts: Map<string, number>) => terms(counts).slice(0, Math.max(0, maxValues));
  return { records: rows.length, tags: most(tags), types: most(types), subjects: most(subjects) };
}

/** The attribute schemas in force for `tenant` (spec/semantics.md "Attribute schemas"): the MCP `facts` resource. */
export function attributeSchemasAsync(store: Store<AnySqlDriver>, tenant: string = DEFAULT_TENANT): Promise<StoredSchema[]> {
  return store.driveAsync(schemasIo(store.dialect, tenant));
}
