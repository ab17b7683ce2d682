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
 * The indexes the server ranker reads (created when a store is opened writable with `keywords=server`): the
 * tokens of live records (GIN: a query term's records), and the order of the tenants' indexed
 * records (a record's neighbours, `ORDER BY id … LIMIT` from it).
 */
export const KEYWORD_INDEX_DDL = [
  `CREATE INDEX IF NOT EXISTS memory_search_terms ON memory USING GIN (string_to_array(search_text, ' ')) WHERE deleted = 0`,
  `CREATE INDEX IF NOT EXISTS memory_search_order ON memory (tenant, id) WHERE deleted = 0 AND search_text <> ''`,
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
      sql: `SELECT t.i::integer AS i, (SELECT count(*)::integer FROM memory AS m WHERE ${INDEXED('m')} AND ${TOKENS} @> ARRAY[t.term]) AS df
FROM unnest(string_to_array($2, ' ')) WITH ORDINALITY AS t(term, i)
ORDER BY t.i`,
      params: [tenant, joined(terms)],
    };
  },
  score(tenant, terms, idf, meanLength, k1, b, n, among): SqlStatement {
    return {
      // Per record and term: its count (tf) and BM25 weight; per record: the weights summed in the
      // terms' order (an ordered float8 sum adds one value at a time, as the engine does).
      sql: `SELECT x.id, sum(x.w ORDER BY x.i) AS score FROM (
  SELECT m.id, q.i, q.idf * ((count(*)::float8 * ($5::float8 + 1)) / (count(*)::float8 + $5::float8 * (1 - $6::float8 + ($6::float8 * cardinality(${TOKENS})) / $4::float8))) AS w
  FROM memory AS m
  CROSS JOIN LATERAL unnest(${TOKENS}) AS u(w)
  JOIN (SELECT t.term, t.idf::float8 AS idf, t.i FROM unnest(string_to_array($2, ' '), string_to_array($3, ' ')) WITH ORDINALITY AS t(term, idf, i)) AS q ON q.term = u.w
  WHERE ${INDEXED('m')} AND ${TOKENS} && string_to_array($2, ' ')${among ? ` AND m.id = ANY(string_to_array($8, ' ')::integer[])` : ''}
  GROUP BY m.id, m.search_text, q.i, q.idf
) AS x
GROUP BY x.id
ORDER BY score DESC, x.id
LIMIT $7`,
      params: [tenant, joined(terms), joined(idf), meanLength, k1, b, n, ...(among ? [ints(among)] : [])],
    };
  },
  neighbours(tenant, ids, reach): SqlStatement {
    return {
      sql: `SELECT c.id,
  array_to_string(ARRAY(SELECT m.id FROM memory AS m WHERE ${INDEXED('m')} AND m.id < c.id ORDER BY m.id DESC LIMIT $3), ' ') AS before,
  array_to_string(ARRAY(SELECT m.id FROM memory AS m WHERE ${INDEXED('m')} AND m.id > c.id ORDER BY m.id LIMIT $3), ' ') AS after
FROM memory AS c WHERE ${INDEXED('c')} AND c.id = ANY(string_to_array($2, ' ')::integer[])`,
      params: [tenant, ints(ids), reach],
    };
  },
};
