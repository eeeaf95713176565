import {
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
} from 'react';

/**
 * Form fields with their label, hint and error tied to the control: the error is announced
 * through aria-describedby and the control is marked aria-invalid, so a screen reader reads the
 * message when the field takes focus (react-hook-form focuses the first invalid field).
 */

export function inputClass(invalid: boolean): string {
  return `block min-h-11 w-full rounded-xl border bg-white px-3.5 py-2 text-base text-ink shadow-[0_1px_2px_rgba(15,37,51,0.04)] transition-colors placeholder:text-muted/80 ${
    invalid ? 'border-danger' : 'border-line hover:border-accent-400 focus:border-accent-600'
  }`;
}

export function FieldError({ id, message }: { id: string; message?: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1.5 flex items-start gap-1.5 text-sm font-medium text-danger">
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="mt-0.5 size-4 shrink-0"
        fill="currentColor"
      >
        <path d="M10 1.75a8.25 8.25 0 1 0 0 16.5 8.25 8.25 0 0 0 0-16.5Zm0 4a.9.9 0 0 1 .9.9v3.9a.9.9 0 1 1-1.8 0V6.65a.9.9 0 0 1 .9-.9Zm0 8.6a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2Z" />
      </svg>
      <span>{message}</span>
    </p>
  );
}

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const list = ids.filter(Boolean).join(' ');
  return list || undefined;
}

const labelClass = 'block text-[0.9375rem] font-medium text-ink';
const hintClass = 'mt-0.5 text-sm text-muted';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
  /** Something inside the box on the right (the password field's Show button). */
  trailing?: ReactNode;
  wrapperClassName?: string;
}

export function TextField({
  label,
  hint,
  error,
  ref,
  trailing,
  wrapperClassName = '',
  type = 'text',
  className = '',
  ...input
}: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={wrapperClassName}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={hintClass}>
          {hint}
        </p>
      ) : null}
      <div className="relative mt-1.5">
        <input
          id={id}
          ref={ref}
          type={type}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(hint ? hintId : false, error ? errorId : false)}
          {...input}
          className={`${inputClass(Boolean(error))} ${trailing ? 'pr-20' : ''} ${className}`}
        />
        {trailing ? (
          <div className="absolute inset-y-0 right-1.5 flex items-center">{trailing}</div>
        ) : null}
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** A password box with a Show/Hide button, so a long passphrase can be checked before sending. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'trailing'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      spellCheck={false}
      autoCapitalize="off"
      trailing={
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={`${visible ? 'Hide' : 'Show'} password`}
          className="rounded-lg px-3 py-1.5 text-sm font-semibold text-accent-800 hover:bg-accent-50"
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      }
    />
  );
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  error?: string | undefined;
  ref?: Ref<HTMLSelectElement>;
  children: ReactNode;
  wrapperClassName?: string;
}

export function SelectField({
  label,
  error,
  ref,
  children,
  wrapperClassName = '',
  ...select
}: SelectFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={wrapperClassName}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select
        id={id}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error ? errorId : false)}
        className={`${inputClass(Boolean(error))} mt-1.5 appearance-none bg-[url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 20 20' fill='none' stroke='%2356697a' stroke-width='2'%3E%3Cpath d='M6 8l4 4 4-4' stroke-linecap='round' stroke-linejoin='round'/%3E%3C/svg%3E")] bg-[length:1.25rem] bg-[right_0.75rem_center] bg-no-repeat pr-10`}
        {...select}
      >
        {children}
      </select>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  label: ReactNode;
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
  wrapperClassName?: string;
}

export function CheckboxField({
  label,
  error,
  ref,
  wrapperClassName = '',
  ...input
}: CheckboxFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={wrapperClassName}>
      <div className="flex items-start gap-3">
        <input
          id={id}
          ref={ref}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(error ? errorId : false)}
          className="mt-0.5 size-5 shrink-0 cursor-pointer rounded accent-accent-700"
          {...input}
        />
        <label htmlFor={id} className="cursor-pointer text-[0.9375rem] leading-snug text-ink-soft">
          {label}
        </label>
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

type FlagFieldProps = Omit<CheckboxFieldProps, 'checked' | 'value' | 'onChange'> & {
  /** Unset reads as 0. */
  value: 0 | 1 | undefined;
  onChange: (value: 0 | 1) => void;
};

/**
 * A checkbox for a 0/1 field of the spec's payloads (`smsallow`, a card's `shipping`): takes a
 * react-hook-form Controller's `field` as it is.
 */
export function FlagField({ value, onChange, ...props }: FlagFieldProps) {
  return (
    <CheckboxField
      {...props}
      checked={value === 1}
      onChange={(event) => onChange(event.target.checked ? 1 : 0)}
    />
  );
}

/** Fields that belong together under a legend, which a screen reader says with each of them. */
export function Fieldset({
  legend,
  className,
  children,
}: {
  legend: ReactNode;
  /** The spacing of the fields inside (e.g. 'space-y-4'). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className={className}>
      <legend className="font-sans text-base font-semibold text-ink">{legend}</legend>
      {children}
    </fieldset>
  );
}

/** A message about the whole form (a refused log-in, a declined card), announced when it appears. */
export function FormAlert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'success';
  children: ReactNode;
}) {
  return (
    <div
      role="alert"
      className={`rounded-xl border px-4 py-3 text-[0.9375rem] ${
        tone === 'error'
          ? 'border-danger/25 bg-danger-soft text-danger'
          : 'border-success/25 bg-success-soft text-success'
      }`}
    >
      {children}
    </div>
  );
}
