import { describe, expect, it } from 'vitest';
import { getDiagnostics } from '../../src/services/diagnostics.js';
import { format } from '../../src/services/format.js';
import { formatText } from '../../src/pipeline.js';

describe('getDiagnostics', () => {
  it('reports syntax and check problems with ranges, none for a good script', () => {
    expect(getDiagnostics('PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9')).toEqual([]);
    const bad = getDiagnostics('ENCODE "a";\nPROMOTE WHERE tags HAS "x" LIMT 5 SET weight 0.9;');
    expect(bad.some((d) => d.severity === 'error' && d.range?.start.line === 2)).toBe(true);
  });

  it('applies the strict policy on request', () => {
    const text = 'PROMOTE WHERE tags HAS "x" SET weight 0.9';
    expect(getDiagnostics(text).filter((d) => d.severity === 'error')).toEqual([]);
    expect(getDiagnostics(text, 'strict').filter((d) => d.severity === 'error').length).toBeGreaterThan(0);
  });
});

describe('format', () => {
  it('is the project printer, idempotent, and leaves broken text alone', () => {
    const messy = 'promote   where search "OKR progress"  limit 5 set weight 0.9 # keep me\n';
    const once = format(messy);
    expect(once.text).toBe(formatText(messy).text);
    expect(once.text).toContain('# keep me');
    expect(format(once.text!).text).toBe(once.text);
    const broken = format('ENCODE "a" TAGS ,,');
    expect(broken.text).toBeUndefined();
    expect(broken.diagnostics[0].severity).toBe('error');
  });
});
