import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { messages } from '#shared/wording.ts';
import { ApiError } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';

export interface FormErrorOutcome {
  /** Whether at least one message landed on a field of this form. */
  placed: boolean;
  /** The error's own message, for a toast or an alert. */
  message: string;
}

/**
 * Puts an API error's field messages onto the matching form fields (focusing the first) and hands
 * back the rest for a toast or an inline alert (STYLE.md "Errors"). Anything that is not an
 * ApiError is a bug: it is reported (its name and message only) and the customer sees a generic
 * message.
 */
export function applyApiError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fieldNames: readonly Path<T>[],
): FormErrorOutcome {
  if (!(error instanceof ApiError)) {
    reportError(error, 'error', 'form');
    return { placed: false, message: messages.somethingWentWrong };
  }
  let placed = false;
  for (const [name, message] of Object.entries(error.fields)) {
    // The server may name a nested field by its path (`prospect.email`).
    const field = fieldNames.find(
      (candidate) => candidate === name || name.endsWith(`.${candidate}`),
    );
    if (!field) continue;
    setError(field, { type: 'server', message }, { shouldFocus: !placed });
    placed = true;
  }
  return { placed, message: error.message };
}
