import { useRef } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { autoSlash, expiryGroups, groupCardNumber } from './auto-slash.ts';
import { TextField } from './fields.tsx';

type CardField = 'ccnum' | 'ccexp' | 'cccvv';

interface CardFieldsProps {
  /** The form's registration of each field: the digits stay in that form's state alone. */
  fields: Record<CardField, UseFormRegisterReturn>;
  errors: Partial<Record<CardField, string>>;
}

/**
 * Card number, expiry (a slash appears after the month as it is typed) and security code, with
 * the autofill hints browsers and password managers know. Used wherever a card is entered.
 */
export function CardFields({ fields, errors }: CardFieldsProps) {
  const previousExpiry = useRef('');
  const previousNumber = useRef('');
  const expiry = fields.ccexp;
  const number = fields.ccnum;
  return (
    <>
      <TextField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 5678 9012 3456"
        maxLength={23}
        spellCheck={false}
        error={errors.ccnum}
        {...number}
        onFocus={(event) => {
          previousNumber.current = event.target.value;
        }}
        onChange={(event) => {
          const next = groupCardNumber(previousNumber.current, event.target.value);
          if (next !== event.target.value) event.target.value = next;
          previousNumber.current = next;
          void number.onChange(event);
        }}
      />
      <div className="grid grid-cols-2 gap-5">
        <TextField
          label="Expiration"
          hint="MM/YY"
          inputMode="numeric"
          autoComplete="cc-exp"
          maxLength={5}
          error={errors.ccexp}
          {...expiry}
          onFocus={(event) => {
            previousExpiry.current = event.target.value;
          }}
          onChange={(event) => {
            const next = autoSlash(previousExpiry.current, event.target.value, expiryGroups);
            if (next !== event.target.value) event.target.value = next;
            previousExpiry.current = next;
            void expiry.onChange(event);
          }}
        />
        <TextField
          label="Security code"
          hint="3 or 4 digits"
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={4}
          error={errors.cccvv}
          {...fields.cccvv}
        />
      </div>
    </>
  );
}
