/**
 * Fact versions as a state machine (spec/semantics.md "Fact versions"). A key's chain is a
 * function of its live versions: ordered by (valid_from, id), each one's `valid_to` is the next
 * one's `valid_from` (open for the last) and its `supersedes` the previous one's id. Every change
 * of the set — a version written, retracted (deleted) or restored (undo) — re-derives the links,
 * so that for any (tenant, subject, attribute) and any instant at most one version is valid.
 * Changing a link is a write to that version: its lock applies.
 */
import { compileFactVersions, compileUpdateById, decodeRow } from '../compile/index.js';
import type { Dialect } from '../store/dialect.js';
import type { FactWrite } from '../lower/operation.js';
import type { Op } from '../ir/schema.js';
import { all as ioAll, run as ioRun, type Io } from '../store/io.js';
import { checkWrite, type WriteRefusal } from './governance.js';
import type { Execution } from './execution.js';
import type { Change, Row } from './rows.js';

/** A fact's key within a tenant. */
export interface FactKey {
  readonly subject: string;
  readonly attribute: string;
}

/** The key of a record that is a fact version (it has a subject and an attribute). */
export function factKeyOf(row: Readonly<Record<string, unknown>>): FactKey | undefined {
  return typeof row.subject === 'string' && typeof row.attribute === 'string' ? { subject: row.subject, attribute: row.attribute } : undefined;
}

/** The distinct keys of the fact versions among `rows`. */
export function factKeysOf(rows: readonly Readonly<Record<string, unknown>>[]): FactKey[] {
  const seen = new Map<string, FactKey>();
  for (const r of rows) {
    const k = factKeyOf(r);
    if (k) seen.set(JSON.stringify([k.subject, k.attribute]), k);
  }
  return [...seen.values()];
}

const from = (v: Readonly<Record<string, unknown>>): string => String(v.valid_from ?? '');

/**
 * The link changes that make `versions` (the live versions of one key) a chain: for each version
 * whose `valid_to` or `supersedes` differs from what its place gives, the columns to set.
 */
export function chainLinks(versions: readonly Row[]): { row: Row; set: Record<string, unknown> }[] {
  const ordered = [...versions].sort((a, b) => (from(a) < from(b) ? -1 : from(a) > from(b) ? 1 : Number(a.id) - Number(b.id)));
  const out: { row: Row; set: Record<string, unknown> }[] = [];
  for (let i = 0; i < ordered.length; i++) {
    const row = ordered[i];
    const validTo = i + 1 < ordered.length ? ordered[i + 1].valid_from ?? null : null;
    const supersedes = i > 0 ? Number(ordered[i - 1].id) : null;
    const set: Record<string, unknown> = {};
    if ((row.valid_to ?? null) !== validTo) set.valid_to = validTo;
    if ((row.supersedes ?? null) !== supersedes) set.supersedes = supersedes;
    if ('valid_to' in set || 'supersedes' in set) out.push({ row, set });
  }
  return out;
}

/** Re-links the chains of `keys` in the statement (staged updates: locks apply, images recorded). */
export function* relink(x: Execution, keys: readonly FactKey[]): Io<void> {
  for (const key of keys) {
    if (x.refusal) return;
    const versions = yield* x.query(compileFactVersions(key.subject, key.attribute, x.store.dialect, x.op.tenant));
    for (const { row, set } of chainLinks(versions)) x.stage(row, set);
    yield* x.flush();
  }
}

/**
 * Writes a fact version (an Encode of a fact): inserted, then its key re-linked, so it lands in
 * its place in history — the version valid at its `valid_from` is closed there, and a later one
 * bounds it. All in the statement's transaction; a lock on a version whose link changes refuses it.
 */
export function* writeVersion(x: Execution, fact: FactWrite, values: Record<string, unknown>): Io<number> {
  // Its own links are set before the insert (the usual case needs no update of the new row).
  const versions = yield* x.query(compileFactVersions(fact.subject, fact.attribute, x.store.dialect, x.op.tenant));
  const before = versions.filter((v) => from(v) <= fact.validFrom);
  const next = versions.find((v) => from(v) > fact.validFrom);
  values.valid_to = next?.valid_from ?? null;
  values.supersedes = before.length ? before[before.length - 1].id : null;
  const id = yield* x.insert(values);
  // The key's chain with the new version in it, from the versions read above (no second read).
  const row = { ...values, id } as Row;
  for (const link of chainLinks([...versions, row])) x.stage(link.row, link.set);
  yield* x.flush();
  return id;
}

/**
 * After records left the chain (soft or hard deletion): their keys' remaining versions re-linked,
 * so the neighbours of a retracted version close over it (or the previous one reopens).
 */
export function* retracted(x: Execution, rows: readonly Row[]): Io<void> {
  yield* relink(x, factKeysOf(rows));
}

/**
 * Why a write may not make `changes` to `row`, or null: a fact version's text is its value and
 * its subject part of its key, neither changed in place (a changed value is a new version; a
 * moved version would bypass the chain and the locks of the key it enters). The reason carries
 * the fix: the statements that do it.
 */
export function factEditRefusal(row: Readonly<Record<string, unknown>>, changes: Readonly<Record<string, unknown>>): { message: string; field: string } | null {
  const key = factKeyOf(row);
  if (!key) return null;
  const textChanged = 'text' in changes && changes.text !== row.text;
  const subjectChanged = 'subject' in changes && changes.subject !== row.subject;
  if (!textChanged && !subjectChanged) return null;
  const text = JSON.stringify(textChanged ? String(changes.text ?? '') : String(row.text ?? ''));
  const subject = JSON.stringify(subjectChanged ? String(changes.subject ?? '') : key.subject);
  const validFrom = typeof row.valid_from === 'string' ? ` VALID FROM ${row.valid_from}` : '';
  const field = textChanged ? 'text' : 'subject';
  const what = textChanged ? 'its text is the value' : 'its subject is part of its key';
  return {
    field,
    message: `memory #${String(row.id)} is a version of fact (${JSON.stringify(key.subject)}, ${JSON.stringify(key.attribute)}) and ${what}, which no write changes in place; `
      + `write a new version instead: ENCODE ${text} SUBJECT ${subject} ATTRIBUTE ${JSON.stringify(key.attribute)}${validFrom}`
      + `${subjectChanged ? `, then retract this one: DELETE IDS "${String(row.id)}"` : ' (it supersedes this one from then; DELETE IDS retracts a version)'}`,
  };
}

/**
 * `relink` outside a statement (undo, the sweep): the chains of `keys` re-derived with direct
 * updates, each judged by `checkWrite` as a write by `actor` acting as `op`. The changes made,
 * or the first refusal (that key is left as it was; the caller rolls back or keeps the others).
 */
export function* relinkIo(d: Dialect, tenant: string, keys: readonly FactKey[], now: string, actor: string | undefined, op: Op): Io<{ changes: Change[] } | { refusal: WriteRefusal }> {
  const changes: Change[] = [];
  for (const key of keys) {
    const s = compileFactVersions(key.subject, key.attribute, d, tenant);
    const versions = (yield* ioAll(s.sql, s.params)).map(decodeRow) as Row[];
    const links = chainLinks(versions);
    // Every version of the key first, by the one effects check (retention and locks; a link is
    // history the store keeps, not the actor's write, so no permission check): a refused key is
    // left as it was.
    for (const { row, set } of links) {
      const refused = checkWrite(row, set, op, actor, now, false);
      if (refused) return { refusal: refused };
    }
    for (const { row, set } of links) {
      const u = compileUpdateById(Number(row.id), { ...set, updated_at: now }, d, tenant);
      yield* ioRun(u.sql, u.params);
      changes.push({ id: Number(row.id), before: Object.fromEntries(Object.keys(set).map((k) => [k, row[k] ?? null])), after: set });
    }
  }
  return { changes };
}

/** Adds `more` to `changes`: a record already there gets the new columns in its images (one image per record). */
export function mergeChanges(changes: Change[], more: readonly Change[]): void {
  for (const c of more) {
    const same = changes.find((x) => x.id === c.id);
    if (same && same.before && same.after) Object.assign(same.before, c.before), Object.assign(same.after, c.after);
    else if (!same) changes.push(c);
  }
}

/** The spells an undo ended in which `row` was retracted (`"from/to"` instants), oldest first. */
export function retractionsOf(row: Readonly<Record<string, unknown>>): string[] {
  return Array.isArray(row.retractions) ? row.retractions.filter((s): s is string => typeof s === 'string') : [];
}

/**
 * Was `row` believed at transaction time `t`: recorded by then (`created_at`), not retracted by
 * then (`deleted_at`), and in no spell of retraction an undo ended — the condition the compiler's
 * `KNOWN AT` read writes in SQL.
 */
export function believedAt(row: Readonly<Record<string, unknown>>, t: string): boolean {
  if (!(String(row.created_at ?? '') <= t)) return false;
  if (row.deleted === 1 && !(typeof row.deleted_at === 'string' && row.deleted_at > t)) return false;
  return !retractionsOf(row).some((s) => s.slice(0, 20) <= t && s.slice(21) > t);
}

/** The chain of one key's versions believed at `t`: each version's `valid_to` and `supersedes` as they stood then. */
export function chainKnownAt(versions: readonly Row[], t: string): Map<number, { valid_to: string | null; supersedes: number | null }> {
  const known = versions.filter((v) => believedAt(v, t));
  const out = new Map<number, { valid_to: string | null; supersedes: number | null }>();
  for (const v of known) out.set(Number(v.id), { valid_to: (v.valid_to ?? null) as string | null, supersedes: (v.supersedes ?? null) as number | null });
  for (const { row, set } of chainLinks(known)) Object.assign(out.get(Number(row.id))!, set);
  return out;
}

/** A spell of transaction time: from, and to (null: still believed). */
export type Spell = readonly [string, string | null];

/**
 * When each version of one key was believed (every version, retracted ones included): the spells
 * of transaction time in which it was recorded, not retracted, and valid at some instant of its
 * key's chain as it stood — a version a back-dated correction hides entirely stops being believed
 * at the correction's recording time, without being rewritten.
 */
export function beliefSpells(versions: readonly Row[]): Map<number, Spell[]> {
  const instants = new Set<string>();
  for (const v of versions) {
    if (typeof v.created_at === 'string') instants.add(v.created_at);
    if (v.deleted === 1 && typeof v.deleted_at === 'string') instants.add(v.deleted_at);
    for (const s of retractionsOf(v)) instants.add(s.slice(0, 20)), instants.add(s.slice(21));
  }
  const times = [...instants].sort();
  const out = new Map<number, Spell[]>(versions.map((v) => [Number(v.id), []]));
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    const end = i + 1 < times.length ? times[i + 1] : null;
    for (const [id, link] of chainKnownAt(versions, t)) {
      const v = versions.find((x) => Number(x.id) === id)!;
      // Valid at no instant: its successor in the chain starts where it does.
      if (link.valid_to !== null && link.valid_to <= from(v)) continue;
      const spells = out.get(id)!;
      const last = spells[spells.length - 1];
      if (last && last[1] === t) spells[spells.length - 1] = [last[0], end];
      else spells.push([t, end]);
    }
  }
  return out;
}

/**
 * A read's rows in transaction time: at `knownAt`, each fact version's links (`valid_to`,
 * `supersedes`) as its chain stood then; with `believed`, `believed_from` and `believed_to`
 * (when it was recorded, when the store stopped believing it — as known at `knownAt`, so that a
 * read at a fixed transaction time never changes). Rows are copied, not changed.
 */
export function* inTransactionTime(x: Execution, rows: readonly Row[], knownAt: string | undefined, believed: boolean): Io<Row[]> {
  const byKey = new Map<string, readonly Row[]>();
  for (const key of factKeysOf(rows)) {
    byKey.set(JSON.stringify([key.subject, key.attribute]), yield* x.query(compileFactVersions(key.subject, key.attribute, x.store.dialect, x.op.tenant, true)));
  }
  const spellsByKey = new Map<string, Map<number, Spell[]>>();
  return rows.map((row) => {
    const out: Row = { ...row };
    const key = factKeyOf(row);
    const versions = key ? byKey.get(JSON.stringify([key.subject, key.attribute])) : undefined;
    if (versions && knownAt !== undefined) Object.assign(out, chainKnownAt(versions, knownAt).get(Number(row.id)));
    if (!believed) return out;
    const recorded = String(row.created_at ?? '');
    out.believed_from = recorded;
    let spells: readonly Spell[] = [[recorded, row.deleted === 1 && typeof row.deleted_at === 'string' ? row.deleted_at : null]];
    if (versions) {
      const k = JSON.stringify([key!.subject, key!.attribute]);
      if (!spellsByKey.has(k)) spellsByKey.set(k, beliefSpells(versions));
      spells = spellsByKey.get(k)!.get(Number(row.id)) ?? [];
    }
    // As it stood at knownAt: what came after it was not known yet.
    if (knownAt !== undefined) spells = spells.filter((s) => s[0] <= knownAt).map((s) => (s[1] !== null && s[1] > knownAt ? [s[0], null] as const : s));
    // Never believed (hidden from the start): it stopped being believed when it was recorded.
    out.believed_to = spells.length ? spells[spells.length - 1][1] : recorded;
    return out;
  });
}
