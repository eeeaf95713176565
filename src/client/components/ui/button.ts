/** Button looks, shared by <button> and <a>/<Link> so both read as the same control. */
const base =
  'inline-flex items-center justify-center gap-2 rounded-full font-semibold transition-colors duration-150 disabled:cursor-not-allowed disabled:opacity-60';

const variants = {
  primary: 'bg-accent-700 text-white hover:bg-accent-800 active:bg-accent-900',
  secondary: 'border border-accent-300 bg-white text-accent-800 hover:bg-accent-50',
  ghost: 'text-accent-800 hover:bg-accent-50',
} as const;

const sizes = {
  md: 'min-h-11 px-5 text-[0.9375rem]',
  lg: 'min-h-12 px-7 text-base',
} as const;

export function buttonClass(
  variant: keyof typeof variants = 'primary',
  size: keyof typeof sizes = 'md',
): string {
  return `${base} ${variants[variant]} ${sizes[size]}`;
}

/** An inline text link in running copy. */
export const textLinkClass =
  'font-medium text-accent-800 underline underline-offset-4 decoration-accent-300 hover:text-accent-900 hover:decoration-accent-700';
