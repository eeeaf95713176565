import { describe, expect, it } from 'vitest';
import {
  answerProblem,
  askedItems,
  effectiveAnswers,
  firstDisqualification,
  firstUnanswered,
  isEnabled,
  knownAnswers,
  nextItem,
  nextToAsk,
  previousItem,
  progress,
  riskFlags,
  shownQuestions,
  visibleItems,
} from './engine.ts';
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

  describe('a known item (the age from the date of birth) is answered by the visit, never asked', () => {
    const q: Questionnaire = {
      id: 'known',
      version: '1.0.0',
      category: 'sleep',
      title: 'Known',
      clinicalReview: { status: 'draft-requires-clinical-review', note: '' },
      items: [
        { linkId: 'intro', type: 'display', text: 'Hello' },
        {
          linkId: 'age',
          type: 'integer',
          text: 'How old are you?',
          unit: 'years',
          min: 1,
          max: 120,
          known: 'age',
          disqualifyOutside: { min: 19, max: 99, reason: 'For adults aged 19 to 99.' },
        },
        { linkId: 'sleeps', type: 'boolean', text: 'Do you sleep well?' },
        {
          linkId: 'falls',
          type: 'boolean',
          text: 'Have you had a fall?',
          enableWhen: [{ question: 'age', operator: '>=', answer: 65 }],
          flagWhen: { answer: true, flag: { code: 'falls', severity: 'high', text: 'Fell.' } },
        },
        { linkId: 'notes', type: 'text', text: 'Anything else?', required: false },
      ],
    };
    const ids = (items: QuestionnaireItem[]) => items.map((i) => i.linkId);

    it('answers only the known items, from the facts the visit has', () => {
      expect(knownAnswers(q, { age: 70 })).toEqual({ age: 70 });
      expect(knownAnswers(q, {})).toEqual({});
      expect(knownAnswers({ ...q, items: q.items.filter((i) => !i.known) }, { age: 70 })).toEqual(
        {},
      );
    });

    it('is shown to the rules but never asked: skipped going forward and back', () => {
      expect(ids(visibleItems(q, { age: 45 }))).toEqual(['intro', 'age', 'sleeps', 'notes']);
      expect(ids(askedItems(q, { age: 45 }))).toEqual(['intro', 'sleeps', 'notes']);
      expect(nextItem(q, {})?.linkId).toBe('intro');
      expect(nextItem(q, { age: 45 }, 'intro')?.linkId).toBe('sleeps');
      expect(previousItem(q, { age: 45 }, 'sleeps')?.linkId).toBe('intro');
      // Even asked for by name, the next item after it is the first one the patient answers.
      expect(nextItem(q, { age: 45 }, 'age')?.linkId).toBe('sleeps');
    });

    it('does not count in "Question n of N", nor in the review of the answers', () => {
      expect(progress(q, { age: 45 }, 'intro')).toEqual({ index: 1, total: 2 });
      expect(progress(q, { age: 45 }, 'sleeps')).toEqual({ index: 1, total: 2 });
      expect(progress(q, { age: 45, sleeps: true }, 'notes')).toEqual({ index: 2, total: 2 });
      expect(ids(shownQuestions(q, { age: 45, sleeps: true }))).toEqual(['sleeps', 'notes']);
    });

    it('is never the first unanswered question: the patient completes without it', () => {
      expect(firstUnanswered(q, { age: 45 })?.linkId).toBe('sleeps');
      expect(firstUnanswered(q, { sleeps: true })).toBeNull();
      expect(firstUnanswered(q, { age: 45, sleeps: true })).toBeNull();
    });

    it('opens follow-ups, stops and flags through its answer, like an answer the patient gave', () => {
      const older = { age: 70, sleeps: true };
      expect(ids(shownQuestions(q, older))).toEqual(['sleeps', 'falls', 'notes']);
      expect(progress(q, older, 'falls')).toEqual({ index: 2, total: 3 });
      expect(firstUnanswered(q, older)?.linkId).toBe('falls');
      expect(nextToAsk(q, { ...older, notes: 'None' }, 'sleeps')?.linkId).toBe('falls');
      expect(riskFlags(q, { ...older, falls: true }).map((f) => f.linkId)).toEqual(['falls']);
      expect(effectiveAnswers(q, { ...older, falls: true, age: 50 })).not.toHaveProperty('falls');
      expect(firstDisqualification(q, { age: 17 })).toEqual({
        linkId: 'age',
        reason: 'For adults aged 19 to 99.',
      });
    });
  });
});
