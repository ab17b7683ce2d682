/** The LoCoMo-format evaluation (eval/locomo.ts) on a conversation written for this test. */
import { describe, expect, it } from 'vitest';
import { candidatesOf, parseLocomo, recallWith, scoreConversation } from '../../eval/locomo.js';
import { CONTEXT_WEIGHTS } from '../../src/retrieve/search.js';

const FILE = JSON.stringify([
  {
    sample_id: 'made-up',
    conversation: {
      speaker_a: 'Ana',
      speaker_b: 'Ben',
      session_2_date_time: '2 May 2024',
      session_2: [
        { speaker: 'Ben', dia_id: 'D2:1', text: 'Did you ever finish the birdhouse?' },
        { speaker: 'Ana', dia_id: 'D2:2', text: 'Yes, painted it blue on Sunday.' },
      ],
      session_1_date_time: '1 May 2024',
      session_1: [
        { speaker: 'Ana', dia_id: 'D1:1', text: 'I am building a birdhouse from cedar.' },
        { speaker: 'Ben', dia_id: 'D1:2', text: 'Nice, my cat would love watching it.' },
        { speaker: 'Ana', dia_id: 'D1:3', text: 'The hardware store had no cedar glue though.' },
      ],
    },
    qa: [
      { question: 'What is Ana building the birdhouse from?', answer: 'cedar', evidence: ['D1:1'], category: 1 },
      { question: 'What colour did Ana paint the birdhouse?', answer: 'blue', evidence: ['D2:1; D2:2'], category: 1 },
      { question: 'Unanswerable without evidence', answer: '', evidence: [], category: 5 },
      { question: 'Evidence that is not a turn', evidence: ['D9:9'], category: 5 },
    ],
  },
]);

describe('the LoCoMo evaluation', () => {
  it('reads turns in session order as "<speaker>: <text>" and splits joined evidence ids', () => {
    const [c] = parseLocomo(FILE);
    expect(c.id).toBe('made-up');
    expect(c.turns.map((t) => t.dia)).toEqual(['D1:1', 'D1:2', 'D1:3', 'D2:1', 'D2:2']);
    expect(c.turns[0].text).toBe('Ana: I am building a birdhouse from cedar.');
    expect(c.questions.map((q) => q.evidence)).toEqual([['D1:1'], ['D2:1', 'D2:2']]);
  });

  it('scores evidence recall through the engine, and its copy of the ranking agrees', async () => {
    const [c] = parseLocomo(FILE);
    const s = await scoreConversation(c);
    expect(s.n).toBe(2);
    expect(s.perQuestion[0]).toEqual({ r5: 1, r10: 1 });
    // The reply "Yes, painted it blue on Sunday." shares "paint" with the question, the turn before it "birdhouse".
    expect(s.perQuestion[1]).toEqual({ r5: 1, r10: 1 });
    const copy = recallWith(candidatesOf(c), CONTEXT_WEIGHTS);
    expect(copy).toEqual({ r5: s.r5, r10: s.r10, n: s.n });
  });
});
