/**
 * Keyword scoring on the PostgreSQL server (spec/retrieval.md, "Keywords on PostgreSQL"), the
 * opt-in alternative to the engine's in-memory BM25 index (`keywords=server`). BM25 over the
 * engine's own tokens (`memory.search_text`, written by the engine's tokenizer), with the same
 * constants and the same floating-point operations as src/retrieve/keywords.ts:
 *   - `stats`: the tenant's live indexed records, their total length and each query term's df
 *     (the engine turns them into idf and the mean length, so those are its own doubles);
 *   - `score`: each record holding a query term, scored term by term in the order the engine sums
 *     them (an ordered `sum`, which adds float8 one value at a time as the engine does), best
 *     first, ties by id;
 *   - `neighbours`: the tenant's live indexed records written just before and after some records
 *     (the neighbour context of a fused search, which the in-memory index answers otherwise).
 * Candidates come from the GIN index `memory_search_terms` on the token array of live records.
 * Only the engine's values reach these statements, as bound parameters: tokens (words of
 * letters and digits, never a space, so a space-joined list reads back as the same tokens),
 * doubles printed as the shortest decimal that reads back as the same double, ids.
 */
import type { KeywordRanking } from '../../retrieve/seam.js';
import type { SqlStatement } from '../../store/dialect.js';

/** The tokens of a record, as the GIN index `memory_search_terms` holds them. */
const TOKENS = `string_to_array(m.search_text, ' ')`;
/**
 * A record in the tenant's keyword statistics: live, with tokens (the rows the in-memory index
 * loads). Written with constants, so that the planner can use the partial indexes below.
 */
const INDEXED = (m: string) => `${m}.tenant = $1 AND ${m}.deleted = 0 AND ${m}.search_text <> ''`;
/**
 * The same records for the neighbours' statement, written so that only it matches the predicate of
 * `memory_search_order` (`> ''` is `<> ''` for text, but the planner cannot prove it): without
 * statistics the planner would otherwise read a term's records through that index, every record
 * of the tenant, instead of the GIN index.
 */
const IN_ORDER = (m: string) => `${m}.tenant = $1 AND ${m}.deleted = 0 AND ${m}.search_text > ''`;

/**
 * The indexes the server ranker reads (created when a store is opened writable with `keywords=server`): the
 * tokens of live records (GIN: a query term's records), and the order of the tenants' indexed
 * records (a record's neighbours, `ORDER BY id … LIMIT` from it).
 */
export const KEYWORD_INDEX_DDL = [
  `CREATE INDEX IF NOT EXISTS memory_search_terms ON memory USING GIN (string_to_array(search_text, ' ')) WHERE deleted = 0`,
  `CREATE INDEX IF NOT EXISTS memory_search_order ON memory (tenant, id) WHERE deleted = 0 AND search_text > ''`,
];

const joined = (xs: readonly (string | number)[]) => xs.map(String).join(' ');

function ints(xs: readonly number[]): string {
  for (const x of xs) if (!Number.isSafeInteger(x)) throw new Error(`internal: ${x} is not a record id`);
  return joined(xs);
}

export const serverKeywords: KeywordRanking = {
  name: 'server',
  totals(tenant: string): SqlStatement {
    return {
      sql: `SELECT count(*)::integer AS docs, COALESCE(sum(cardinality(${TOKENS})), 0)::float8 AS tokens FROM memory AS m WHERE ${INDEXED('m')}`,
      params: [tenant],
    };
  },
  df(tenant: string, terms: readonly string[]): SqlStatement {
    return {
      // \`committed\`: this transaction has written nothing, so what it reads is a committed state.
      sql: `SELECT t.i::integer AS i, (SELECT count(*)::integer FROM memory AS m WHERE ${INDEXED('m')} AND ${TOKENS} @> ARRAY[t.term]) AS df, pg_current_xact_id_if_assigned() IS NULL AS committed
FROM unnest(string_to_array($2, ' ')) WITH ORDINALITY AS t(term, i)
ORDER BY t.i`,
      params: [tenant, joined(terms)],
    };
  },
  score(tenant, terms, idf, meanLength, k1, b, n, among, holding): SqlStatement {
    return {
      // Per record: each query term's count (tf) and BM25 weight, summed in the terms' order (an
      // ordered float8 sum adds one value at a time, as the engine does). The records are those
      // holding one of the `holding` terms (all of them by default).
      sql: `SELECT d.id, (
  SELECT sum(q.w ORDER BY q.i) FROM (
    SELECT t.i, t.idf::float8 * ((x.tf * ($5::float8 + 1)) / (x.tf + $5::float8 * (1 - $6::float8 + ($6::float8 * cardinality(d.toks)) / $4::float8))) AS w
    FROM unnest(string_to_array($2, ' '), string_to_array($3, ' ')) WITH ORDINALITY AS t(term, idf, i)
    CROSS JOIN LATERAL (SELECT cardinality(array_positions(d.toks, t.term))::float8 AS tf) AS x
    WHERE x.tf > 0
  ) AS q
) AS score
FROM (
  SELECT m.id, ${TOKENS} AS toks FROM memory AS m
  WHERE ${INDEXED('m')} AND ${TOKENS} && string_to_array($8, ' ')${among ? ` AND m.id = ANY(string_to_array($9, ' ')::integer[])` : ''}
) AS d
ORDER BY score DESC, d.id
LIMIT $7`,
      params: [tenant, joined(terms), joined(idf), meanLength, k1, b, n, joined(holding ?? terms), ...(among ? [ints(among)] : [])],
    };
  },
  neighbours(tenant, ids, reach): SqlStatement {
    return {
      sql: `SELECT c.id,
  array_to_string(ARRAY(SELECT m.id FROM memory AS m WHERE ${IN_ORDER('m')} AND m.id < c.id ORDER BY m.id DESC LIMIT $3), ' ') AS before,
  array_to_string(ARRAY(SELECT m.id FROM memory AS m WHERE ${IN_ORDER('m')} AND m.id > c.id ORDER BY m.id LIMIT $3), ' ') AS after
FROM memory AS c WHERE ${INDEXED('c')} AND c.id = ANY(string_to_array($2, ' ')::integer[])`,
      params: [tenant, ints(ids), reach],
    };
  },
};
