/**
 * Loads every upstream IR (`fixtures/upstream/`, a verbatim copy of the Text2Mem data: see its
 * PROVENANCE.md): benchmark prerequisites and gold schema_list items, and ir/examples.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The upstream Text2Mem benchmark and IR examples, inside the repository. */
export const UPSTREAM = resolve(import.meta.dirname, '../fixtures/upstream');
export const BENCHMARK = join(UPSTREAM, 'benchmark/text2mem-bench-v2.en.jsonl');

export interface CorpusIr {
  /** Where it came from, e.g. `bench:t2m-en-...:schema_list[0]`. */
  readonly where: string;
  readonly ir: unknown;
}

export function benchmarkSamples(): any[] {
  return readFileSync(BENCHMARK, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

function walkFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walkFiles(p) : p.endsWith('.json') ? [p] : [];
  });
}

function collectIrs(value: unknown, where: string, out: CorpusIr[]): void {
  if (Array.isArray(value)) value.forEach((v, i) => collectIrs(v, `${where}[${i}]`, out));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.op === 'string' && typeof o.stage === 'string') out.push({ where, ir: o });
    else for (const [k, v] of Object.entries(o)) collectIrs(v, `${where}.${k}`, out);
  }
}

export function corpusIrs(): CorpusIr[] {
  const out: CorpusIr[] = [];
  for (const s of benchmarkSamples()) {
    s.prerequisites.forEach((ir: unknown, i: number) => out.push({ where: `bench:${s.id}:prerequisites[${i}]`, ir }));
    s.schema_list.forEach((ir: unknown, i: number) => out.push({ where: `bench:${s.id}:schema_list[${i}]`, ir }));
  }
  for (const f of walkFiles(join(UPSTREAM, 'ir/examples'))) collectIrs(JSON.parse(readFileSync(f, 'utf8')), f.slice(UPSTREAM.length + 1), out);
  return out;
}
