import { describe, expect, it } from 'vitest';
import { answerProblem, isEnabled, nextToAsk, progress, shownQuestions } from './engine.ts';
import type { Questionnaire, QuestionnaireItem } from './format.ts';

describe('questionnaire engine details', () => {
  const date: QuestionnaireItem = { linkId: 'd', type: 'date', text: 'When?' };
  const note: QuestionnaireItem = {
    linkId: 'n',
    type: 'text',
    text: 'Anything else?',
    required: false,
  };

  it('refuses impossible dates', () => {
    expect(answerProblem(date, '2026-02-28')).toBeNull();
    expect(answerProblem(date, '2028-02-29')).toBeNull();
    expect(answerProblem(date, '2026-02-31')).toBe('Please enter a real date.');
    expect(answerProblem(date, '2026-13-01')).toBe('Please enter a real date.');
  });

  it('treats blank text as no answer: fine when optional, asked for when required', () => {
    expect(answerProblem(note, '   ')).toBeNull();
    expect(answerProblem({ ...note, required: true }, '   ')).toBe('Please answer this question.');
  });

  it("'exists' does not count an empty answer", () => {
    const follow: QuestionnaireItem = {
      linkId: 'f',
      type: 'boolean',
      text: 'F',
      enableWhen: [{ question: 'n', operator: 'exists', answer: true }],
    };
    expect(isEnabled(follow, { n: '' })).toBe(false);
    expect(isEnabled(follow, { n: [] })).toBe(false);
    expect(isEnabled(follow, { n: 'yes' })).toBe(true);
  });

  it('counts an introduction as the question after it, so the total never jumps', () => {
    const q: Questionnaire = {
      id: 'x',
      version: '1.0.0',
      category: 'ed',
      title: 'X',
      clinicalReview: { status: 'draft-requires-clinical-review', note: '' },
      items: [
        { linkId: 'intro', type: 'display', text: 'Hello' },
        { linkId: 'a', type: 'boolean', text: 'A' },
        { linkId: 'b', type: 'boolean', text: 'B' },
      ],
    };
    expect(progress(q, {}, 'intro')).toEqual({ index: 1, total: 2 });
    expect(progress(q, {}, 'a')).toEqual({ index: 1, total: 2 });
    expect(progress(q, {}, 'b')).toEqual({ index: 2, total: 2 });
  });

  describe('progress and the review of answers count only the questions this patient sees', () => {
    // Smoking opens a follow-up, whose own "yes" opens another; an introduction asks nothing.
    const q: Questionnaire = {
      id: 'branches',
      version: '1.0.0',
      category: 'ed',
      title: 'Branches',
      clinicalReview: { status: 'draft-requires-clinical-review', note: '' },
      items: [
        { linkId: 'intro', type: 'display', text: 'About you' },
        { linkId: 'smokes', type: 'boolean', text: 'Do you smoke?' },
        {
          linkId: 'packs',
          type: 'integer',
          text: 'Packs a day?',
          enableWhen: [{ question: 'smokes', operator: '=', answer: true }],
        },
        {
          linkId: 'quit',
          type: 'boolean',
          text: 'Would you like help to quit?',
          enableWhen: [{ question: 'packs', operator: '>', answer: 1 }],
        },
        { linkId: 'section', type: 'display', text: 'Your health' },
        { linkId: 'bp', type: 'boolean', text: 'High blood pressure?' },
        { linkId: 'notes', type: 'text', text: 'Anything else?', required: false },
      ],
    };

    it('leaves out introductions and the branches not opened', () => {
      expect(progress(q, {}, 'smokes')).toEqual({ index: 1, total: 3 });
      expect(progress(q, { smokes: false }, 'bp')).toEqual({ index: 2, total: 3 });
      expect(progress(q, { smokes: false }, 'section')).toEqual({ index: 2, total: 3 });
      expect(progress(q, { smokes: false, bp: false }, 'notes')).toEqual({ index: 3, total: 3 });
    });

    it('grows as an answer opens a branch, and shrinks when a change closes it', () => {
      expect(progress(q, { smokes: true }, 'packs')).toEqual({ index: 2, total: 4 });
      expect(progress(q, { smokes: true, packs: 2 }, 'quit')).toEqual({ index: 3, total: 5 });
      expect(progress(q, { smokes: true, packs: 2, quit: true }, 'bp')).toEqual({
        index: 4,
        total: 5,
      });
      // Changed to "no": the follow-ups and their answers no longer count.
      expect(progress(q, { smokes: false, packs: 2, quit: true }, 'bp')).toEqual({
        index: 2,
        total: 3,
      });
    });

    it('does not count a question opened only by the answer to a hidden one', () => {
      // 'packs' is hidden (smokes: no), so its stored 3 cannot open 'quit'.
      expect(progress(q, { smokes: false, packs: 3 }, 'bp')).toEqual({ index: 2, total: 3 });
      expect(shownQuestions(q, { smokes: false, packs: 3 }).map((i) => i.linkId)).toEqual([
        'smokes',
        'bp',
        'notes',
      ]);
    });

    it('lists the questions shown, in order, for the review', () => {
      expect(shownQuestions(q, { smokes: true, packs: 2, bp: false }).map((i) => i.linkId)).toEqual(
        ['smokes', 'packs', 'quit', 'bp', 'notes'],
      );
    });

    it('after a change, asks only what the change newly shows, then goes back to the review', () => {
      const complete = { smokes: false, bp: false, notes: 'None' };
      expect(nextToAsk(q, complete, 'smokes')).toBeNull();
      // Now a smoker: the packs question is new, and after it the help question.
      expect(nextToAsk(q, { ...complete, smokes: true }, 'smokes')?.linkId).toBe('packs');
      expect(nextToAsk(q, { ...complete, smokes: true, packs: 2 }, 'packs')?.linkId).toBe('quit');
      expect(nextToAsk(q, { ...complete, smokes: true, packs: 1 }, 'packs')).toBeNull();
      // An optional question not answered yet is still offered once.
      expect(nextToAsk(q, { smokes: false, bp: false }, 'smokes')?.linkId).toBe('notes');
    });
  });
});
