import { describe, expect, it } from 'vitest';
import { KEYWORDS } from '../../grammar/tokens.ts';
import { KEYWORD_DOCS } from '../../src/services/docs.ts';
import { getHover } from '../../src/services/hover.ts';
import { ruleOfKeyword } from '../../src/services/rules.ts';

const CARD = 'PROMOTE WHERE search "OKR progress" LIMIT 5 SET weight 0.9';

describe('getHover', () => {
  it('documents every keyword of the grammar and links it to a rule diagram', () => {
    for (const keyword of KEYWORDS) {
      expect(KEYWORD_DOCS[keyword], keyword).toBeDefined();
      const hover = getHover(`${keyword.toLowerCase()} `, 1, { diagramsUrl: 'd.html' });
      expect(hover?.markdown, keyword).toContain(KEYWORD_DOCS[keyword].summary);
      expect(ruleOfKeyword(keyword), keyword).toBeDefined();
      expect(hover?.markdown, keyword).toContain(`](d.html#${ruleOfKeyword(keyword)})`);
    }
  });

  it('spans the hovered token and names its IR field', () => {
    const hover = getHover(CARD, CARD.indexOf('search') + 2)!;
    expect(hover).toMatchObject({ from: 14, to: 20, rule: 'searchCondition' });
    expect(hover.markdown).toContain('target.search.intent.query');
  });

  it('documents field names and enum values, and nothing inside strings', () => {
    expect(getHover(CARD, CARD.indexOf('weight') + 1)?.markdown).toContain('Salience');
    expect(getHover('LOCK ALL MODE read_only', 16)?.markdown).toContain('lock_mode');
    expect(getHover(CARD, CARD.indexOf('OKR') + 1)).toBeUndefined();
  });
});
