// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnswerValue } from '#shared/questionnaires/format.ts';
import type { PatientItem } from '#shared/visits.ts';
import { QuestionField } from './question-field.tsx';

afterEach(() => cleanup());

const choice: PatientItem = {
  linkId: 'ed_duration',
  type: 'choice',
  text: 'How long have you had trouble?',
  required: true,
  options: [
    { code: 'lt-3-months', display: 'Less than 3 months' },
    { code: '3-12-months', display: '3 to 12 months' },
    { code: 'gt-1-year', display: 'More than a year' },
  ],
};
const yesNo: PatientItem = {
  linkId: 'chest_pain',
  type: 'boolean',
  text: 'Do you get chest pain during sex?',
  helpText: 'Or when climbing two flights of stairs.',
  required: true,
};
const multi: PatientItem = {
  linkId: 'conditions',
  type: 'multi-choice',
  text: 'Do you have any of these?',
  required: true,
  options: [
    { code: 'diabetes', display: 'Diabetes' },
    { code: 'kidney', display: 'Kidney disease' },
    { code: 'none', display: 'None of these', exclusive: true },
  ],
};
const text: PatientItem = {
  linkId: 'allergies_list',
  type: 'text',
  text: 'Which medicines, and what happened?',
  required: true,
  maxLength: 20,
};
const integer: PatientItem = {
  linkId: 'bp_systolic',
  type: 'integer',
  text: 'What was the top number (systolic)?',
  helpText: 'In a reading of 128/82, the top number is 128.',
  required: true,
  min: 50,
  max: 300,
  unit: 'mmHg',
};
const decimal: PatientItem = {
  linkId: 'sleep_hours',
  type: 'decimal',
  text: 'How many hours do you sleep?',
  required: true,
  min: 0,
  max: 24,
  unit: 'hours',
};
const date: PatientItem = {
  linkId: 'bp_date',
  type: 'date',
  text: 'About when was it last measured?',
  required: true,
};
const display: PatientItem = {
  linkId: 'intro',
  type: 'display',
  text: 'Welcome to your visit.',
  required: false,
};

function renderItem(
  item: PatientItem,
  props: Partial<Parameters<typeof QuestionField>[0]> = {},
): { onNext: ReturnType<typeof vi.fn<(value: AnswerValue | null) => void>> } {
  const onNext = vi.fn<(value: AnswerValue | null) => void>();
  render(<QuestionField item={item} answer={null} pending={false} onNext={onNext} {...props} />);
  return { onNext };
}

/** The texts an element's aria-describedby points at. */
function descriptionOf(element: HTMLElement): string[] {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? `missing #${id}`);
}

describe('a single-choice question', () => {
  it('is a radio group named by the question, each option a labelled radio', () => {
    renderItem(choice);
    expect(screen.getByRole('heading', { level: 2, name: choice.text })).toBeTruthy();
    const group = screen.getByRole('radiogroup', { name: choice.text });
    expect(group.getAttribute('aria-required')).toBe('true');
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['lt-3-months', '3-12-months', 'gt-1-year']);
    expect(screen.getByLabelText('3 to 12 months')).toBe(
      within(group).getByRole('radio', { name: '3 to 12 months' }),
    );
    // No Back on the first question.
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
  });

  it('says an answer is needed, tied to the group, and sends nothing', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem(choice);
    await u.click(screen.getByRole('button', { name: 'Next' }));
    const group = screen.getByRole('radiogroup', { name: choice.text });
    expect(group.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(group)).toEqual(['Please answer this question.']);
    // Focus goes to the first option, so the patient can answer at once.
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Less than 3 months' }));
    expect(onNext).not.toHaveBeenCalled();

    // Choosing clears the message.
    await u.click(screen.getByRole('radio', { name: 'More than a year' }));
    expect(screen.queryByText('Please answer this question.')).toBeNull();
    expect(group.getAttribute('aria-invalid')).toBeNull();
  });

  it('is answered with the keyboard alone: Tab into the group, arrows to choose, Enter on Next', async () => {
    // jsdom has no CSS.escape, which user-event's arrow keys in a radio group use.
    vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, '\\$&') });
    const u = userEvent.setup();
    const { onNext } = renderItem(choice, { onBack: vi.fn() });
    const radio = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name });
    await u.tab();
    expect(document.activeElement).toBe(radio('Less than 3 months'));
    await u.keyboard(' ');
    expect(radio('Less than 3 months').checked).toBe(true);
    await u.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(radio('3 to 12 months'));
    expect(radio('3 to 12 months').checked).toBe(true);
    expect(radio('Less than 3 months').checked).toBe(false);
    // One stop for the group: Tab goes on to Back, then Next.
    await u.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Back' }));
    await u.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Next' }));
    await u.keyboard('{Enter}');
    expect(onNext).toHaveBeenCalledWith('3-12-months');
  });

  it('shows the answer given before when the patient comes back to it', () => {
    renderItem(choice, { answer: 'gt-1-year' });
    expect(
      (screen.getByRole('radio', { name: 'More than a year' }) as HTMLInputElement).checked,
    ).toBe(true);
  });

  it("shows the server's message about the answer on the group", () => {
    renderItem(choice, { serverError: 'That answer was not saved.' });
    const group = screen.getByRole('radiogroup', { name: choice.text });
    expect(group.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(group)).toEqual(['That answer was not saved.']);
  });
});

describe('a yes/no question', () => {
  it('offers Yes and No and answers true or false, with its help text described', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem(yesNo);
    const group = screen.getByRole('radiogroup', { name: yesNo.text });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['yes', 'no']);
    expect(descriptionOf(group)).toEqual(['Or when climbing two flights of stairs.']);
    await u.click(screen.getByRole('radio', { name: 'No' }));
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(onNext).toHaveBeenLastCalledWith(false);
  });

  it('answers true for Yes, chosen with Space', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem(yesNo, { answer: false });
    const yes = screen.getByRole('radio', { name: 'Yes' });
    yes.focus();
    await u.keyboard(' ');
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(onNext).toHaveBeenLastCalledWith(true);
  });
});

describe('a multiple-choice question', () => {
  it('is a group of labelled checkboxes, answered with every code chosen', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem(multi);
    const group = screen.getByRole('group', { name: multi.text });
    expect(within(group).getByText('Choose all that apply.')).toBeTruthy();
    await u.click(within(group).getByRole('checkbox', { name: 'Diabetes' }));
    // The keyboard toggles a checkbox with Space.
    within(group).getByRole('checkbox', { name: 'Kidney disease' }).focus();
    await u.keyboard(' ');
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(onNext).toHaveBeenLastCalledWith(['diabetes', 'kidney']);
  });

  it('keeps "None of these" on its own', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem(multi);
    const box = (name: string) => screen.getByRole<HTMLInputElement>('checkbox', { name });
    await u.click(box('Diabetes'));
    await u.click(box('None of these'));
    expect([box('Diabetes').checked, box('None of these').checked]).toEqual([false, true]);
    await u.click(box('Kidney disease'));
    expect([box('Kidney disease').checked, box('None of these').checked]).toEqual([true, false]);
    await u.click(box('Kidney disease'));
    await u.click(box('None of these'));
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(onNext).toHaveBeenLastCalledWith(['none']);
  });

  it('needs at least one choice', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem(multi);
    await u.click(screen.getByRole('button', { name: 'Next' }));
    const group = screen.getByRole('group', { name: multi.text });
    expect(descriptionOf(group)).toEqual(['Please answer this question.']);
    for (const box of within(group).getAllByRole('checkbox'))
      expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(onNext).not.toHaveBeenCalled();
  });
});

describe('a text question', () => {
  it('is a text box named by the question that counts characters up to its limit', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem(text);
    const box = screen.getByRole<HTMLTextAreaElement>('textbox', { name: text.text });
    expect(box.tagName).toBe('TEXTAREA');
    expect(box.maxLength).toBe(20);
    expect(screen.getByText('0 of 20 characters')).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(descriptionOf(box)).toEqual(['Please answer this question.']);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(onNext).not.toHaveBeenCalled();

    await u.type(box, '   ');
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Please answer this question.')).toBeTruthy();

    await u.clear(box);
    await u.type(box, 'Penicillin: a rash and more text');
    expect(box.value).toBe('Penicillin: a rash a');
    expect(screen.getByText('20 of 20 characters')).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(onNext).toHaveBeenLastCalledWith('Penicillin: a rash a');
  });

  it('may be left empty when it is optional', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem({ ...text, required: false });
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.queryByText('Please answer this question.')).toBeNull();
    expect(onNext).toHaveBeenCalledTimes(1);
  });
});

describe('a number question', () => {
  it('takes a whole number in range, with its unit and range described', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem(integer);
    const box = screen.getByRole<HTMLInputElement>('textbox', { name: integer.text });
    expect(box.inputMode).toBe('numeric');
    expect(screen.getByText('mmHg')).toBeTruthy();
    expect(descriptionOf(box)).toEqual([
      'In a reading of 128/82, the top number is 128. Between 50 and 300 mmHg.',
    ]);
    const table: [string, string | null][] = [
      ['', 'Please answer this question.'],
      ['abc', 'Please enter a number.'],
      ['128.5', 'Please enter a whole number.'],
      ['49', 'Please enter 50 or more.'],
      ['301', 'Please enter 300 or less.'],
    ];
    for (const [typed, message] of table) {
      await u.clear(box);
      if (typed) await u.type(box, typed);
      await u.click(screen.getByRole('button', { name: 'Next' }));
      expect({ typed, described: descriptionOf(box).at(-1) }).toEqual({
        typed,
        described: message,
      });
      expect(box.getAttribute('aria-invalid')).toBe('true');
    }
    expect(onNext).not.toHaveBeenCalled();
    await u.clear(box);
    await u.type(box, ' 128 ');
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(onNext).toHaveBeenLastCalledWith(128);
  });

  it('takes a decimal number as a number', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem(decimal);
    const box = screen.getByRole<HTMLInputElement>('textbox', { name: decimal.text });
    expect(box.inputMode).toBe('decimal');
    await u.type(box, '6.5');
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(onNext).toHaveBeenLastCalledWith(6.5);
  });

  it('shows a saved number as typed text', () => {
    renderItem(integer, { answer: 132 });
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: integer.text }).value).toBe('132');
  });
});

describe('a date question', () => {
  it('is a date field named by the question, answered as YYYY-MM-DD', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem(date);
    const field = screen.getByLabelText<HTMLInputElement>(date.text);
    expect(field.type).toBe('date');
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(descriptionOf(field)).toEqual(['Please answer this question.']);
    expect(onNext).not.toHaveBeenCalled();
    await u.type(field, '2024-01-15');
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(onNext).toHaveBeenLastCalledWith('2024-01-15');
  });
});

describe('a display item', () => {
  it('is text to read with Continue, and no control to answer', async () => {
    const u = userEvent.setup();
    const { onNext } = renderItem(display);
    expect(screen.getByRole('heading', { level: 2, name: display.text })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onNext).toHaveBeenCalledWith(null);
  });
});

describe('moving between questions', () => {
  it('goes Back, takes focus when asked, and sends nothing twice while a call is pending', async () => {
    const u = userEvent.setup();
    const onBack = vi.fn();
    const { onNext } = renderItem(choice, {
      onBack,
      focusHeading: true,
      pending: true,
      answer: 'gt-1-year',
    });
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: choice.text }));
    const next = screen.getByRole<HTMLButtonElement>('button', { name: 'Next' });
    expect(next.disabled).toBe(true);
    expect(next.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Back' }).disabled).toBe(true);
    await u.click(next);
    expect(onNext).not.toHaveBeenCalled();
    cleanup();

    renderItem(choice, { onBack });
    await u.click(screen.getByRole('button', { name: 'Back' }));
    expect(onBack).toHaveBeenCalledTimes(1);
  });
});
