/**
 * Every line of `t2m` that names a store shows it without its password (src/store/url.ts
 * `storeName`): refusals, unreachable servers and the commands that serve store files only
 * (why, lsp), for passwords with `/`, `@`, `:` and `%`, raw and encoded.
 */
import { describe, expect, it } from 'vitest';
import { files, t2m } from './run-cli.js';

const NOW = ['--now', '2025-10-21T00:00:00Z'];
const { script } = files({ script: 'ENCODE "hello";\n' });

/** Nothing of the secret, raw, encoded or decoded, and no stack trace. */
function expectHidden(out: string, ...secrets: string[]): void {
  for (const s of secrets) expect(out, out).not.toContain(s);
  expect(out).not.toMatch(/\n\s+at /);
}

describe('store names in CLI messages', () => {
  it.each([
    // A raw `/` and `@`: refused, since a URL parser would take part of it for the host.
    ['postgres://me:p@ss/w:rd@127.0.0.1:1/nothing', /bad-store-url: 'postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/nothing' has an '@' after the host/, ['ss/w', 'w:rd', 'p@ss']],
    // Encoded `/` and `@`, a raw `:` and `%`: the server is unreachable, the message names it redacted.
    ['postgres://me:p%2Fs%40s:w%rd@127.0.0.1:1/nothing', /store-unreachable: cannot reach the PostgreSQL store postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/nothing: .*ECONNREFUSED/, ['p%2Fs', 's%40s', 'p/s', 's@s', 'w%rd']],
    ['postgresql://me@127.0.0.1:1/nothing?sslmode=disable&password=p@ss/w:rd%', /store-unreachable: .*nothing\?sslmode=disable&password=\*\*\*: .*ECONNREFUSED/, ['p@ss', 'w:rd', 'p%40ss']],
    ['postgres:me:p@ss@127.0.0.1/nothing', /bad-store-url: 'postgres:me:\*\*\*@127\.0\.0\.1\/nothing' is not a PostgreSQL URL/, ['p@ss']],
  ])('t2m run --db %s', (db, message, secrets) => {
    const r = t2m(['run', script, '--db', db, ...NOW]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expectHidden(r.stderr + r.stdout, ...secrets);
  });

  it.each([
    ['why', '1', '--db'],
    ['lsp', '--db'],
  ])('t2m %s refuses a PostgreSQL store without showing its password', (...args) => {
    const r = t2m([...args, 'postgres://me:s3cr%2Fet%40x@db.example/agents']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^t2m ${args[0]}: bad-store-url: 'postgres://me:\\*\\*\\*@db\\.example/agents' is a PostgreSQL store`));
    expectHidden(r.stderr + r.stdout, 's3cr', 'et%40x', 'et@x');
  });

  it.each([
    ['mcp', '--actor', 'me', '--db'],
    ['plan', 'remember this', '--base-url', 'http://127.0.0.1:1/v1', '--model', 'm', '--db'],
  ])('t2m %s takes a PostgreSQL store and names an unreachable one without its password', (...args) => {
    const r = t2m([...args, 'postgres://me:s3cr%2Fet%40x@127.0.0.1:1/agents']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^t2m ${args[0]}: store-unreachable: cannot reach the PostgreSQL store postgres://me:\\*\\*\\*@127\\.0\\.0\\.1:1/agents`));
    expectHidden(r.stderr + r.stdout, 's3cr', 'et%40x', 'et@x');
  });
});
