/**
 * Encode: writes one record (a fact version in its place in its history), with the engine's
 * embedding of its text unless the caller gave a vector or none is wanted.
 */
import { compileFactVersions } from '../../compile/index.js';
import type { EncodeOp, FactWrite } from '../../lower/operation.js';
import { checkEpisode } from '../../experience/experience.js';
import type { Execution } from '../execution.js';
import type { Io } from '../../store/io.js';

export function* encode(x: Execution, op: EncodeOp): Io<number[]> {
  if (typeof op.values.episode_id === 'number' && !(yield* checkEpisode(x, op.values.episode_id))) return [];
  const values = encodeValues(op);
  if (!op.embedding && !op.skipEmbedding) Object.assign(values, yield* x.embedding(String(op.values.text ?? '')));
  if (!op.fact) return [yield* x.insert(values)];
  return [yield* supersede(x, op.fact, values)];
}

/** An Encode's record as it is inserted, but for the engine's embedding (the caller's vector is in it). */
export function encodeValues(op: EncodeOp): Record<string, unknown> {
  // Copied, then extended (not `{ ...op.values, owner, … }`: see Execution.insert).
  const values: Record<string, unknown> = Object.assign({}, op.values);
  values.owner = op.actor ?? null;
  values.created_at = op.now;
  values.updated_at = op.now;
  values.deleted = 0;
  if (op.embedding) Object.assign(values, { embedding: op.embedding, embedding_model: 'caller' });
  return values;
}

/**
 * Writes a fact version in its place in the history of (tenant, subject, attribute)
 * (spec/semantics.md "Facts"): the version valid at its `valid_from` (the latest starting at or
 * before it) is closed there and superseded by it; the next version, if it is back-dated before
 * one, bounds its own validity and now supersedes it. All in the statement's transaction.
 */
function* supersede(x: Execution, fact: FactWrite, values: Record<string, unknown>): Io<number> {
  const versions = yield* x.query(compileFactVersions(fact.subject, fact.attribute, x.store.dialect, x.op.tenant));
  const before = versions.filter((v) => String(v.valid_from ?? '') <= fact.validFrom);
  const prev = before[before.length - 1];
  const next = versions.find((v) => String(v.valid_from ?? '') > fact.validFrom);
  values.valid_to = next?.valid_from ?? null;
  values.supersedes = prev?.id ?? null;
  const id = yield* x.insert(values);
  if (prev) yield* x.update(prev, { valid_to: fact.validFrom });
  if (next) yield* x.update(next, { supersedes: id });
  return id;
}
