import { describe, expect, it } from 'vitest';
import { KEYWORDS } from '../../src/syntax/tokens.js';
import { FIELD_DOCS, KEYWORD_DOCS } from '../../src/services/docs.js';
import { IR } from '../../src/ir/schema.js';
import { getHover } from '../../src/services/hover.js';
import { ruleOfKeyword } from '../../src/services/rules.js';

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

  it('links no diagram when the editor has none (diagramsUrl: null)', () => {
    const hover = getHover('LOCK ', 1, { diagramsUrl: null });
    expect(hover?.markdown).toContain(KEYWORD_DOCS.LOCK.summary);
    expect(hover?.markdown).not.toContain('Syntax diagram');
    expect(hover?.rule).toBe(ruleOfKeyword('LOCK'));
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
    expect(getHover('LOCK ALL MODE read_only', 16)?.markdown).toContain('Value of MODE (`args.mode`)');
    expect(getHover(CARD, CARD.indexOf('OKR') + 1)).toBeUndefined();
  });

  it('names the clause and the IR path of an enum value, not the enum\'s internal name', () => {
    const at = (src: string, word: string) => getHover(src, src.indexOf(word) + 1)?.markdown ?? '';
    const lock = at('LOCK ALL MODE read_only', 'read_only');
    expect(lock).toContain('Value of MODE (`args.mode`): one of `read_only`, `append_only`.');
    expect(lock).not.toContain('lock_mode');
    expect(at('LABEL ID "1" TAGS "x" MODE remove', 'remove')).toContain('Value of MODE (`args.mode`): one of `add`, `replace`, `remove`.');
    expect(at('EXPIRE ID "1" TTL P7D THEN demote', 'demote')).toContain('Value of THEN (`args.on_expire`)');
    expect(at('RETRIEVE WHERE search "x" ORDER BY time_desc', 'time_desc')).toContain('Value of ORDER BY (`target.search.overrides.order_by`)');
    expect(at('RETRIEVE WHERE time IN LAST 7 DAYS LIMIT 5', 'DAYS')).toContain('Value of LAST (`time_range.unit`)');
    // Values that are also keywords (a verb, a field name) are still values after their clause.
    expect(at('RETRIEVE ALL CONFIRM INCLUDE id, text', 'text')).toContain('Value of INCLUDE (`args.include`)');
    expect(at('LOCK ALL MODE read_only', 'MODE')).toContain('**MODE**');
    // Out of its clause, a value still says which enum it belongs to.
    expect(at('ENCODE "x" FACETS { m: read_only }', 'read_only')).toContain('`lock_mode`');
  });
});

describe('hover names the field of the place it stands in', () => {
  const at = (src: string, word: string, nth = 0) => {
    let i = -1;
    for (let k = 0; k <= nth; k++) i = src.indexOf(word, i + 1);
    return getHover(src, i + 1)?.markdown ?? '';
  };

  it('a SET key is the verb\'s argument, not an enum value of INCLUDE', () => {
    const md = at('PROMOTE WHERE search "OKR" LIMIT 5 SET weight 0.9;', 'weight');
    expect(md).toContain('Set by SET: `args.weight`');
    expect(md).toContain(FIELD_DOCS.weight);
    expect(md).not.toContain('Value of `include`');
    expect(at('UPDATE ID "1" SET text = "x";', 'text')).toContain('`args.set.text`');
  });

  it('a WHERE field is the filter\'s, not a clause\'s', () => {
    const tags = at('LABEL WHERE tags HAS "x" TAGS "y";', 'tags');
    expect(tags).toContain('`target.filter.has_tags`');
    expect(tags).not.toContain('args.tags');
    // The TAGS clause of the same statement is still the clause.
    expect(at('LABEL WHERE tags HAS "x" TAGS "y";', 'TAGS')).toContain('args.tags');
    expect(at('RETRIEVE WHERE tags NOT HAS "x";', 'tags')).toContain('`target.filter.not_tags`');
    const weight = at('PROMOTE WHERE weight >= 0.5 BY 0.1;', 'weight');
    expect(weight).toContain('`target.filter.weight_gte`');
    expect(weight).not.toContain('Value of `include`');
    expect(at('DEMOTE WHERE weight <= 0.2;', 'weight')).toContain('`target.filter.weight_lte`');
    const time = at('RETRIEVE WHERE time IN LAST 7 DAYS;', 'time');
    expect(time).toContain('`target.filter.time_range`');
    expect(time).not.toContain('args.time');
    expect(at('RETRIEVE WHERE type = note;', 'type')).toContain('`target.filter.type`');
    expect(at('RETRIEVE WHERE facets.status = "open";', 'status')).toContain('`target.filter.facets.status`');
    // Still being typed: the field is documented by the operator it takes.
    expect(at('RETRIEVE WHERE tags', 'tags')).toContain('`target.filter.has_tags`');
  });

  it('an operator on a field it does not apply to says so instead of naming another field\'s key', () => {
    const time = at('RETRIEVE WHERE time BEFORE 2025-01-01;', 'time');
    expect(time).toContain('BEFORE applies to `expires`, not `time`');
    expect(time).not.toContain('expire_before');
    expect(at('RETRIEVE WHERE expires BEFORE 2025-01-01;', 'expires')).toContain('`target.filter.expire_before`');
  });

  it('a WITH path is the path written', () => {
    expect(at('ENCODE "x" WITH meta.actor = "me";', 'actor')).toContain('Set by WITH: `meta.actor`');
  });

  it('a value is still documented as its clause\'s value', () => {
    expect(at('RETRIEVE ALL INCLUDE id, weight;', 'weight')).toContain('Value of');
    expect(at('ENCODE "x" TIME "2025-01-01";', 'TIME')).toContain('args.time');
  });
});
