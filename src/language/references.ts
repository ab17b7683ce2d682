/**
 * Statement references (an extension of the upstream IR; spec/syntax.md, "Extensions to the
 * upstream IR"): `LET $name = <statement>` binds the ids the statement created or affected, and a
 * later statement of the same script writes `$name` where ids go (`ID $n`, `IDS $a, $b`,
 * `INTO $n`). In the IR the binding is the statement's top-level `_let: "name"` (beside
 * `_comment`) and a reference is the object `{"$ref": "name"}`, allowed only in `target.ids` (the
 * value itself or an item of the list) and in a Merge's `args.primary_id`. The engine resolves
 * references statement by statement, inside the script's transaction.
 */
import type { Op } from './ops.js';

/** The IR key of a statement's binding (top level, like `_comment`). */
export const LET_KEY = '_let';
/** The key of a reference object: `{"$ref": "name"}`. */
export const REF_KEY = '$ref';
/** A binding's name (written `$name` in the DSL, `name` in the IR). */
export const REF_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What `LET` binds, per op: the record ENCODE created; SPLIT's new pieces; MERGE's primary (the
 * record that remains); a write's affected records; RETRIEVE's returned records. SUMMARIZE's
 * result is a text, not ids: it binds nothing (the checker refuses `LET` on it).
 */
export const LET_BINDS: Readonly<Record<Op, 'created' | 'pieces' | 'primary' | 'affected' | 'returned' | undefined>> = {
  Encode: 'created',
  Split: 'pieces',
  Merge: 'primary',
  Update: 'affected', Label: 'affected', Promote: 'affected', Demote: 'affected', Lock: 'affected', Expire: 'affected', Delete: 'affected',
  Retrieve: 'returned',
  Summarize: undefined,
};

/** A reference object `{"$ref": "name"}` (exactly that one key, a well-formed name). */
export function isRef(v: unknown): v is { readonly $ref: string } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  const name = (v as Record<string, unknown>)[REF_KEY];
  return keys.length === 1 && keys[0] === REF_KEY && typeof name === 'string' && REF_NAME_PATTERN.test(name);
}

/** An object that carries a `$ref` key at all (well formed or not). */
export function hasRefKey(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, REF_KEY);
}

/**
 * The arg of an op that holds one record id and so may be a reference: a Merge's primary
 * (`INTO $n`), a turn's episode (`ENCODE … LEVEL turn OF $e`, spec/syntax.md §12) and a retrieval's running episode (`RETRIEVE … LEVEL turn SET episode_id = $e`).
 */
export const REF_ARGS: Readonly<Partial<Record<Op, string>>> = { Merge: 'primary_id', Encode: 'episode_id', Retrieve: 'episode_id' };

/** The IR paths where a reference may stand in an `op` statement: `target.ids`, its items, and the op's `REF_ARGS` arg. */
export function isRefPath(op: unknown, path: string): boolean {
  const arg = REF_ARGS[op as Op];
  return path === 'target.ids' || /^target\.ids\.\d+$/.test(path) || (arg !== undefined && path === `args.${arg}`);
}
