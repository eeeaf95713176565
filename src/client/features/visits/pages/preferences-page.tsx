import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { messages } from '#shared/wording.ts';
import { formatCents } from '#shared/money.ts';
import { treatmentsFor } from '#shared/visits.ts';
import { FieldError, FormAlert, inputClass } from '#client/components/forms/fields.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { errorText } from '#client/lib/api.ts';
import { paths } from '#shared/paths.ts';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { WithVisit } from '../components/with-visit.tsx';
import { visitDestination } from '../visit-state.ts';
import { saveTreatmentChoice, type TreatmentChoice } from '../visits.api.ts';

const optionClass =
  'flex cursor-pointer items-start gap-3 rounded-2xl border border-line bg-white px-4 py-3 transition-colors hover:border-accent-400 has-checked:border-accent-600 has-checked:bg-accent-50 has-checked:ring-1 has-checked:ring-accent-600';

interface Choice {
  code: string;
  label: string;
  detail?: string;
}

function ChoiceGroup({
  legend,
  name,
  choices,
  value,
  onChange,
  error,
}: {
  legend: string;
  name: string;
  choices: Choice[];
  value: string;
  onChange: (code: string) => void;
  error?: string | undefined;
}) {
  const errorId = `${name}-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="font-sans text-base font-semibold text-ink">{legend}</legend>
      <div className="mt-3 grid gap-2.5">
        {choices.map((choice) => (
          <label key={choice.code} className={optionClass}>
            <input
              type="radio"
              name={name}
              value={choice.code}
              checked={value === choice.code}
              onChange={() => onChange(choice.code)}
              aria-invalid={error ? true : undefined}
              className="mt-0.5 size-5 shrink-0 accent-accent-700"
            />
            <span className="min-w-0">
              <span className="block font-semibold text-ink">{choice.label}</span>
              {choice.detail ? (
                <span className="block text-sm text-ink-soft">{choice.detail}</span>
              ) : null}
            </span>
          </label>
        ))}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

type HairForm = NonNullable<TreatmentChoice['hair']>['form'];
type SleepGoal = NonNullable<TreatmentChoice['sleep']>['goal'];

const hairForms: (Choice & { code: HairForm })[] = [
  { code: 'oral', label: 'Tablets' },
  { code: 'topical', label: 'Foam on the scalp' },
  { code: 'no-preference', label: 'No preference — my provider can choose' },
];
const sleepGoals: (Choice & { code: SleepGoal })[] = [
  { code: 'fall-asleep', label: 'Falling asleep' },
  { code: 'stay-asleep', label: 'Staying asleep' },
  { code: 'both', label: 'Both' },
];

type Errors = Partial<Record<'drug' | 'dosage' | 'frequency' | 'extra', string>>;

function PreferencesForm({ visitId }: { visitId: number }) {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  const options = treatmentsFor(category);
  const [drug, setDrug] = useState(options.length === 1 ? (options[0]?.drug ?? '') : '');
  const [dosage, setDosage] = useState('');
  const [frequency, setFrequency] = useState('');
  const [extra, setExtra] = useState('');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const treatment = options.find((t) => t.drug === drug);
  // A choice answers its group's message at once, rather than at the next Continue.
  const answered = (field: keyof Errors) =>
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  const extraKind = category === 'hair' ? 'hair' : category === 'sleep' ? 'sleep' : null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const found: Errors = {};
    if (!treatment) found.drug = 'Choose a treatment';
    if (!treatment?.dosages.some((d) => d.code === dosage)) found.dosage = 'Choose a dose';
    if (!treatment?.frequencies.some((f) => f.code === frequency))
      found.frequency = 'Choose how often';
    const hairForm = hairForms.find((choice) => choice.code === extra)?.code;
    const sleepGoal = sleepGoals.find((choice) => choice.code === extra)?.code;
    if (extraKind === 'hair' && !hairForm) found.extra = 'Choose tablets, foam, or no preference';
    if (extraKind === 'sleep' && !sleepGoal) found.extra = 'Choose what you want help with';
    setErrors(found);
    setAlert(null);
    if (Object.keys(found).length > 0) {
      const form = event.currentTarget;
      requestAnimationFrame(() =>
        form.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    setPending(true);
    try {
      const trimmed = notes.trim();
      const extraNotes = trimmed ? { notes: trimmed } : {};
      const result = await saveTreatmentChoice(visitId, {
        drug,
        dosage,
        frequency,
        ...(extraKind === 'hair' && hairForm ? { hair: { form: hairForm, ...extraNotes } } : {}),
        ...(extraKind === 'sleep' && sleepGoal
          ? { sleep: { goal: sleepGoal, ...extraNotes } }
          : {}),
      });
      await navigate(visitDestination(result.destination, category) ?? paths.visit(category));
    } catch (error) {
      setAlert(errorText(error, messages.productPreferencesFailed));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-7">
      <ChoiceGroup
        legend="Treatment"
        name="drug"
        value={drug}
        error={errors.drug}
        onChange={(code) => {
          answered('drug');
          setDrug(code);
          setDosage('');
          setFrequency('');
        }}
        choices={options.map((t) => ({
          code: t.drug,
          label: t.label,
          detail: `${t.description} From ${formatCents(Math.min(...t.frequencies.map((f) => f.priceCents)))}/month.`,
        }))}
      />
      {treatment ? (
        <>
          <ChoiceGroup
            legend="Dose"
            name="dosage"
            value={dosage}
            error={errors.dosage}
            onChange={(code) => {
              answered('dosage');
              setDosage(code);
            }}
            choices={treatment.dosages.map((d) => ({ code: d.code, label: d.label }))}
          />
          <ChoiceGroup
            legend="How much each month"
            name="frequency"
            value={frequency}
            error={errors.frequency}
            onChange={(code) => {
              answered('frequency');
              setFrequency(code);
            }}
            choices={treatment.frequencies.map((f) => ({
              code: f.code,
              label: f.label,
              detail: `${formatCents(f.priceCents)}/month`,
            }))}
          />
        </>
      ) : null}
      {extraKind ? (
        <ChoiceGroup
          legend={
            extraKind === 'hair' ? 'Do you prefer tablets or foam?' : 'What do you want help with?'
          }
          name="extra"
          value={extra}
          error={errors.extra}
          onChange={(code) => {
            answered('extra');
            setExtra(code);
          }}
          choices={extraKind === 'hair' ? hairForms : sleepGoals}
        />
      ) : null}
      {extraKind ? (
        <div>
          <label htmlFor="preference-notes" className="block text-[0.9375rem] font-medium text-ink">
            Anything your provider should know about your preference? (optional)
          </label>
          <textarea
            id="preference-notes"
            rows={3}
            maxLength={1000}
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
            className={`${inputClass(false)} mt-1.5 resize-y`}
          />
        </div>
      ) : null}
      <p className="text-sm text-muted">
        Your provider makes the final decision and may suggest a different dose.
      </p>
      {alert ? <FormAlert>{alert}</FormAlert> : null}
      <SubmitButton pending={pending} size="lg" className="w-full sm:w-auto sm:min-w-48">
        Continue
      </SubmitButton>
    </form>
  );
}

/** /visit/:category/preferences: the treatment, dose and amount the patient would like. */
export function PreferencesPage() {
  return (
    <section aria-labelledby="preferences-title" className={visitCardClass}>
      <h2 id="preferences-title" className="text-2xl text-ink">
        Your treatment preferences
      </h2>
      <p className="mt-2 text-ink-soft">Choose what you'd like your provider to consider.</p>
      <div className="mt-6">
        <WithVisit>{(visitId) => <PreferencesForm visitId={visitId} />}</WithVisit>
      </div>
    </section>
  );
}
