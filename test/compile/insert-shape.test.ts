/**
 * `compileInsert` fills a template per dialect and column list (its text and each column's kind):
 * on records of near-identical shapes, taken in any order, it must give exactly the statement the
 * per-record build gave (the reference below is that build, as it was), so a cached shape never
 * lends one record another's text, column order or value encoding.
 */
import { describe, expect, it } from 'vitest';
import { COLUMN_BY_NAME, compileInsert, packVector, unpackVector, type Dialect, type SqlStatement, type SqlValue } from '../../src/compile/index.js';
import { sqlite } from '../../src/dialect/sqlite/dialect.js';
import { postgres, postgresVector } from '../../src/dialect/postgres/dialect.js';
import { ParamList } from '../../src/store/dialect.js';

/** The per-record build `compileInsert` replaced: every column looked up, every placeholder bound. */
function reference(values: Readonly<Record<string, unknown>>, d: Dialect): SqlStatement {
  const encodeValue = (column: string, value: unknown): SqlValue => {
    if (value === undefined || value === null) return null;
    const c = COLUMN_BY_NAME.get(column);
    if (!c) throw new Error(`internal: unknown memory column ${column}`);
    if (c.kind === 'json-array' || c.kind === 'json-object') return JSON.stringify(value);
    if (c.kind === 'blob') return packVector(value as ArrayLike<number>);
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'number' || typeof value === 'string') return value;
    return JSON.stringify(value);
  };
  const encodeFor = (column: string, value: unknown): SqlValue => {
    if (d.vectors && value !== undefined && value !== null && COLUMN_BY_NAME.get(column)?.kind === 'blob') {
      if (typeof value === 'string') return value;
      return d.vectors.value(value instanceof Uint8Array ? unpackVector(value) : value instanceof Float32Array ? value : Float32Array.from(value as ArrayLike<number>));
    }
    return encodeValue(column, value);
  };
  const cols: string[] = [];
  const params: SqlValue[] = [];
  for (const c in values) {
    const v = values[c];
    if (c === 'id' || v === undefined || !Object.hasOwn(values, c)) continue;
    cols.push(c);
    params.push(encodeFor(c, v));
  }
  const p = new ParamList(d);
  return { sql: `INSERT INTO ${d.quoteIdent('memory')} (${cols.map(d.quoteIdent).join(', ')}) VALUES (${params.map((v) => p.bind(v)).join(', ')})${d.insertReturningId() ?? ''}`, params };
}

const vector = Float32Array.from([0.5, -0.25, 1e-7, 3]);
/** Records of near-identical shapes: a key added or missing, null against absent, list against scalar, keys reordered, unicode, number-like text, vectors in each form. */
const records: Record<string, unknown>[] = [
  { text: 'a', type: 'note', tags: ['x'], facets: {}, time: '2025-01-01T00:00:00Z' },
  { text: 'a', type: 'note', tags: ['x'], facets: {} },
  { text: 'a', type: 'note', tags: ['x'], facets: {}, time: null },
  { text: 'a', type: 'note', tags: ['x'], facets: {}, time: undefined },
  { type: 'note', text: 'a', tags: ['x'], facets: {}, time: '2025-01-01T00:00:00Z' },
  { text: 'a', type: 'note', tags: 'x', facets: {} },
  { text: 'a', type: ['note'], tags: [], facets: { k: [1, { z: null }] } },
  { text: 'a', type: { nested: { b: 1, a: 2 } }, tags: ['x', 'y'], facets: { b: 1, a: 2 } },
  { text: 'a', type: { nested: { a: 2, b: 1 } }, tags: ['y', 'x'], facets: { a: 2, b: 1 } },
  { text: '12', type: '0', weight: 0.5, deleted: 0, tags: ['1e3'], facets: { '1': 'one' } },
  { text: 12, type: 0, weight: '0.5', deleted: false, tags: [1e3], facets: {} },
  { text: true, deleted: true, weight: -0, tags: null, facets: null },
  { text: 'é€𝄞 "quoted" \\ \n', subject: 'ünï', topic: '中文', tags: ['标签', '🙂'], facets: { 'ключ': 'значение' } },
  { text: 'v', embedding: [0.5, -0.25], embedding_f32: vector, embedding_model: 't2m-ngram-4' },
  { text: 'v', embedding: null, embedding_f32: packVector(vector), embedding_model: 't2m-ngram-4' },
  { text: 'v', embedding_f32: [0.5, -0.25, 1e-7, 3], embedding_model: 'caller' },
  { text: 'v', embedding_f32: '[0.5,-0.25,1e-7,3]', embedding_model: 'caller' },
  { id: 7, text: 'id is never inserted', tags: ['x'] },
  { text: 'a', type: 'note', tags: ['x'], facets: {}, time: '2025-01-01T00:00:00Z', owner: 'ann', tenant: 't', trace_id: null, statement_index: 3 },
  { text: 'a', type: 'note', tags: ['x'], facets: {}, time: '2025-01-01T00:00:00Z', owner: null, tenant: 't', trace_id: 'run-1', statement_index: 0 },
];

const same = (a: SqlStatement, b: SqlStatement) => {
  expect(a.sql).toBe(b.sql);
  expect(a.params.length).toBe(b.params.length);
  a.params.forEach((v, i) => {
    if (v instanceof Uint8Array) expect([...v]).toEqual([...(b.params[i] as Uint8Array)]);
    else expect(v).toBe(b.params[i]);
  });
};

describe('compileInsert: one template per dialect and column list', () => {
  for (const d of [sqlite, postgres, postgresVector]) {
    it(`gives the per-record statement on every shape, in every order (${d.name}${d.vectors ? ' + vectors' : ''})`, () => {
      // Forwards, backwards and interleaved: a shape cached by an earlier record must not leak into a later one.
      const orders = [records, [...records].reverse(), records.flatMap((r, i) => [r, records[(i * 7) % records.length]])];
      for (const order of orders) for (const r of order) same(compileInsert(r, d), reference(r, d));
    });
  }

  it('gives the per-record statement when dialects alternate record by record', () => {
    for (const r of [...records, ...records]) for (const d of [sqlite, postgresVector, postgres, sqlite]) same(compileInsert(r, d), reference(r, d));
  });

  it('gives each dialect its own text for the same columns', () => {
    const r = records[0];
    expect(compileInsert(r, sqlite).sql).toContain('?');
    expect(compileInsert(r, postgres).sql).toContain('$5');
    expect(compileInsert(r, sqlite).sql).not.toContain('$');
  });

  it('refuses a column the store does not have, whether or not its shape was seen', () => {
    expect(() => compileInsert({ text: 'a', nope: 1 }, sqlite)).toThrow(/unknown memory column nope/);
    expect(() => compileInsert({ text: 'a', nope: 1 }, sqlite)).toThrow(/unknown memory column nope/);
  });
});
