interface SpinnerProps {
  label?: string;
  /** Fill the content area and centre, for whole-page loading. */
  block?: boolean;
}

export function Spinner({ label = 'Loading…', block = false }: SpinnerProps) {
  const spinner = (
    <span role="status" className="inline-flex items-center gap-3 text-muted">
      <span
        aria-hidden="true"
        className="size-6 animate-spin rounded-full border-[3px] border-accent-200 border-t-accent-600"
      />
      <span className="sr-only">{label}</span>
    </span>
  );
  if (!block) return spinner;
  return <div className="flex min-h-[40vh] items-center justify-center">{spinner}</div>;
}
