/**
 * Encode lowering: the record's column values from the payload and args. Metadata may sit in the
 * payload (the paper's B.1.1 form); args that are not columns become facets; the governance
 * columns (weight, expiry, lock) an Encode may set directly are checked here.
 */
import { ON_EXPIRE, OPS, type IROf, type JsonValue } from '../ir/schema.js';
import {
  asJson, assignOwn, clamp01, facetColumns, isPlainObject, isString, isStringList, PERM_LISTS, setOwn, storedList, type Lowerer,
} from './lowerer.js';
import type { ColumnValues, FactWrite, SchemaDeclaration } from './operation.js';
import { readSchema } from './schema.js';
import { EXEC_STATUSES, RETENTION_CLASSES } from '../language/enums.js';
import { formatUtc, utcText } from './time.js';

type EncodeArgs = NonNullable<IROf<'Encode'>['args']>;

/** Payload keys that are the content itself. */
const PAYLOAD_CONTENT = ['text', 'url', 'structured'];
/** Metadata an Encode may also write inside its payload (the paper's B.1.1 form); a top-level arg wins. */
const PAYLOAD_METADATA = ['type', 'tags', 'facets', 'time', 'subject', 'location', 'topic', 'source'];
/** Encode args stored in their own columns (or driving the insert). */
const ENCODE_ARGS = [
  'payload', 'type', 'tags', 'facets', 'time', 'subject', 'location', 'topic', 'source', 'skip_embedding', 'embedding',
  'auto_frequency', 'expire_at', 'next_auto_update_at', 'weight', 'ttl', 'expire_action', 'on_expire', 'expire_reason',
  'lock_mode', 'lock_reason', 'lock_policy', 'lock_expires', ...PERM_LISTS, 'read_perm_level', 'write_perm_level',
  // Typed facts and retention (extensions, spec/syntax.md §12).
  'attribute', 'valid_from', 'episode', 'confidence', 'retention', 'schema_version',
  // Experience memory: a record's level and a turn's episode.
  'level', 'episode_id',
];
/** Columns the engine keeps itself; an Encode arg naming one is ignored with a warning. */
const ENGINE_MANAGED = ['id', 'owner', 'created_at', 'updated_at', 'deleted', 'deleted_at', 'embedding_model', 'lineage_parents', 'lineage_children',
  'tenant', 'valid_to', 'supersedes', 'trace_id', 'statement_index', 'utility', 'utility_n'];
/** The lists above as sets, for the per-key lookups of every Encode. */
const PAYLOAD_KEYS: ReadonlySet<string> = new Set([...PAYLOAD_CONTENT, ...PAYLOAD_METADATA]);
const ENCODE_ARG_SET: ReadonlySet<string> = new Set(ENCODE_ARGS);
const ENGINE_MANAGED_SET: ReadonlySet<string> = new Set(ENGINE_MANAGED);
const LOCK_COLUMN_MODES = ['read_only', 'append_only', 'custom'];

export function lowerEncode(l: Lowerer, ir: IROf<'Encode'>): { values: ColumnValues; skipEmbedding: boolean; embedding?: readonly number[]; fact?: FactWrite; declare?: SchemaDeclaration } {
  const a: EncodeArgs = ir.args ?? {};
  if (a.schema !== undefined) return lowerDeclaration(l, a);
  const payload: Record<string, unknown> = a.payload ?? {};
  const text = isString(payload.text) ? payload.text
    : payload.structured ? JSON.stringify(payload.structured)
    : isString(payload.url) ? payload.url : undefined;
  if (text === undefined || text.trim() === '') l.error('missing-field', 'Encode needs payload text, structured data or a url', 'args.payload');
  for (const key of PAYLOAD_METADATA) {
    const v = payload[key];
    if (v === undefined || a[key] !== undefined) continue;
    const ok = key === 'tags' ? isStringList(v) : key === 'facets' ? isPlainObject(v) : isString(v);
    if (!ok) l.error('bad-arg', `Encode 'payload.${key}' must be ${key === 'tags' ? 'a list of strings' : key === 'facets' ? 'an object' : 'a string'}, got ${JSON.stringify(v)}`, `args.payload.${key}`);
  }
  // Args that are not memory columns are kept as facets, like Update's unknown `set` fields
  // (payload extras such as knowledge_type and context included); explicit facets win.
  const facets: Record<string, JsonValue> = {};
  // Own keys in Object.entries order (for-in with hasOwn: the same keys, no array of pairs).
  for (const key in payload) {
    if (Object.hasOwn(payload, key) && !PAYLOAD_KEYS.has(key)) setOwn(facets, key, asJson(payload[key]));
  }
  for (const key in a) {
    if (!Object.hasOwn(a, key)) continue;
    if (ENGINE_MANAGED_SET.has(key)) {
      l.warn('ignored-arg', `Encode ignores '${key}': the engine sets it (owner is the acting actor)`, `args.${key}`);
    } else if (!ENCODE_ARG_SET.has(key)) setOwn(facets, key, asJson(a[key]));
  }
  if (isPlainObject(payload.facets)) assignOwn(facets, payload.facets);
  if (isPlainObject(a.facets)) assignOwn(facets, a.facets);
  const tags = arg(a, payload, 'tags');
  // Built in the order of its columns (and of the diagnostics its readers report), without a
  // spread in the middle of a literal (V8's slow path): the facet columns are usually none.
  const values: Record<string, JsonValue> = {
    text: text ?? null,
    type: argText(a, payload, 'type'),
    tags: storedList(l, isStringList(tags) ? tags : [], argPath(a, 'tags')),
    facets,
  };
  const fromFacets = facetColumns(l, facets, 'args.facets');
  for (const key in fromFacets) values[key] = fromFacets[key];
  values.source = argText(a, payload, 'source');
  values.auto_frequency = a.auto_frequency ?? null;
  values.expire_at = l.instant(a.expire_at, 'args.expire_at') ?? null;
  values.next_auto_update_at = l.instant(a.next_auto_update_at, 'args.next_auto_update_at') ?? null;
  values.read_perm_level = a.read_perm_level ?? null;
  values.write_perm_level = a.write_perm_level ?? null;
  for (const key of ['time', 'subject', 'location', 'topic'] as const) {
    const v = arg(a, payload, key);
    if (v === undefined) continue;
    values[key] = key === 'time' ? (isString(v) ? l.instant(v, argPath(a, 'time')) ?? null : null) : asJson(v);
  }
  for (const key of PERM_LISTS) {
    const list = a[key];
    if (list !== undefined) values[key] = storedList(l, list, `args.${key}`);
  }
  Object.assign(values, encodeGovernance(l, a));
  // Experience memory: a record's level and a turn's episode (checked live when it runs).
  if (a.level !== undefined) values.level = a.level;
  if (a.episode_id !== undefined) values.episode_id = l.ids(a.episode_id, 'args.episode_id')[0] ?? null;
  // An experience record's status is its execution status (spec/semantics.md#experience-memory);
  // without LEVEL `status` stays the free facet it always was.
  if (a.level !== undefined && a.status !== undefined && !(EXEC_STATUSES as readonly unknown[]).includes(a.status)) {
    l.error('bad-arg', `STATUS of an experience record is one of ${EXEC_STATUSES.join(', ')}, got ${JSON.stringify(a.status)}`, 'args.status');
  }
  const fact = encodeFact(l, a, values);
  const skipEmbedding = a.skip_embedding === true;
  return fact ? { values, skipEmbedding, embedding: a.embedding, fact } : { values, skipEmbedding, embedding: a.embedding };
}

/** Args a schema declaration may have besides `attribute` and `schema` (anything else is a record's, refused). */
const DECLARATION_ARGS: ReadonlySet<string> = new Set(['attribute', 'schema', 'reason']);

/**
 * `ENCODE ATTRIBUTE a SCHEMA { … }`: declares the attribute's schema for the tenant (no record,
 * so no value, subject or fact clause; src/execute/schemas.ts stores it).
 */
function lowerDeclaration(l: Lowerer, a: EncodeArgs): { values: ColumnValues; skipEmbedding: boolean; declare?: SchemaDeclaration } {
  const none = { values: {}, skipEmbedding: true };
  for (const key of Object.keys(a)) {
    if (!DECLARATION_ARGS.has(key)) l.error('bad-schema', `a SCHEMA declaration writes no record: leave out '${key}' (declare, then write facts in their own ENCODE)`, `args.${key}`);
  }
  if (!isString(a.attribute) || a.attribute.trim() === '') {
    l.error('bad-schema', 'SCHEMA declares the schema of an attribute: add ATTRIBUTE (e.g. ATTRIBUTE passport_deadline)', 'args.schema');
    return none;
  }
  const schema = readSchema(a.schema, (path, message) => l.error('bad-schema', message, path));
  return schema ? { ...none, declare: { attribute: a.attribute, schema } } : none;
}

// The readers below are module functions, not closures made per Encode (each closure is an
// allocation, and under tsx a `defineProperty` for its name).

/** An arg, or the same metadata written inside the payload (the paper's B.1.1 form); the top-level arg wins. */
function arg(a: EncodeArgs, payload: Record<string, unknown>, key: string): unknown {
  return a[key] !== undefined ? a[key] : PAYLOAD_METADATA.includes(key) ? payload[key] : undefined;
}

/** Where `arg` read its value. */
function argPath(a: EncodeArgs, key: string): string {
  return a[key] !== undefined ? `args.${key}` : `args.payload.${key}`;
}

/** `arg` when it is a string, else null. */
function argText(a: EncodeArgs, payload: Record<string, unknown>, key: string): string | null {
  const v = arg(a, payload, key);
  return isString(v) ? v : null;
}

/** Reports an Encode arg of the wrong kind. */
function badArg(l: Lowerer, a: EncodeArgs, key: string, expected: string): void {
  l.error('bad-arg', `Encode '${key}' must be ${expected}, got ${JSON.stringify(a[key])}`, `args.${key}`);
}

/** A string arg (undefined when absent; reported and undefined when not a string). */
function stringArg(l: Lowerer, a: EncodeArgs, key: string): string | undefined {
  const v = a[key];
  if (v === undefined) return undefined;
  if (!isString(v)) badArg(l, a, key, 'a string');
  return isString(v) ? v : undefined;
}

/** The lifetime a retention class gives a new record (spec/semantics.md "Retention"). */
export const RETENTION_TTL: Readonly<Record<(typeof RETENTION_CLASSES)[number], { ttl?: string; action?: string }>> = {
  ephemeral: { ttl: 'P1D', action: 'hard_delete' },
  session: { ttl: 'P30D', action: 'soft_delete' },
  durable: {},
  legal_hold: {},
};

/** The schema version a fact is written with when the statement names none. */
export const FACT_SCHEMA_VERSION = 1;

/**
 * A typed fact (ATTRIBUTE, VALID FROM, EPISODE, CONFIDENCE, RETENTION): its columns, and its key
 * and validity for supersession. The record's text is the fact's value. The checker has
 * reported a fact without a subject; lowering refuses one too, at the same path.
 */
function encodeFact(l: Lowerer, a: EncodeArgs, values: Record<string, JsonValue>): FactWrite | undefined {
  if (a.episode === undefined && a.confidence === undefined && a.retention === undefined && a.attribute === undefined && a.valid_from === undefined) return undefined;
  const bad = (key: string, expected: string) => badArg(l, a, key, expected);
  if (a.episode !== undefined) isString(a.episode) ? (values.episode = a.episode) : bad('episode', 'a string');
  if (a.confidence !== undefined) {
    if (typeof a.confidence === 'number' && a.confidence >= 0 && a.confidence <= 1) values.confidence = a.confidence;
    else bad('confidence', 'a number from 0 to 1');
  }
  if (a.retention !== undefined) {
    const r = a.retention;
    if (isString(r) && (RETENTION_CLASSES as readonly string[]).includes(r)) {
      values.retention = r;
      const life = RETENTION_TTL[r as keyof typeof RETENTION_TTL];
      if (life.ttl && values.expire_at === null && a.ttl === undefined) {
        values.expire_at = l.shifted(life.ttl, 1, 'args.retention') ?? null;
        values.expire_action = life.action ?? 'soft_delete';
      }
      if (r === 'legal_hold' && (a.ttl !== undefined || a.expire_at !== undefined)) l.error('bad-arg', 'a legal_hold record cannot be given an expiry', 'args.retention');
    } else bad('retention', `one of ${RETENTION_CLASSES.join(', ')}`);
  }
  if (a.attribute === undefined) {
    if (a.valid_from !== undefined) l.error('fact-needs-attribute', 'VALID FROM dates a fact: give it an ATTRIBUTE (and a SUBJECT)', 'args.valid_from');
    return undefined;
  }
  if (!isString(a.attribute) || a.attribute.trim() === '') return (bad('attribute', 'a name'), undefined);
  const subject = values.subject;
  if (!isString(subject) || subject.trim() === '') {
    l.error('fact-needs-subject', 'a fact is keyed by (subject, attribute): add SUBJECT', 'args.attribute');
    return undefined;
  }
  const validFrom = a.valid_from === undefined ? formatUtc(l.now) : isString(a.valid_from) ? l.instant(a.valid_from, 'args.valid_from') : (bad('valid_from', 'a date-time'), undefined);
  if (validFrom === undefined) return undefined;
  const version = a.schema_version ?? FACT_SCHEMA_VERSION;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) bad('schema_version', 'a positive integer');
  Object.assign(values, { attribute: a.attribute, valid_from: validFrom, schema_version: typeof version === 'number' ? version : FACT_SCHEMA_VERSION });
  return { subject, attribute: a.attribute, validFrom };
}

/**
 * The weight, expiry and lock columns an Encode may set directly (`ENCODE … SET weight = 0.9`).
 * They are not in the upstream Encode schema, so their values are checked here.
 */
function encodeGovernance(l: Lowerer, a: EncodeArgs): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  // Most Encodes set none of these: nothing to read, no closures to make.
  if (a.weight === undefined && a.ttl === undefined && a.expire_action === undefined && a.on_expire === undefined && a.expire_reason === undefined
    && a.lock_mode === undefined && a.lock_policy === undefined && a.lock_reason === undefined && a.lock_expires === undefined) return out;
  const bad = (key: string, expected: string) => badArg(l, a, key, expected);
  const text = (key: string): string | undefined => stringArg(l, a, key);
  const { weight, ttl } = a;
  if (weight !== undefined) {
    if (typeof weight !== 'number' || !Number.isFinite(weight)) bad('weight', 'a number in [0,1]');
    else {
      if (weight < 0 || weight > 1) l.warn('weight-clamped', `weight ${weight} is clamped to [0,1]`, 'args.weight');
      out.weight = clamp01(weight);
    }
  }
  if (ttl !== undefined) {
    if (a.expire_at !== undefined) l.warn('ignored-arg', "Encode ignores 'ttl' because 'expire_at' is given", 'args.ttl');
    else if (!isString(ttl)) bad('ttl', 'a duration such as P30D');
    else {
      const at = l.shifted(ttl, 1, 'args.ttl');
      if (at) out.expire_at = at;
    }
  }
  const actionKey = a.expire_action !== undefined ? 'expire_action' : 'on_expire';
  const action = text(actionKey);
  if (action !== undefined) {
    if ((ON_EXPIRE as readonly string[]).includes(action)) out.expire_action = action;
    else bad(actionKey, `one of ${ON_EXPIRE.join(', ')}`);
  }
  const reason = text('expire_reason');
  if (reason !== undefined) out.expire_reason = reason;
  // Lock columns, with Lock's defaults: a policy that allows or denies makes a custom lock.
  const mode = text('lock_mode');
  if (mode !== undefined && !LOCK_COLUMN_MODES.includes(mode)) bad('lock_mode', `one of ${LOCK_COLUMN_MODES.join(', ')}`);
  const p = a.lock_policy;
  let policy: Record<string, JsonValue> | undefined;
  if (p !== undefined) {
    const opList = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((x) => (OPS as readonly unknown[]).includes(x)));
    const nameList = (v: unknown) => v === undefined || isStringList(v);
    if (!isPlainObject(p) || !opList(p.allow) || !opList(p.deny) || !nameList(p.reviewers)) {
      bad('lock_policy', `an object {allow?, deny?: [op…], reviewers?: [actor…], expires?}`);
    } else {
      policy = Object.fromEntries(['allow', 'deny', 'reviewers'].filter((k) => p[k] !== undefined).map((k) => [k, p[k]]));
    }
  }
  const lockReason = text('lock_reason');
  const expiresRaw = a.lock_expires ?? (isPlainObject(p) ? p.expires : undefined);
  const expires = isString(expiresRaw) ? l.instant(expiresRaw, a.lock_expires !== undefined ? 'args.lock_expires' : 'args.lock_policy.expires') : undefined;
  if (expiresRaw !== undefined && !isString(expiresRaw)) bad('lock_expires', 'a date-time');
  if (mode !== undefined || policy !== undefined || lockReason !== undefined || expiresRaw !== undefined) {
    out.lock_mode = mode ?? (policy?.allow || policy?.deny ? 'custom' : 'read_only');
    out.lock_reason = lockReason ?? null;
    out.lock_policy = policy && Object.keys(policy).length ? policy : null;
    out.lock_expires = expires ?? null;
  }
  return out;
}

/** The args a plain Encode has (strings; `tags` a list of strings; `payload` only its text). */
const PLAIN_ARGS: ReadonlySet<string> = new Set(['payload', 'type', 'tags', 'time', 'subject', 'location', 'topic', 'source']);
const BOM = 0xfeff;

/**
 * The lowering of the usual Encode — `payload.text`, and maybe `type`, `tags`, `time`, `subject`,
 * `location`, `topic`, `source`, all strings (tags a list of them), nothing else — by what
 * `lowerEncode` (and `lowerIr`'s byte-order-mark check) does on that shape, without the general
 * reader's work for the args this shape does not have (payload metadata, facets, governance,
 * facts, permission lists). Undefined when the Encode is not of that shape, or when a value needs
 * a diagnostic (blank text or tag, a time that is not a date, a leading U+FEFF): the general
 * lowering then reports it. The record's values (an operation with `skipEmbedding: false` and no
 * embedding: `lowerIr` builds it), the same values in the same key order as `lowerEncode`
 * (test/lower/plain-encode.test.ts compares the two on near-identical shapes).
 */
export function lowerPlainEncode(ir: IROf<'Encode'>): ColumnValues | undefined {
  const a: Record<string, unknown> | undefined = ir.args;
  if (!a || ir.target !== undefined) return undefined;
  for (const key in a) if (!PLAIN_ARGS.has(key) || !Object.hasOwn(a, key)) return undefined;
  const payload = a.payload;
  if (!isPlainObject(payload)) return undefined;
  let keys = 0;
  for (const key in payload) if (key !== 'text' || ++keys > 1) return undefined;
  const text = payload.text;
  if (!isString(text) || text.trim() === '' || text.charCodeAt(0) === BOM || !Object.hasOwn(payload, 'text')) return undefined;
  const type = plainText(a.type);
  const source = plainText(a.source);
  const tags = plainTags(a.tags);
  if (type === false || source === false || tags === undefined) return undefined;
  const values: Record<string, JsonValue> = { text, type, tags, facets: {} };
  values.source = source;
  values.auto_frequency = null;
  values.expire_at = null;
  values.next_auto_update_at = null;
  values.read_perm_level = null;
  values.write_perm_level = null;
  if (a.time !== undefined) {
    const t = plainText(a.time);
    const utc = typeof t === 'string' ? utcText(t) : null;
    if (utc === null) return undefined;
    values.time = utc;
  }
  for (const key of ['subject', 'location', 'topic'] as const) {
    const v = a[key];
    if (v === undefined) continue;
    const t = plainText(v);
    if (typeof t !== 'string') return undefined;
    values[key] = t;
  }
  return values;
}

/** A plain arg's text: null when absent, false when it is not a string or starts with U+FEFF. */
function plainText(v: unknown): string | null | false {
  if (v === undefined) return null;
  return isString(v) && v.charCodeAt(0) !== BOM ? v : false;
}

/** A plain Encode's tags as `storedList` stores them (exact duplicates dropped); undefined for anything it would refuse or `lowerEncode` would read otherwise. */
function plainTags(v: unknown): string[] | undefined {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return undefined;
  for (let i = 0; i < v.length; i++) {
    // A hole reads as undefined: left to the general lowering.
    const t: unknown = v[i];
    if (!isString(t) || t.trim() === '' || t.charCodeAt(0) === BOM) return undefined;
  }
  if (v.length > 8) return [...new Set(v as string[])];
  const out: string[] = [];
  for (let i = 0; i < v.length; i++) if (!out.includes(v[i])) out.push(v[i]);
  return out;
}
