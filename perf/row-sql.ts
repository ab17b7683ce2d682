/**
 * The row-at-a-time form of an encode's SQL, for the benchmarks' "x row SQL" column: each
 * multi-row INSERT the engine issued for a run of Encodes (into `memory`, with RETURNING, and into
 * `audit_log`; spec/semantics.md "Runs of Encodes") split into the one-row INSERTs of the same columns
 * and values — the statements the engine issues when it executes each Encode on its own (its
 * record, then its audit entry). Other statements are kept as they are.
 */
/** A statement as the engine reports it in its results. */
interface SqlStatement { readonly sql: string; readonly params: readonly unknown[] }

const INSERT = /^INSERT INTO ("?memory"?|"?audit_log"?) \(([^)]*)\) VALUES /;

/** `statements` with each multi-row INSERT pair (a chunk's records, then its audit entries) as one-row INSERTs, record then entry, statement by statement. */
export function rowStatements(statements: readonly SqlStatement[]): SqlStatement[] {
  const out: SqlStatement[] = [];
  for (let i = 0; i < statements.length; i++) {
    const s = statements[i];
    const m = INSERT.exec(s.sql);
    const next = statements[i + 1];
    const n = next && INSERT.exec(next.sql);
    if (!m || !n || !/memory/.test(m[1]) || !/audit_log/.test(n[1]) || !s.sql.includes('), (')) {
      out.push(s);
      continue;
    }
    const records = split(s, m, ' RETURNING id');
    const entries = split(next, n, '');
    if (records.length !== entries.length) throw new Error('a run of Encodes wrote as many records as audit entries');
    for (let k = 0; k < records.length; k++) out.push(records[k], entries[k]);
    i++;
  }
  return out;
}

function split(s: SqlStatement, m: RegExpExecArray, returning: string): SqlStatement[] {
  const width = m[2].split(',').length;
  const postgres = s.sql.includes('$1');
  const placeholders = Array.from({ length: width }, (_, i) => (postgres ? `$${i + 1}` : '?')).join(', ');
  const sql = `INSERT INTO ${m[1]} (${m[2]}) VALUES (${placeholders})${returning}`;
  const out: SqlStatement[] = [];
  for (let at = 0; at < s.params.length; at += width) out.push({ sql, params: s.params.slice(at, at + width) });
  return out;
}
