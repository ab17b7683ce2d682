/** One way to name a store (src/store/url.ts): every form, and the refusals. */
import { describe, expect, it } from 'vitest';
import { describeStoreUrl, parseStoreUrl } from '../../src/store/url.js';

describe('store names', () => {
  it.each([
    [':memory:', { kind: 'memory' }],
    ['store.sqlite', { kind: 'file', path: 'store.sqlite' }],
    ['./a/b.db', { kind: 'file', path: './a/b.db' }],
    ['/abs/b.db', { kind: 'file', path: '/abs/b.db' }],
    ['file:x.sqlite', { kind: 'file', path: 'x.sqlite' }],
    ['C:\\stores\\a.sqlite', { kind: 'file', path: 'C:\\stores\\a.sqlite' }],
    ['pglite:', { kind: 'pglite' }],
    ['pglite:memory', { kind: 'pglite' }],
    ['pglite://', { kind: 'pglite' }],
    ['pglite:./data', { kind: 'pglite', dataDir: './data' }],
    ['pglite:/var/t2m', { kind: 'pglite', dataDir: '/var/t2m' }],
    ['postgres://me@127.0.0.1:5432/agents', { kind: 'postgres', url: 'postgres://me@127.0.0.1:5432/agents' }],
    ['postgresql://me:pw@db.example/agents?schema=team1&sslmode=disable', { kind: 'postgres', url: 'postgresql://me:pw@db.example/agents?sslmode=disable', schema: 'team1' }],
  ])('%s', (text, expected) => {
    expect(parseStoreUrl(text)).toEqual(expected);
  });

  it.each([
    ['', 'an empty store name'],
    ['mysql://me@host/db', "unknown kind of store 'mysql:'"],
    ['postgres://', 'names no host'],
    ['postgres://me@host:99999/db', 'not a well-formed PostgreSQL URL'],
    ['postgres://me@host/db?schema=a;drop', "schema 'a;drop' is not a plain identifier"],
    ['file:', 'names no file'],
  ])('refuses %j with bad-store-url', (text, message) => {
    const r = parseStoreUrl(text);
    expect(r).toMatchObject({ code: 'bad-store-url', severity: 'error' });
    expect((r as { message: string }).message).toContain(message);
  });

  it('never shows a password', () => {
    const r = parseStoreUrl('redis://me:secret@host/0');
    expect((r as { message: string }).message).not.toContain('secret');
    const u = parseStoreUrl('postgres://me:secret@host/db?schema=s');
    expect(describeStoreUrl(u as never)).toBe('postgres://me:***@host/db (schema s)');
  });
});
