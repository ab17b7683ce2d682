/**
 * Encode: writes one record (a fact version in its place in its history), with the engine's
 * embedding of its text unless the caller gave a vector or none is wanted.
 */
import type { EncodeOp } from '../../lower/operation.js';
import { checkEpisode } from '../../experience/experience.js';
import type { Execution } from '../execution.js';
import { writeVersion } from '../facts.js';
import { checkFact } from '../schemas.js';
import type { Io } from '../../store/io.js';

export function* encode(x: Execution, op: EncodeOp): Io<number[]> {
  if (typeof op.values.episode_id === 'number' && !(yield* checkEpisode(x, op.values.episode_id))) return [];
  const values = encodeValues(op);
  // A fact of an attribute with a schema: checked, its subject normalised (src/execute/schemas.ts).
  const fact = op.fact && (yield* checkFact(x, op, op.fact, values));
  if (op.fact && !fact) return [];
  if (!op.embedding && !op.skipEmbedding) Object.assign(values, yield* x.embedding(String(op.values.text ?? '')));
  if (!fact) return [yield* x.insert(values)];
  // A fact version lands in its place in its key's history (src/execute/facts.ts).
  return [yield* writeVersion(x, fact, values)];
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
