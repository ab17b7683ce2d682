/**
 * Named parameters for PostgreSQL. The engine binds positionally (`$1`, `$2`: the dialect's
 * placeholders); SQL given as text with named parameters (`:name`, `@name` or `$name`, as
 * SQLite takes them — the benchmark's assertions, `Store.query`) is rewritten to numbered
 * placeholders here. Quoted strings, quoted identifiers, dollar-quoted bodies, comments and `::`
 * casts are left alone.
 */
import type { SqlValue } from '../../store/dialect.js';
import type { SqlParams } from '../../store/driver.js';

export interface Positional {
  readonly sql: string;
  readonly values: SqlValue[];
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/** `sql` with its named parameters numbered, and the values in that order (a name used twice is bound once). */
export function toPositional(sql: string, params: SqlParams | undefined): Positional {
  if (!params || Array.isArray(params)) return { sql, values: [...((params as readonly SqlValue[] | undefined) ?? [])] };
  const named = params as Readonly<Record<string, SqlValue>>;
  const index = new Map<string, number>();
  const values: SqlValue[] = [];
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = closing(sql, i + 1, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '$' && /[A-Za-z_$]/.test(sql[i + 1] ?? '') && dollarTag(sql, i)) {
      const tag = dollarTag(sql, i)!;
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end < 0 ? sql.length : end + tag.length;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === ':' && sql[i + 1] === ':') {
      out += '::';
      i += 2;
    } else if ((c === ':' || c === '@' || c === '$') && sql[i - 1] !== ':') {
      NAME.lastIndex = i + 1;
      const m = NAME.exec(sql);
      if (m && Object.prototype.hasOwnProperty.call(named, m[0])) {
        let n = index.get(m[0]);
        if (n === undefined) {
          values.push(named[m[0]]);
          n = values.length;
          index.set(m[0], n);
        }
        out += `$${n}`;
        i += 1 + m[0].length;
      } else {
        out += c;
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return { sql: out, values };
}

function closing(sql: string, from: number, quote: string): number {
  let i = from;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

/** The `$tag$` opening a dollar-quoted string at `i`, if there is one. */
function dollarTag(sql: string, i: number): string | null {
  const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64));
  return m ? m[0] : null;
}
