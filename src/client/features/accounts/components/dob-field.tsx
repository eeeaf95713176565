import { useRef, type ComponentProps } from 'react';
import { autoSlash, dateGroups } from '#client/components/forms/auto-slash.ts';
import { TextField } from '#client/components/forms/fields.tsx';

type DobFieldProps = Omit<ComponentProps<typeof TextField>, 'label' | 'type'> & { label?: string };

/**
 * Date of birth as typed text, 'MM/DD/YYYY' (spec §5). A text box rather than a date picker: the
 * spec's format and messages are about what the customer types, and pickers are slow for birth
 * years. The number keypad opens on phones, and the slashes fill in as the digits are typed.
 */
export function DobField({ label = 'Date of birth', onChange, onFocus, ...props }: DobFieldProps) {
  const previous = useRef('');
  return (
    <TextField
      label={label}
      hint="MM/DD/YYYY"
      inputMode="numeric"
      autoComplete="bday"
      maxLength={10}
      {...props}
      onFocus={(event) => {
        previous.current = event.target.value;
        onFocus?.(event);
      }}
      onChange={(event) => {
        const next = autoSlash(previous.current, event.target.value, dateGroups);
        if (next !== event.target.value) event.target.value = next;
        previous.current = next;
        onChange?.(event);
      }}
    />
  );
}
