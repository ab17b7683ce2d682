import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/diagnostics/codeFrame.js';
import { table } from '../../src/cli/engine-output.js';

describe('CLI result tables', () => {
  it('align columns by terminal width, so Chinese text lines up with ASCII', () => {
    const out = table([
      { id: 1, text: '收件箱中存在大量垃圾邮件', tags: '["邮件"]' },
      { id: 2, text: 'plain english text', tags: '["mail"]' },
    ]).split('\n');
    // The tags column starts at the same terminal column on every row.
    const col = (line: string, needle: string) => displayWidth(line.slice(0, line.indexOf(needle)));
    expect(col(out[2], '["邮件"]')).toBe(col(out[3], '["mail"]'));
    expect(col(out[0], 'tags')).toBe(col(out[3], '["mail"]'));
  });

  it('cuts long cells by width and marks the cut', () => {
    const [, , row] = table([{ text: '长'.repeat(100) }]).split('\n');
    expect(displayWidth(row.trim())).toBeLessThanOrEqual(60);
    expect(row.trim().endsWith('…')).toBe(true);
  });
});
