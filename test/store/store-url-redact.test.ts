/**
 * A store's password is never printed (src/store/url.ts `redact`, `storeName`): every URL form,
 * with `/`, `@`, `:`, `%`, `?`, `#`, `&` and a space in the password, raw and percent-encoded, in
 * the userinfo and in libpq's `?password=`; the parser's refusals and the driver's `location`
 * too. The CLI's lines that name a store are in test/cli/store-names.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/dialect/postgres/pg-driver.js';
import { describeStoreUrl, isDiagnostic, parseStoreUrl, redact, storeName } from '../../src/store/url.js';

/** Passwords, each with the part that must never be shown. */
const PASSWORDS: readonly [written: string, secret: string][] = [
  ['s3cr/et', 'cr/et'],
  ['s3cr@et', 'cr@et'],
  ['s3cr:et', 'cr:et'],
  ['s3cr%et', 'cr%et'],
  ['s3cr%2Fet', 'cr%2Fet'],
  ['s3cr%40et', 'cr%40et'],
  ['s3cr%3Aet', 'cr%3Aet'],
  ['s3cr%25et', 'cr%25et'],
  ['s3/cr@e:t%', 'cr@e'],
  ['a@b@c/d:e', 'b@c'],
  ['p@ss/w:rd', 'w:rd'],
  ['s3cr?et', 'cr?et'],
  ['s3cr#et', 'cr#et'],
  ['s3cr et', 'cr et'],
  ['s3cr&et', 'cr&et'],
];

/** What must not appear: the secret raw, percent-encoded (as a URL parser re-encodes it) and decoded. */
function forms(secret: string): string[] {
  let decoded = secret;
  try {
    decoded = decodeURIComponent(secret);
  } catch { /* a lone % is no escape */ }
  return [...new Set([secret, encodeURIComponent(secret), decoded, encodeURIComponent(decoded), 's3cr'])];
}

function expectHidden(shown: string, secret: string): void {
  for (const f of forms(secret)) expect(shown, `${JSON.stringify(shown)} shows ${JSON.stringify(f)}`).not.toContain(f);
}

describe('store names never show a password', () => {
  for (const [password, secret] of PASSWORDS) {
    for (const scheme of ['postgres', 'postgresql']) {
      const userinfo = `${scheme}://me:${password}@db.example:5432/agents?schema=team1`;
      it(`${userinfo}: the parser's answer, storeName, redact and the driver's location`, () => {
        const parsed = parseStoreUrl(userinfo);
        const shown = isDiagnostic(parsed) ? parsed.message : describeStoreUrl(parsed);
        expectHidden(shown, secret);
        expectHidden(storeName(userinfo), secret);
        expectHidden(redact(userinfo), secret);
        expectHidden(redactUrl(userinfo), secret);
        if (!isDiagnostic(parsed) && parsed.kind === 'postgres') expectHidden(redactUrl(parsed.url), secret);
        expect(storeName(userinfo)).toContain('me:***@');
      });
    }
    it(`?password=${password} (libpq's parameter) and a scheme without //`, () => {
      const query = `postgres://me@db.example/agents?sslmode=disable&password=${password}&application_name=t2m`;
      expectHidden(storeName(query), secret);
      expectHidden(redact(query), secret);
      expectHidden(redactUrl(query), secret);
      expect(storeName(query)).toContain('password=***');
      const noSlashes = `postgres:me:${password}@db.example/agents`;
      const refused = parseStoreUrl(noSlashes);
      expect(refused).toMatchObject({ code: 'bad-store-url' });
      expectHidden((refused as { message: string }).message, secret);
      const other = parseStoreUrl(`redis://me:${password}@host/0`);
      expect(other).toMatchObject({ code: 'bad-store-url' });
      expectHidden((other as { message: string }).message, secret);
    });
  }

  it('leaves names without a password as they are', () => {
    expect(storeName('postgres://me@db.example:5432/agents?schema=s')).toBe('postgres://me@db.example:5432/agents (schema s)');
    expect(storeName('postgres://db.example/agents')).toBe('postgres://db.example/agents');
    expect(storeName('pglite:./data')).toBe('pglite:./data');
    expect(storeName('./notes:v2@home.sqlite')).toBe('./notes:v2@home.sqlite');
    expect(storeName(':memory:')).toBe(':memory:');
    expect(redact('postgres://me@host:5432/db?application_name=a@b')).toBe('postgres://me@host:5432/db?application_name=a@b');
  });

  it('keeps the parts around the password', () => {
    expect(redact('postgres://me:p@ss/w:rd@host:5432/db')).toBe('postgres://me:***@host:5432/db');
    expect(storeName('postgres://me:p%2Fss@host:5432/db?schema=s')).toBe('postgres://me:***@host:5432/db (schema s)');
  });
});
