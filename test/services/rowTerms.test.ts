import { describe, expect, it } from 'vitest';
import { termsOfRows } from '../../src/services/rowTerms.js';

describe('termsOfRows', () => {
  it('collects distinct sorted tags, types and subjects of live rows', () => {
    const rows = [
      { id: 1, tags: '["OKR","review"]', type: 'note', subject: 'Q2', deleted: 0 },
      { id: 2, tags: '["OKR","task"]', type: 'task', subject: null, deleted: 0 },
      { id: 3, tags: '["gone"]', type: 'old', subject: 'X', deleted: 1 },
      { id: 4, tags: 'not json', type: null, subject: '', deleted: 0 },
    ];
    expect(termsOfRows(rows)).toEqual({ tags: ['OKR', 'review', 'task'], types: ['note', 'task'], subjects: ['Q2'] });
  });
});
