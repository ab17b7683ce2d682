/**
 * Why a record is what it is (`t2m why <id>`): its provenance (actor, run, statement, episode),
 * the chain of versions it superseded, and the audit entries that wrote them — in the caller's
 * tenant only (an id of another tenant is `why-not-found`, as if it did not exist).
 */
import { compileFactVersions, compileSelectByIds, decodeRow } from '../compile/index.js';
import { beliefSpells, factKeyOf, type Spell } from '../execute/facts.js';
import type { Row } from '../execute/rows.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { AnySqlDriver } from '../store/driver.js';
import { all as ioAll, type Io } from '../store/io.js';
import type { Store } from '../store/store.js';
import { auditLogIo, type AuditRecord } from './audit.js';
import { DEFAULT_TENANT, stmt, tenantProblem } from './caller.js';

/** One version in a `why` chain: a record and where it came from. */
export interface Provenance {
  readonly id: number;
  readonly text: string | null;
  readonly subject: string | null;
  readonly attribute: string | null;
  readonly validFrom: string | null;
  readonly validTo: string | null;
  /** The source episode the writer named (EPISODE). */
  readonly episode: string | null;
  readonly confidence: number | null;
  readonly retention: string | null;
  /** Who wrote it (the run's actor). */
  readonly actor: string | null;
  /** The run that wrote it, and its statement (0-based). */
  readonly traceId: string | null;
  readonly statement: number | null;
  readonly createdAt: string | null;
  readonly deleted: boolean;
  /** The version it superseded (the next link of the chain), if any. */
  readonly supersedes: number | null;
  /**
   * When the store believed it (transaction time): spells from its recording until it was
   * retracted or a correction hid it (to null: believed now); a record that is no fact, from its
   * recording until its deletion.
   */
  readonly believed: readonly Spell[];
}

export interface WhyResult {
  readonly ok: true;
  /** The record asked about, then each version it superseded, newest first. */
  readonly chain: readonly Provenance[];
  /** The tenant's audit entries that touched any version of the chain, oldest first. */
  readonly audit: readonly AuditRecord[];
}

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));



/** `why` as queries (src/store/io.ts). */
export function* whyIo(store: Store<AnySqlDriver>, id: number, options: { tenant?: string } = {}): Io<WhyResult | { ok: false; diagnostics: Diagnostic[] }> {
  const tenant = options.tenant ?? DEFAULT_TENANT;
  const badTenant = tenantProblem(tenant);
  if (badTenant) return { ok: false, diagnostics: [badTenant] };
  const d = store.dialect;
  const chain: Provenance[] = [];
  const seen = new Set<number>();
  for (let next: number | null = id; next !== null && !seen.has(next);) {
    seen.add(next);
    const row: Record<string, unknown> | undefined = (yield* ioAll(...stmt(compileSelectByIds([next], d, tenant)))).map(decodeRow)[0];
    if (!row) break;
    const key = factKeyOf(row);
    let believed: readonly Spell[] = [[String(row.created_at ?? ''), row.deleted === 1 && typeof row.deleted_at === 'string' ? row.deleted_at : null]];
    if (key) {
      const versions = (yield* ioAll(...stmt(compileFactVersions(key.subject, key.attribute, d, tenant, true)))).map(decodeRow) as Row[];
      believed = beliefSpells(versions).get(Number(row.id)) ?? [];
    }
    chain.push({
      id: Number(row.id), text: str(row.text), subject: str(row.subject), attribute: str(row.attribute),
      validFrom: str(row.valid_from), validTo: str(row.valid_to), episode: str(row.episode),
      confidence: typeof row.confidence === 'number' ? row.confidence : null, retention: str(row.retention),
      actor: str(row.owner), traceId: str(row.trace_id), statement: typeof row.statement_index === 'number' ? row.statement_index : null,
      createdAt: str(row.created_at), deleted: row.deleted === 1,
      supersedes: typeof row.supersedes === 'number' ? row.supersedes : null,
      believed,
    });
    next = typeof row.supersedes === 'number' ? row.supersedes : null;
  }
  if (!chain.length) return { ok: false, diagnostics: [diagnostic('why-not-found', `no record #${id} in tenant '${tenant}'`)] };
  const ids = new Set(chain.map((p) => p.id));
  const audit = (yield* auditLogIo(store, undefined, tenant)).filter((e) => e.affectedIds.some((a) => ids.has(a)));
  return { ok: true, chain, audit };
}

