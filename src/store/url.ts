/**
 * One way to name a store, everywhere one is named (`--db`, `openStoreUrl`):
 *
 * | written | the store |
 * | --- | --- |
 * | `:memory:` | an in-memory SQLite store (sql.js), gone at exit |
 * | `path/to/store.sqlite`, `file:path` | an SQLite store file (better-sqlite3), created when missing |
 * | `pglite:` (or `pglite:memory`) | PGlite (PostgreSQL in this process), in memory |
 * | `pglite:./dir`, `pglite:/abs/dir` | PGlite with its data in that directory, created when missing |
 * | `postgres://user:pass@host:port/db?schema=name`, `postgresql://…` | a PostgreSQL server; `schema` (default `public`) holds the store's tables |
 *
 * A PostgreSQL store (PGlite or a server) also takes `?keywords=server` (`pglite:./dir?keywords=server`,
 * `postgres://…?keywords=server`): keyword searches are scored by BM25 in SQL on the database
 * instead of the engine's in-memory index (`keywords=engine`, the default; spec/retrieval.md).
 *
 * Any other `scheme://` is refused with `bad-store-url` rather than taken for a file name.
 * Reading a name imports nothing of Node or of a driver (the browser-safe entry may use it);
 * opening the store it names is src/dialect/open-url.ts (Node only).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export type StoreUrl =
  | { readonly kind: 'memory' }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'pglite'; readonly dataDir?: string; readonly keywords?: KeywordRanker }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string; readonly keywords?: KeywordRanker };

/** Who scores a PostgreSQL store's keyword searches (`?keywords=`): the engine's in-memory index, or the database. */
export type KeywordRanker = 'engine' | 'server';
const KEYWORD_RANKERS: readonly string[] = ['engine', 'server'];
const badRanker = (v: string) => bad(`keywords '${v}' is not a keyword ranker: write keywords=engine (the default) or keywords=server`);

const bad = (message: string): Diagnostic => ({ code: 'bad-store-url', severity: 'error', message });

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

export const STORE_URL_FORMS = "a file path, ':memory:', 'pglite:' (in memory), 'pglite:./dir' or 'postgres://user@host:port/db'";

/** Reads a store name; a diagnostic when it names no store this version can open. */
export function parseStoreUrl(text: string): StoreUrl | Diagnostic {
  const s = text.trim();
  if (!s) return bad(`an empty store name; give ${STORE_URL_FORMS}`);
  if (s === ':memory:') return { kind: 'memory' };
  if (/^pglite:/i.test(s)) {
    let rest = s.slice('pglite:'.length);
    if (rest.startsWith('//')) rest = rest.slice(2);
    // `?keywords=…` at the end; any other `?` stays part of the directory's name.
    const param = /\?keywords=([^&?#]*)$/.exec(rest);
    if (param && !KEYWORD_RANKERS.includes(param[1])) return badRanker(param[1]);
    const keywords = param ? { keywords: param[1] as KeywordRanker } : {};
    if (param) rest = rest.slice(0, param.index);
    if (rest === '' || rest === 'memory' || rest === ':memory:') return { kind: 'pglite', ...keywords };
    return { kind: 'pglite', dataDir: rest, ...keywords };
  }
  if (/^postgres(ql)?:\/\//i.test(s)) {
    // An `@` after the host (`postgres://me:p@ss/w@host/db`) is a password with a raw `/` or `@`
    // in it: a URL parser would take part of it for the host (and a message would show it).
    const afterScheme = s.slice(s.indexOf('//') + 2);
    if (afterScheme.slice(0, afterScheme.search(/[?#]|$/)).replace(/^[^/]*/, '').includes('@')) {
      return bad(`'${redact(s)}' has an '@' after the host: write a '/', '@', '?' or '#' in the user name or password percent-encoded (%2F, %40, %3F, %23)`);
    }
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      return bad(`'${redact(s)}' is not a well-formed PostgreSQL URL (postgres://user:password@host:port/database)`);
    }
    if (!u.hostname && !u.searchParams.get('host')) return bad(`'${redact(s)}' names no host (postgres://user@host:port/database)`);
    if (u.port && !(Number(u.port) > 0 && Number(u.port) < 65536)) return bad(`'${redact(s)}' has a bad port '${u.port}'`);
    const schema = u.searchParams.get('schema') ?? undefined;
    if (schema !== undefined && !SCHEMA_NAME.test(schema)) return bad(`schema '${schema}' is not a plain identifier (letters, digits, _ and $, at most 63)`);
    u.searchParams.delete('schema');
    const keywords = u.searchParams.get('keywords') ?? undefined;
    if (keywords !== undefined && !KEYWORD_RANKERS.includes(keywords)) return badRanker(keywords);
    u.searchParams.delete('keywords');
    return { kind: 'postgres', url: u.toString(), ...(schema !== undefined ? { schema } : {}), ...(keywords !== undefined ? { keywords: keywords as KeywordRanker } : {}) };
  }
  // `postgres:user:pw@host` is no file name: refused (and shown without its password).
  if (/^postgres(ql)?:/i.test(s)) return bad(`'${redact(s)}' is not a PostgreSQL URL: write postgres://user:password@host:port/database`);
  if (/^file:/i.test(s)) {
    const path = s.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    return path ? { kind: 'file', path } : bad(`'${s}' names no file`);
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]+):\/\//.exec(s);
  if (scheme) return bad(`'${redact(s)}': unknown kind of store '${scheme[1]}:'; give ${STORE_URL_FORMS}`);
  return { kind: 'file', path: s };
}

/**
 * The name with every password hidden: the userinfo's (`user:***@`) and a `password=` query
 * parameter's. A password may hold `@`, `/`, `:`, `%`, `?` or `#`, raw or percent-encoded, so the
 * userinfo is not read the way a URL parser would (a raw `/` ends the authority there, and the
 * rest would be shown): a `:` before any `@` starts a password, and it runs to the name's last
 * `@`. That may hide more than a password (an `@` in the query); it never shows one.
 */
export function redact(url: string): string {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/)?/.exec(url);
  if (!scheme) return url;
  const head = scheme[0];
  let rest = url.slice(head.length);
  const colon = rest.search(/[:@]/);
  const at = rest.lastIndexOf('@');
  if (colon >= 0 && rest[colon] === ':' && at > colon) rest = `${rest.slice(0, colon)}:***${rest.slice(at)}`;
  // libpq's `?password=` (and `sslpassword=`): to the end of the query, since a raw `&` may be part of it.
  rest = rest.replace(/([?&][^=&#]*pass[^=&#]*=)[^#]*/i, '$1***');
  return head + rest;
}

/** How a name given by the caller (`--db`) is shown in messages: as read, never with its password. */
export function storeName(text: string): string {
  const u = parseStoreUrl(text);
  return isDiagnostic(u) ? redact(text.trim()) : describeStoreUrl(u);
}

/** How a store is named in messages (never with its password). */
export function describeStoreUrl(u: StoreUrl): string {
  switch (u.kind) {
    case 'memory': return ':memory:';
    case 'file': return u.path;
    case 'pglite': return u.dataDir !== undefined ? `pglite:${u.dataDir}` : 'pglite:';
    case 'postgres': return redact(u.url) + (u.schema ? ` (schema ${u.schema})` : '');
  }
}

export const isDiagnostic = (x: StoreUrl | Diagnostic): x is Diagnostic => 'code' in x;
