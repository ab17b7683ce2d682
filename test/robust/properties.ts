/**
 * The hardening properties (issue 8), shared by the bounded vitest run
 * (test/robust/properties.test.ts) and the long runs of `npm run fuzz` (test/robust/fuzz.ts):
 *
 * - `parse`: the parser never throws nor breaks (`internal-error`) on any text — unicode, lone
 *   surrogates, deep brackets, huge tokens, DSL token soup — and what it accepts round-trips
 *   through the formatter: parse → print → parse gives the same IR, and printing is idempotent.
 * - `print`: IR → DSL → IR is the identity on valid (mutated gold) IRs, and the DSL is canonical.
 * - `validate`: validateIr, check and readInput never throw on arbitrary JSON (prototype-named
 *   keys included) or JSON text.
 * - `engine`: run never throws on the same inputs (a dry run on a small store, so it stays small).
 *
 * Each target is an arbitrary plus a predicate that throws on failure.
 */
import fc from 'fast-check';
import { check } from '../../src/check/index.js';
import { astToIr } from '../../src/convert/index.js';
import { run, type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { readJson } from '../../src/ir/json.js';
import { OPS, STAGES } from '../../src/ir/schema.js';
import { validateIr } from '../../src/ir/validate.js';
import { formatText, irsToText, readInput, textToIr } from '../../src/pipeline.js';
import { KEYWORDS, parse } from '../../src/syntax/index.js';
import { corpusIrs } from '../ir-corpus.js';

export const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf', '__defineGetter__'];

function fail(message: string): never {
  throw new Error(message);
}

const json = (v: unknown) => JSON.stringify(v);
/** JSON with keys sorted: equality of JSON values, whatever the key order. */
function canon(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** Own-property assignment, so `__proto__` stays a key. */
function setOwn(o: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

// ------------------------------------------------------------------ text for the parser

/** Any UTF-16 unit, lone surrogates included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const TOKENS = [
  ...KEYWORDS, ';', ',', ':', '.', '{', '}', '[', ']', '=', '>=', '<=', '"', '"x"', '"a b"', '"\\u00e9"', '"\\ud800"', '"\\q"', '"中文"', '1', '-2.5', '007',
  '2025-04-10T15:30:00+08:00', 'P7D', 'true', 'null', 'note', 'read_only', '__proto__', 'constructor', 'toString', '# c', '\n', ' ', '\t', '；', '“', '\ufeff',
];
/** DSL token soup: mostly well-formed words in random order, which exercises recovery. */
const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((ts) => ts.join(' '));
/** A statement skeleton with random holes. */
const skeleton = fc
  .tuple(fc.constantFrom('ENCODE', 'RETRIEVE', 'LABEL', 'UPDATE', 'LOCK', 'DELETE', 'PROMOTE'), soup, fc.constantFrom(';', '', ';;', '\n'))
  .map(([verb, rest, end]) => `${verb} ${rest}${end}`);
const deep = fc
  .tuple(fc.integer({ min: 1, max: 400 }), fc.constantFrom('[', '{ a:', '{'), fc.boolean())
  .map(([n, open, closed]) => `ENCODE "x" FACETS { k: ${open.repeat(n)} 1 ${closed ? (open === '[' ? ']' : '}').repeat(n) : ''} };`);
const huge = fc
  .tuple(fc.constantFrom('a', '\\u0041', '\\q', '中', 'x y', '"', 'k.'), fc.integer({ min: 1000, max: 20_000 }), fc.constantFrom('ENCODE "', 'ENCODE ', 'ENCODE "x" TAGS "', '# ', 'UPDATE ID 1 SET ', 'ENCODE "x" WITH args.'), fc.constantFrom('";', '', ';', 'k = 1;'))
  .map(([unit, n, before, after]) => `${before}${unit.repeat(n)}${after}`);

export const dslText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: anyUnit, maxLength: 80 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 80 }), weight: 1 },
  { arbitrary: fc.array(skeleton, { maxLength: 6 }).map((s) => s.join('\n')), weight: 6 },
  { arbitrary: deep, weight: 1 },
  { arbitrary: huge, weight: 1 },
);

/** The DSL property: no throw, no internal error; accepted text round-trips through the formatter. */
export function parseProperty(text: string): void {
  const parsed = parse(text);
  if (parsed.diagnostics.some((d) => d.code === 'internal-error')) fail(`internal-error: ${json(parsed.diagnostics)}`);
  const front = textToIr(text);
  if (front.diagnostics.some((d) => d.code === 'internal-error')) fail('internal-error in textToIr');
  if (parsed.diagnostics.some((d) => d.severity === 'error')) return;
  const first = astToIr(parsed.script);
  if ((first.diagnostics ?? []).some((d) => d.severity === 'error')) return;
  const formatted = formatText(text);
  if (formatted.text === undefined) fail(`accepted text not formatted: ${json(formatted.diagnostics)}`);
  const reparsed = parse(formatted.text);
  if (reparsed.diagnostics.some((d) => d.severity === 'error')) fail(`printed text does not parse: ${json(formatted.text)} ${json(reparsed.diagnostics)}`);
  const second = astToIr(reparsed.script);
  if (canon(second.irs) !== canon(first.irs)) fail(`parse → print → parse changed the IR:\n${json(first.irs)}\n${json(second.irs)}\nprinted: ${formatted.text}`);
  const again = formatText(formatted.text);
  if (again.text !== formatted.text) fail(`print is not idempotent:\n${formatted.text}\n${again.text}`);
}

// ------------------------------------------------------------------ JSON for validation and the engine

const KEYS = ['ids', 'filter', 'search', 'all', 'intent', 'query', 'limit', 'time_range', 'start', 'end', 'relative', 'amount', 'unit', 'weight',
  'payload', 'text', 'tags', 'facets', 'policy', 'allow', 'deny', 'overrides', 'k', 'set', 'time_from', 'time_to', 'lock_expires', 'mode', 'has_tags',
  'read_whitelist', 'confirmation', 'dry_run', 'actor', 'expires'];
const key = fc.oneof({ arbitrary: fc.constantFrom(...KEYS), weight: 4 }, { arbitrary: fc.constantFrom(...PROTO_KEYS), weight: 2 }, { arbitrary: fc.string({ maxLength: 6 }), weight: 1 });
const leaf = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 0.5, 2, '', ' ', 'P7D', '2025-01-01T00:00:00Z', 'read_only', 'Delete', '\ud800', '\ufeffx', 1e300, -0),
  fc.string({ unit: anyUnit, maxLength: 10 }),
  fc.double(),
  fc.integer(),
);
/** JSON-like trees whose objects are built with own properties, so prototype-named keys are keys. */
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('tree'), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie('tree')), { maxLength: 4 }).map((entries) => {
      const o = {};
      for (const [k, v] of entries) setOwn(o, k, v);
      return o;
    }),
  ),
}));
const irLike = fc
  .record({
    stage: fc.oneof(fc.constantFrom(...STAGES), tree),
    op: fc.oneof(fc.constantFrom(...OPS), tree),
    target: tree,
    args: tree,
    meta: tree,
  }, { requiredKeys: ['stage', 'op'] });

/** Every path to a value in a JSON value. */
function paths(v: unknown, prefix: PropertyKey[] = []): PropertyKey[][] {
  const out = [prefix];
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...prefix, Array.isArray(v) ? Number(k) : k]));
  return out;
}

/** A copy of `v` with `value` at `path` (or, with `insertKey`, a new key below it). */
function replaceAt(v: unknown, path: PropertyKey[], value: unknown, insertKey?: string): unknown {
  if (!path.length) {
    if (insertKey === undefined || !v || typeof v !== 'object' || Array.isArray(v)) return insertKey === undefined ? value : v;
    const o = { ...(v as object) };
    setOwn(o, insertKey, value);
    return o;
  }
  const copy: any = Array.isArray(v) ? [...v] : { ...(v as object) };
  setOwn(copy, path[0], replaceAt(copy[path[0]], path.slice(1), value, insertKey));
  return copy;
}

let gold: unknown[] | undefined;
/** Gold IRs from the upstream corpus (every fifth), loaded on first use. */
function goldIrs(): unknown[] {
  return (gold ??= corpusIrs().filter((_, i) => i % 5 === 0).map((c) => c.ir));
}

/** Gold IRs with one value replaced, or a (often prototype-named) key added somewhere. */
export const mutatedGold: fc.Arbitrary<unknown> = fc
  .tuple(fc.nat(), fc.nat(), fc.oneof(tree, fc.integer({ min: -5, max: 500 })), fc.option(key, { nil: undefined }))
  .map(([which, n, value, insertKey]) => {
    const irs = goldIrs();
    const ir = irs[which % irs.length];
    const ps = paths(ir);
    return replaceAt(ir, ps[n % ps.length], value, insertKey);
  });

export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: mutatedGold, weight: 4 },
  { arbitrary: irLike, weight: 3 },
  { arbitrary: fc.json().map((t) => JSON.parse(t) as unknown), weight: 1 },
  { arbitrary: fc.anything({ maxDepth: 3 }), weight: 1 },
);

/** JSON text: the values above as text (with prototype-named keys spliced in), or arbitrary text. */
export const jsonText: fc.Arbitrary<string> = fc.oneof(
  anyJson.map((v) => { try { return JSON.stringify(v) ?? 'null'; } catch { return '{}'; } }),
  fc.tuple(anyJson, fc.constantFrom(...PROTO_KEYS)).map(([v, k]) => (JSON.stringify(v) ?? '{}').replace('{', `{"${k}": {"${k}": 1},`)),
  fc.string({ unit: anyUnit, maxLength: 60 }).map((s) => `{"stage":"ENC","op":"Encode","args":{"payload":{"text":${JSON.stringify(s)}}}}`),
  fc.integer({ min: 1, max: 3000 }).map((n) => `{"stage":"ENC","op":"Encode","args":{"facets":{"a":${'['.repeat(n)}${']'.repeat(n)}}}}`),
);

/** Validation, the checker and the readers never throw; every diagnostic has a code and a message. */
export function validateProperty(value: unknown): void {
  const v = validateIr(value);
  for (const d of v.diagnostics) if (typeof d.code !== 'string' || typeof d.message !== 'string') fail(`bad diagnostic ${json(d)}`);
  if (v.ir) check([v.ir], { policy: 'strict' });
  let text: string | undefined;
  try { text = JSON.stringify(value); } catch { /* BigInt and friends: not JSON */ }
  if (text !== undefined) {
    readJson(text);
    readInput(text);
  }
}

export function jsonTextProperty(text: string): void {
  const r = readInput(text);
  for (const d of r.diagnostics) if (typeof d.code !== 'string') fail(`bad diagnostic ${json(d)}`);
}

/** Valid IRs print as DSL that reads back as the same IR, and the printed DSL is canonical. */
export function printProperty(value: unknown): void {
  const v = validateIr(value);
  if (!v.ir || v.diagnostics.some((d) => d.severity === 'error')) return;
  const text = irsToText([v.ir]);
  const back = textToIr(text);
  if (back.irs.length !== 1 || canon(back.irs[0]) !== canon(v.ir)) fail(`IR → DSL → IR changed it:\n${json(v.ir)}\n${json(back.irs)}\n${text}\n${json(back.diagnostics)}`);
  const f = formatText(text);
  if (f.text !== undefined && f.text !== text) fail(`printed IR is not canonical:\n${text}\n${f.text}`);
}

let store: Store | undefined;
let runs = 0;
/** A small store, made afresh every 500 runs, with a few records to act on. */
export async function engineStore(): Promise<Store> {
  if (!store || ++runs % 500 === 0) {
    store = await createStore();
    run(store, [
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'alpha' }, tags: ['a'], facets: { constructor: 1 } } },
      { stage: 'ENC', op: 'Encode', args: { payload: { text: 'beta' }, tags: ['b'] } },
    ], { now: '2025-05-01T00:00:00Z' });
  }
  return store;
}

/** run never throws (dry run, so the store stays as it is). */
export function engineProperty(s: Store, value: unknown): void {
  const r = run(s, [value], { now: '2025-05-01T00:00:00Z', dryRun: true, limits: { maxRows: 50 } });
  for (const d of r.diagnostics) if (typeof d.code !== 'string') fail(`bad diagnostic ${json(d)}`);
}

/** The fuzz targets by name: each gives a fast-check property over its inputs. */
export const TARGETS: Readonly<Record<string, () => Promise<fc.IRawProperty<[any]>>>> = {
  parse: async () => fc.property(dslText, parseProperty),
  print: async () => fc.property(mutatedGold, printProperty),
  validate: async () => fc.property(fc.oneof(anyJson.map((v) => ({ v })), jsonText.map((t) => ({ t }))), (x: { v?: unknown; t?: string }) => {
    if ('t' in x) jsonTextProperty(x.t!);
    else validateProperty(x.v);
  }),
  engine: async () => fc.asyncProperty(anyJson, async (value) => engineProperty(await engineStore(), value)),
};
