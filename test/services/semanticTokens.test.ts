import { describe, expect, it } from 'vitest';
import { encodeSemanticTokens, getSemanticTokens } from '../../src/services/semanticTokens.js';

const words = (text: string) => getSemanticTokens(text).map((t) => `${text.slice(t.from, t.to)}:${t.type}`);

describe('getSemanticTokens', () => {
  it('classifies field names by position, keywords included', () => {
    expect(words('PROMOTE WHERE tags HAS "x" AND type = "note" LIMIT 5 SET weight = 0.9')).toEqual(['tags:property', 'type:property', 'weight:property']);
    expect(words('ENCODE "x" FACETS { subject: "a", topic: "b" }')).toEqual(['subject:property', 'topic:property']);
  });

  it('classifies enum values and ops inside lists', () => {
    expect(words('LOCK ALL CONFIRM MODE read_only POLICY { allow: [Retrieve, Summarize] }')).toEqual(['read_only:enumMember', 'allow:property', 'Retrieve:enumMember', 'Summarize:enumMember']);
    expect(words('RETRIEVE WHERE time IN LAST 7 days AND search "x" ORDER BY time_desc INCLUDE text, weight')).toEqual(['time:property', 'days:enumMember', 'time_desc:enumMember', 'text:enumMember', 'weight:enumMember']);
  });

  it('encodes tokens relative to the previous one', () => {
    const text = 'LOCK ALL MODE read_only;\nLABEL IDS "1" MODE add';
    expect([...encodeSemanticTokens(text, getSemanticTokens(text))]).toEqual([0, 14, 9, 1, 0, 1, 19, 3, 1, 0]);
  });

  it('encodes with the caller\'s line breaks when given its positionAt (an LSP document breaks at a lone \\r)', () => {
    const text = 'LOCK ALL MODE read_only;\rLABEL IDS "1" MODE add';
    // By default only \n breaks a line: both tokens are on line 0.
    expect([...encodeSemanticTokens(text, getSemanticTokens(text))]).toEqual([0, 14, 9, 1, 0, 0, 44 - 14, 3, 1, 0]);
    const positionAt = (offset: number) => (offset <= 24 ? { line: 0, character: offset } : { line: 1, character: offset - 25 });
    expect([...encodeSemanticTokens(text, getSemanticTokens(text), positionAt)]).toEqual([0, 14, 9, 1, 0, 1, 19, 3, 1, 0]);
  });
});
