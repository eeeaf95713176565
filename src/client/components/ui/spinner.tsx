interface SpinnerProps {
  label?: string;
  /** Fill the content area and centre, for whole-page loading. */
  block?: boolean;
  /**
   * As tall as the screen, for a page still loading: the footer stays below the fold instead of
   * showing and then jumping away when the page arrives (a layout shift).
   */
  screen?: boolean;
}

export function Spinner({ label = 'Loading…', block = false, screen = false }: SpinnerProps) {
  const spinner = (
    <span role="status" className="inline-flex items-center gap-3 text-muted">
      <span
        aria-hidden="true"
        className="size-6 animate-spin rounded-full border-[3px] border-accent-200 border-t-accent-600"
      />
      <span className="sr-only">{label}</span>
    </span>
  );
  if (screen)
    return <div className="flex min-h-dvh items-start justify-center pt-[20vh]">{spinner}</div>;
  if (!block) return spinner;
  return <div className="flex min-h-[40vh] items-center justify-center">{spinner}</div>;
}
