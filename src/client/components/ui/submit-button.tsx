import type { ReactNode } from 'react';
import { buttonClass } from './button.ts';

interface SubmitButtonProps {
  pending: boolean;
  children: ReactNode;
  variant?: Parameters<typeof buttonClass>[0];
  size?: Parameters<typeof buttonClass>[1];
  className?: string;
}

/** A form's submit button: disabled while sending, with a small spinner; its name never changes. */
export function SubmitButton({
  pending,
  children,
  variant = 'primary',
  size = 'md',
  className = '',
}: SubmitButtonProps) {
  return (
    <button
      type="submit"
      disabled={pending}
      aria-busy={pending || undefined}
      className={`${buttonClass(variant, size)} ${className}`}
    >
      {pending ? (
        <span
          aria-hidden="true"
          className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
        />
      ) : null}
      {children}
    </button>
  );
}
