import { describe, expect, it } from 'vitest';
import { codeFrame, formatDiagnostic, formatDiagnostics, formatHeading } from '../../src/diagnostics/codeFrame.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { LineIndex } from '../../src/diagnostics/position.js';
import { closest } from '../../src/diagnostics/suggest.js';

const text = 'RETRIEVE WHERE tags HAS "a"\nPROMOTE ID "1" SET weight 1.5\n';
const lines = new LineIndex(text);
const range = lines.range(text.indexOf('1.5'), text.indexOf('1.5') + 3);
const d: Diagnostic = {
  code: 'out-of-range',
  severity: 'error',
  message: 'weight must be between 0 and 1, got 1.5',
  range,
  fix: { message: "replace '1.5' with '1'", edits: [{ range, newText: '1' }] },
};

describe('code frames', () => {
  it('prints the heading as path:line:col: severity code message', () => {
    expect(formatHeading(d, 'notes.t2m')).toBe('notes.t2m:2:27: error out-of-range weight must be between 0 and 1, got 1.5');
  });

  it('underlines the range under its source line, with a line of context and the fix', () => {
    expect(formatDiagnostic(d, { path: 'notes.t2m', text })).toBe(
      [
        'notes.t2m:2:27: error out-of-range weight must be between 0 and 1, got 1.5',
        '  1 | RETRIEVE WHERE tags HAS "a"',
        '> 2 | PROMOTE ID "1" SET weight 1.5',
        '    |                           ^^^',
        "  fix: replace '1.5' with '1'",
      ].join('\n'),
    );
  });

  it('marks every line of a multi-line range', () => {
    const r = lines.range(text.indexOf('"a"'), text.indexOf('ID'));
    expect(codeFrame(text, r, 0)).toBe(
      ['> 1 | RETRIEVE WHERE tags HAS "a"', '    |                         ^^^', '> 2 | PROMOTE ID "1" SET weight 1.5', '    | ^^^^^^^^'].join('\n'),
    );
  });

  it('shows a caret for an empty range and prints diagnostics without ranges by statement', () => {
    const at = lines.position(0);
    expect(codeFrame(text, { start: at, end: at }, 0)).toBe('> 1 | RETRIEVE WHERE tags HAS "a"\n    | ^');
    const noRange: Diagnostic = { code: 'target-required', severity: 'error', message: 'needs a target', statement: 2, path: 'target' };
    expect(formatDiagnostic(noRange, { path: 'x.json' })).toBe('x.json: error target-required needs a target (statement 3, target)');
  });

  it('separates several diagnostics with blank lines', () => {
    expect(formatDiagnostics([d, d], { text }).split('\n\n')).toHaveLength(2);
  });
});

describe('suggestions', () => {
  it('finds the closest candidate within the distance, ignoring case', () => {
    expect(closest('Promot', ['Promote', 'Demote'])).toBe('Promote');
    expect(closest('RETRIEVE', ['Retrieve'])).toBe('Retrieve');
    expect(closest('xyz', ['Promote', 'Demote'])).toBeUndefined();
    expect(closest('ab', ['cd'])).toBeUndefined();
  });
});

describe('code frames for wide and long lines', () => {
  it('lines carets up after Chinese characters (two columns each)', () => {
    const src = 'ENCODE "会议记录" TYPE notte';
    const l = new LineIndex(src);
    const r = l.range(src.indexOf('notte'), src.length);
    expect(codeFrame(src, r, 0)).toBe(['> 1 | ENCODE "会议记录" TYPE notte', `    | ${' '.repeat(23)}^^^^^`].join('\n'));
  });

  it('shows a window of a very long line around the range', () => {
    const src = `{"text": "${'x'.repeat(300)}", "weight": 1.5}`;
    const l = new LineIndex(src);
    const r = l.range(src.indexOf('1.5'), src.indexOf('1.5') + 3);
    const [line, carets] = codeFrame(src, r, 0).split('\n');
    expect(line.startsWith('> 1 | …')).toBe(true);
    expect(line.length).toBeLessThan(140);
    expect(line.indexOf('1.5')).toBe(carets.indexOf('^'));
    expect(carets.replace(/ +/g, ' ').trim()).toBe('| ^^^');
  });
});

describe('suggestions for short words', () => {
  it('allows one edit (a swap counts as one) for words of up to five letters', () => {
    expect(closest('tpoic', ['topic', 'time'])).toBe('topic');
    expect(closest('limt', ['limit'])).toBe('limit');
    expect(closest('type', ['subject', 'time', 'location', 'topic'])).toBeUndefined();
    expect(closest('weigth', ['weight'])).toBe('weight');
  });
});
