import type { ReactNode } from 'react';

/**
 * The photo ID step's guidance (issue 29): a camera-style frame, an example of an ID inside it,
 * and what makes a photo the care team can read. The pictures are decoration; every piece of
 * guidance is also text.
 */

const corners = [
  'left-3 top-3 rounded-tl-xl border-l-[3px] border-t-[3px]',
  'right-3 top-3 rounded-tr-xl border-r-[3px] border-t-[3px]',
  'bottom-3 left-3 rounded-bl-xl border-b-[3px] border-l-[3px]',
  'bottom-3 right-3 rounded-br-xl border-b-[3px] border-r-[3px]',
];

/**
 * A camera's frame: a dark, plain surface with a bracket at each corner, drawn over what it holds
 * (the example, or the photo the patient chose), so the two read as the same view.
 */
export function IdFrame({ children }: { children: ReactNode }) {
  return (
    <div className="relative aspect-[8/5] w-full overflow-hidden rounded-2xl bg-ink">
      <div className="absolute inset-7 grid place-items-center sm:inset-8">{children}</div>
      {corners.map((corner) => (
        <span
          key={corner}
          aria-hidden="true"
          className={`pointer-events-none absolute size-7 border-accent-300 ${corner}`}
        />
      ))}
    </div>
  );
}

/**
 * A made-up ID card: a silhouette where the portrait goes, bars where a title and text go. No
 * person, no state, no real layout.
 */
export function ExampleIdCard() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 240 152"
      className="size-full drop-shadow-[0_6px_14px_rgba(0,0,0,0.35)]"
    >
      <rect width="240" height="152" rx="12" fill="#ffffff" />
      {/* The title band: a "license"-like heading and a class, as bars. */}
      <path d="M12 0h216a12 12 0 0 1 12 12v18H0V12A12 12 0 0 1 12 0Z" fill="#176c9b" />
      <rect x="14" y="11" width="86" height="8" rx="4" fill="#ffffff" />
      <rect x="188" y="11" width="38" height="8" rx="4" fill="#8fd0ef" />
      {/* The portrait: a silhouette, nobody in particular. */}
      <rect x="14" y="40" width="60" height="76" rx="6" fill="#e3f3fb" />
      <circle cx="44" cy="67" r="13" fill="#5dbbe6" />
      <path d="M22 116c0-17 10-27 22-27s22 10 22 27Z" fill="#5dbbe6" />
      <rect x="14" y="124" width="60" height="6" rx="3" fill="#dbe5ec" />
      <rect x="14" y="134" width="40" height="6" rx="3" fill="#dbe5ec" />
      {/* The lines of text: a name, then the details. */}
      <rect x="88" y="42" width="104" height="8" rx="4" fill="#3d5261" />
      <rect x="88" y="58" width="72" height="6" rx="3" fill="#8ea2b2" />
      <rect x="88" y="72" width="122" height="6" rx="3" fill="#c8d5de" />
      <rect x="88" y="86" width="52" height="6" rx="3" fill="#c8d5de" />
      <rect x="148" y="86" width="62" height="6" rx="3" fill="#c8d5de" />
      <rect x="88" y="100" width="92" height="6" rx="3" fill="#c8d5de" />
      {/* A signature, and a seal. */}
      <path
        d="M90 130c6-9 10-10 12-4s4 7 9-1 8-6 10 0 6 5 11-2 7-4 10 1"
        fill="none"
        stroke="#3d5261"
        strokeWidth="2"
        strokeLinecap="round"
      />
      <circle cx="210" cy="124" r="14" fill="none" stroke="#c4e6f6" strokeWidth="3" />
      <circle cx="210" cy="124" r="6" fill="#c4e6f6" />
    </svg>
  );
}

/** What makes a photo of an ID one the care team can read and trust. */
export const photoIdTips = [
  'The whole card inside the frame',
  'All four corners showing',
  'On a dark, plain surface',
  'No glare or flash reflections',
  'Every word sharp enough to read',
  'An ID that has not expired',
] as const;

function CheckIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 20 20"
      fill="currentColor"
      className="mt-0.5 size-5 shrink-0 text-accent-700"
    >
      <path d="M10 1.75a8.25 8.25 0 1 0 0 16.5 8.25 8.25 0 0 0 0-16.5Zm3.86 6.03-4.5 5a.9.9 0 0 1-1.3.04l-2-2a.9.9 0 1 1 1.27-1.27l1.33 1.33 3.86-4.3a.9.9 0 1 1 1.34 1.2Z" />
    </svg>
  );
}

/** The tips as a list under their heading. */
export function PhotoIdTips() {
  return (
    <div>
      <h4 className="font-sans text-[0.9375rem] font-semibold text-ink">For a clear photo</h4>
      <ul className="mt-2 space-y-1.5 text-[0.9375rem] text-ink-soft">
        {photoIdTips.map((tip) => (
          <li key={tip} className="flex items-start gap-2">
            <CheckIcon />
            <span>{tip}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The example: an ID inside the frame, with its caption. */
export function PhotoIdExample() {
  return (
    <figure>
      <IdFrame>
        <ExampleIdCard />
      </IdFrame>
      <figcaption className="mt-2 text-sm text-muted">
        Example: the whole card inside the frame, on a dark surface.
      </figcaption>
    </figure>
  );
}
