/**
 * Rows in the SQLite shape (see AsyncSqlDriver): `jsonb`/`json` as JSON text, 64-bit integers and
 * numerics as numbers, booleans as 1/0, dates and times as ISO-8601 text, pgvector's `vector` as
 * packed little-endian Float32 (a BLOB on SQLite). Both PostgreSQL drivers install these parsers,
 * keyed by type OID, so the engine reads their rows as it reads SQLite's.
 */
export const OID = {
  BOOL: 16,
  INT8: 20,
  JSON: 114,
  NUMERIC: 1700,
  DATE: 1082,
  TIMESTAMP: 1114,
  TIMESTAMPTZ: 1184,
  JSONB: 3802,
} as const;

const iso = (text: string) => {
  const d = new Date(text.includes('T') || !/ /.test(text) ? text : text.replace(' ', 'T'));
  return Number.isNaN(d.getTime()) ? text : d.toISOString();
};

/** Text → value, per type OID; types not listed keep the driver's own parsing (int4, float8, text…). */
export const PARSERS: Readonly<Record<number, (text: string) => unknown>> = {
  [OID.BOOL]: (t) => (t === 't' || t === 'true' ? 1 : 0),
  [OID.INT8]: (t) => Number(t),
  [OID.NUMERIC]: (t) => Number(t),
  [OID.JSON]: (t) => t,
  [OID.JSONB]: (t) => t,
  [OID.DATE]: (t) => t,
  [OID.TIMESTAMP]: (t) => iso(`${t}Z`),
  [OID.TIMESTAMPTZ]: (t) => iso(t),
};

/**
 * pgvector's text form (`[0.1,2,-3e-05]`) as packed Float32, the shape `embedding_f32` has on
 * SQLite. Its OID is the database's own (the extension's type): `vectorTypeOid` finds it.
 */
export function parseVector(text: string): Uint8Array {
  const f = Float32Array.from(JSON.parse(text) as number[]);
  return new Uint8Array(f.buffer);
}

/** The query giving pgvector's type OID (`oid`: null where the type is not visible). */
export const VECTOR_OID_QUERY = `SELECT to_regtype('vector')::oid::int AS oid`;
