import { describe, expect, it } from 'vitest';
import { answerProblem, isEnabled, progress } from './engine.ts';
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
});
