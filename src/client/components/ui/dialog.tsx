import * as Radix from '@radix-ui/react-dialog';
import { useLayoutEffect, useRef, type ComponentProps, type ReactNode } from 'react';
import { CloseIcon } from './close-icon.tsx';

/**
 * The one dialog shell, on Radix: an overlay, focus kept inside while open and given back to what
 * opened it, Escape and the overlay close it, and the title (and description, when there is one)
 * name it for a screen reader. Two shapes: a drawer that slides in from the right, and a modal
 * card in the middle of the screen.
 *
 * Giving focus back is done here, not by Radix: Radix returns it only to a `Radix.Trigger`, and
 * these dialogs are opened by state (a card's button, a store), so without this focus fell to
 * <body> on every close. The element that had focus when the dialog opened gets it back; when a
 * change took that element away (a cancelled subscription's 'Cancel' button, a shipped order's
 * 'Mark shipped'), `returnFocusTo` names the place that takes it instead.
 */

const contentClass = {
  drawer:
    'slider-panel fixed inset-y-0 right-0 z-50 flex flex-col bg-white shadow-2xl outline-none',
  modal:
    'fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-3xl bg-white shadow-2xl outline-none',
};

/** A drawer's width (none: the caller's `style` sets it) or a modal's. */
const sizeClass = {
  drawer: { md: 'w-full max-w-md', none: 'max-w-full' },
  modal: { md: 'max-w-md', lg: 'max-w-lg', none: '' },
};

/**
 * `sections`: a header, then a body that scrolls on its own (DialogHeader, DialogBody). `padded`:
 * the whole card scrolls as one. A drawer is always made of sections.
 */
const layoutClass = {
  sections: 'flex flex-col overflow-hidden',
  padded: 'overflow-y-auto p-5 sm:p-6',
};

type ContentProps = ComponentProps<typeof Radix.Content>;

type DialogProps = Pick<ContentProps, 'onCloseAutoFocus' | 'style' | 'aria-describedby'> & {
  open: boolean;
  /** Escape, the overlay or a close button asked to close. */
  onClose: () => void;
  variant: 'drawer' | 'modal';
  size?: 'md' | 'lg';
  layout?: keyof typeof layoutClass;
  testId?: string;
  /**
   * Where focus goes on closing when the element that opened the dialog is gone (or there was
   * none: a dialog open since the page loaded). Called after the close has rendered.
   */
  returnFocusTo?: () => HTMLElement | null | undefined;
  children: ReactNode;
};

/** Focuses the first of `candidates` that is still on the page and takes focus. */
function focusFirst(candidates: (HTMLElement | null | undefined)[]): void {
  for (const element of candidates) {
    if (!element?.isConnected) continue;
    element.focus();
    if (document.activeElement === element) return;
  }
}

export function Dialog({
  open,
  onClose,
  variant,
  size,
  layout = variant === 'drawer' ? 'sections' : 'padded',
  testId,
  returnFocusTo,
  children,
  onCloseAutoFocus,
  ...content
}: DialogProps) {
  const opener = useRef<HTMLElement | null>(null);
  // Noted before Radix moves focus into the dialog (its focus scope does that in a later effect).
  useLayoutEffect(() => {
    if (!open) return;
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
  }, [open]);
  const sizes: Record<string, string> = sizeClass[variant];
  const classes = [
    contentClass[variant],
    sizes[size ?? 'none'],
    variant === 'modal' ? layoutClass[layout] : '',
  ];
  return (
    <Radix.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <Radix.Portal>
        <Radix.Overlay className="slider-overlay fixed inset-0 z-50 bg-ink/40 backdrop-blur-[2px]" />
        <Radix.Content
          data-testid={testId}
          className={classes.filter(Boolean).join(' ')}
          onCloseAutoFocus={(event) => {
            onCloseAutoFocus?.(event);
            if (event.defaultPrevented) return;
            event.preventDefault();
            focusFirst([opener.current, returnFocusTo?.()]);
            opener.current = null;
          }}
          {...content}
        >
          {children}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}

export function DialogTitle({ children }: { children: ReactNode }) {
  return <Radix.Title className="text-2xl text-ink">{children}</Radix.Title>;
}

export function DialogDescription({
  className = 'mt-1 text-[0.9375rem] text-ink-soft',
  children,
}: {
  className?: string;
  children: ReactNode;
}) {
  return <Radix.Description className={className}>{children}</Radix.Description>;
}

/** The round × in a dialog's corner; its label says what it closes. */
export function DialogCloseButton({ label = 'Close' }: { label?: string }) {
  return (
    <Radix.Close
      aria-label={label}
      className="-mr-2 grid size-10 shrink-0 place-items-center rounded-full text-muted hover:bg-surface hover:text-ink"
    >
      <CloseIcon />
    </Radix.Close>
  );
}

/** A sections dialog's top bar: the title (and description) with the close button beside it. */
export function DialogHeader({
  title,
  description,
  closeLabel,
  className = 'px-5 py-4 sm:px-6',
}: {
  title: ReactNode;
  description?: ReactNode;
  closeLabel?: string;
  /** Its padding, lined up with the body's. */
  className?: string;
}) {
  return (
    <div
      className={`flex justify-between gap-4 border-b border-line ${description ? 'items-start' : 'items-center'} ${className}`}
    >
      {description ? (
        <div>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </div>
      ) : (
        <DialogTitle>{title}</DialogTitle>
      )}
      <DialogCloseButton label={closeLabel} />
    </div>
  );
}
