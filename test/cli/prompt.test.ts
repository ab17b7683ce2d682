/** `t2m prompt [--ir]` prints the language card (src/agents/card.ts), as spec/card.md and spec/card-ir.md hold it. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { t2m } from './run-cli.js';

const spec = (name: string) => readFileSync(new URL(`../../spec/${name}`, import.meta.url), 'utf8');

describe('t2m prompt', () => {
  it('prints the DSL card', () => {
    const r = t2m(['prompt']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(spec('card.md'));
  });

  it('--ir prints the JSON-IR card', () => {
    const r = t2m(['prompt', '--ir']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(spec('card-ir.md'));
  });

  it('--help describes the command and lists it in t2m --help', () => {
    const r = t2m(['prompt', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: t2m prompt');
    expect(r.stdout).toContain('--ir');
    expect(t2m(['--help']).stdout).toMatch(/prompt \[options\]/);
  });
});
