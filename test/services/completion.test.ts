import { describe, expect, it } from 'vitest';
import { getCompletions } from '../../src/services/completion.js';

const store = { tags: ['OKR', 'incident:p1-network'], types: ['note', 'task'], subjects: ['Q2 performance'] };
const labels = (text: string, offset = text.length) => getCompletions(text, offset, store).map((i) => i.label);

describe('getCompletions', () => {
  it('offers the verbs at the start of a statement, filtered by the typed prefix', () => {
    expect(labels('')).toEqual(['ENCODE', 'UPDATE', 'LABEL', 'PROMOTE', 'DEMOTE', 'MERGE', 'SPLIT', 'LOCK', 'EXPIRE', 'DELETE', 'RETRIEVE', 'SUMMARIZE']);
    expect(labels('pro')).toEqual(['PROMOTE']);
    expect(labels('ENCODE "a";\nDEL')).toEqual(['DELETE']);
  });

  it('replaces exactly the word being typed', () => {
    const [item] = getCompletions('ENCODE "x" TY', 13, store);
    expect(item).toMatchObject({ label: 'TYPE', kind: 'keyword', from: 11, to: 13 });
    expect(item.documentation).toContain('type');
  });

  it('offers condition fields after WHERE and AND', () => {
    expect(labels('PROMOTE WHERE ')).toEqual(expect.arrayContaining(['tags', 'time', 'type', 'search', 'weight']));
    expect(labels('PROMOTE WHERE type = "note" AND ')).toContain('subject');
  });

  it('lists a word once: the field `search`, not also the keyword `SEARCH`', () => {
    expect(labels('PROMOTE WHERE se')).toEqual(['search']);
    const lower = labels('PROMOTE WHERE ').map((l) => l.toLowerCase());
    expect(lower.filter((l, i) => lower.indexOf(l) !== i)).toEqual([]);
  });

  it('offers tags, types and subjects that exist in the store, quoted', () => {
    const items = getCompletions('LABEL WHERE tags HAS "in', 24, store);
    expect(items).toEqual([expect.objectContaining({ label: 'incident:p1-network', kind: 'tag', insertText: '"incident:p1-network"', from: 21, to: 24 })]);
    expect(labels('ENCODE "x" TAGS "OKR", ')).toEqual(expect.arrayContaining(['OKR', 'incident:p1-network']));
    expect(labels('ENCODE "x" TYPE ').slice(0, 2)).toEqual(['note', 'task']);
    expect(labels('ENCODE "x" SUBJECT ')[0]).toBe('Q2 performance');
  });

  it('offers the enum values the keyword takes, per verb', () => {
    expect(labels('LOCK WHERE tags HAS "a" MODE ')).toEqual(['read_only', 'append_only']);
    expect(labels('LABEL IDS "1" MODE r')).toEqual(['replace', 'remove']);
    expect(labels('RETRIEVE WHERE search "x" ORDER BY ')).toEqual(['relevance', 'time_desc', 'time_asc', 'weight_desc']);
    expect(labels('EXPIRE IDS "1" TTL P7D THEN ')).toEqual(['soft_delete', 'hard_delete', 'demote', 'anonymize']);
    expect(labels('RETRIEVE WHERE time IN LAST 7 ')).toContain('DAYS');
    expect(labels('PROMOTE IDS "1" SET ')).toEqual(['weight', 'weight_delta']);
  });

  it('offers object keys inside FACETS and POLICY', () => {
    expect(labels('ENCODE "x" FACETS { ')).toEqual(['subject', 'time', 'location', 'topic']);
    expect(labels('LOCK ALL CONFIRM POLICY { allow: [Re')).toEqual(['Retrieve']);
  });

  it('offers nothing inside a comment or right after a finished value', () => {
    expect(labels('# PRO')).toEqual([]);
    expect(labels('ENCODE "x"')).toEqual([]);
    expect(labels('PROMOTE WHERE search "OKR" LIMIT 5')).toEqual([]);
  });
});
