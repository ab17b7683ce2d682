import { describe, expect, it } from 'vitest';
import { KEYWORDS } from '../../grammar/tokens.ts';
import { FIELD_DOCS, KEYWORD_DOCS } from '../../src/services/docs.ts';
import { IR } from '../../src/ir/schema.ts';
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

  it('documents every field of the IR schema', () => {
    const fields = new Set<string>();
    // Walks zod's definitions: objects, optionals, arrays and unions are all the IR uses.
    const walk = (t: unknown): void => {
      const def = (t as { _zod?: { def?: Record<string, unknown> } })?._zod?.def;
      if (!def) return;
      if (def.type === 'object') for (const [k, v] of Object.entries(def.shape as object)) { fields.add(k); walk(v); }
      else if (def.type === 'optional' || def.type === 'nullable') walk(def.innerType);
      else if (def.type === 'array') walk(def.element);
      else if (def.type === 'union') for (const o of def.options as unknown[]) walk(o);
    };
    for (const option of IR.options) walk(option);
    expect(fields.size).toBeGreaterThan(80);
    expect([...fields].filter((f) => !FIELD_DOCS[f])).toEqual([]);
    expect(getHover('ENCODE "x" WITH skip_embedding = true', 17)?.markdown).toContain(FIELD_DOCS.skip_embedding);
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
