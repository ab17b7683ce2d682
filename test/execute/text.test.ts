import { describe, expect, it } from 'vitest';
import {
  cjkBigrams, cosine, countTokens, ExtractiveSummarizer, HashEmbedder, keywordOverlap, NgramEmbedder, splitChunks, splitSections, splitSentences, tokens, truncateTokens,
} from '../../src/text/text.js';

describe('text processing', () => {
  it('tokenises words (stemmed, no stopwords) and CJK characters and bigrams', () => {
    expect(tokens('The meetings were planned')).toEqual(['meet', 'plan']);
    expect(tokens('Payments were postponed; paying later')).toEqual(['payment', 'postpon', 'pai', 'later']);
    expect(tokens('预算会议')).toEqual(['预', '算', '会', '议', '预算', '算会', '会议']);
    expect(tokens('Q2预算review')).toEqual(['预', '算', '预算', 'q2', 'review']);
    expect(tokens('会')).toEqual(['会']);
    // Japanese kana and kanji alike (word segmentation is not used: spec/retrieval.md#tokens).
    expect(tokens('東京へ')).toEqual(['東', '京', 'へ', '東京', '京へ']);
    expect(tokens('预算会议', cjkBigrams)).toEqual(['预算', '算会', '会议']);
  });

  it('gives the n-gram embedder unit Float32 vectors where shared words and word pieces bring texts closer', () => {
    const e = new NgramEmbedder();
    const a = e.embed('quarterly budget review');
    expect(a).toBeInstanceOf(Float32Array);
    expect(a).toHaveLength(256);
    expect(e.embed('quarterly budget review')).toEqual(a);
    expect(Math.hypot(...a)).toBeCloseTo(1, 5);
    expect(cosine(a, e.embed('budgeting for the quarter'))).toBeGreaterThan(cosine(a, e.embed('dentist appointment friday')));
    expect(cosine(e.embed('预算会议'), e.embed('预算审查'))).toBeGreaterThan(cosine(e.embed('预算会议'), e.embed('牙医预约')));
  });

  it('embeds deterministically into unit vectors; similar texts are closer', () => {
    const e = new HashEmbedder();
    const a = e.embed('quarterly budget review');
    expect(e.embed('quarterly budget review')).toEqual(a);
    expect(Math.hypot(...a)).toBeCloseTo(1, 2);
    expect(cosine(a, e.embed('budget review for the quarter'))).toBeGreaterThan(cosine(a, e.embed('dentist appointment friday')));
  });

  it('scores keyword overlap as the share of query tokens found', () => {
    expect(keywordOverlap(['a', 'b'], ['b', 'c'])).toBe(0.5);
    expect(keywordOverlap([], ['b'])).toBe(0);
  });

  it('splits sentences on Western and CJK punctuation', () => {
    expect(splitSentences('One. Two?! 三。四！五？六；seven')).toEqual(['One.', 'Two?!', '三。', '四！', '五？', '六；', 'seven']);
    // A closing quote or bracket after a terminator stays with its sentence.
    expect(splitSentences('他说“走！”好吗？她说「好。」然后『完。』He said \'no.’ ok')).toEqual(['他说“走！”', '好吗？', '她说「好。」', '然后『完。』', "He said 'no.’", 'ok']);
  });

  it('splits chunks at spaces and sections at headings or paragraphs', () => {
    expect(splitChunks('aaaa bbbb cccc', 9)).toEqual(['aaaa bbbb', 'cccc']);
    expect(splitSections('para one\n\npara two')).toEqual(['para one', 'para two']);
    expect(splitSections('# H1\ntext\n## H2\nmore')).toEqual(['# H1\ntext', '## H2\nmore']);
  });

  it('counts tokens (CJK characters one each) and truncates within a budget', () => {
    expect(countTokens('two words')).toBe(2);
    expect(countTokens('预算')).toBe(2);
    expect(truncateTokens('one two three', 2)).toBe('one two');
    expect(truncateTokens('预算会议', 3)).toBe('预算会');
  });

  it('summarises extractively, preferring focus sentences, within max_tokens', () => {
    const s = new ExtractiveSummarizer();
    const texts = [{ id: 1, text: 'The weather was nice. The budget grew by ten percent. Lunch was pasta.' }];
    expect(s.summarize(texts, { focus: 'budget', maxTokens: 8 })).toBe('The budget grew by ten percent.');
    expect(countTokens(s.summarize(texts, { maxTokens: 12 }))).toBeLessThanOrEqual(12);
    expect(s.summarize([], { maxTokens: 5 })).toBe('');
  });
});
