import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import type { ConsentChoice } from '#client/lib/consent.ts';
import { chooseConsent } from './consent-store.ts';

/**
 * The tag manager's consent banner (decision 020): shown on public pages while no choice is kept,
 * or again from the footer's "Cookie settings". Not modal: the page stays usable, and both answers
 * are equally easy. Opened from the footer it takes the focus, and gives it back when answered.
 */
export function ConsentBanner({ reopened }: { reopened: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!reopened) return;
    returnTo.current =
      document.activeElement instanceof HTMLElement ? document.activeElement : null;
    heading.current?.focus();
  }, [reopened]);

  const choose = (choice: ConsentChoice) => {
    chooseConsent(choice);
    returnTo.current?.focus();
  };

  return (
    <section
      aria-labelledby="consent-title"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-line bg-white shadow-[0_-4px_24px_rgba(15,37,51,0.12)] print:hidden"
    >
      <div className="container-page flex flex-col gap-4 py-4 md:flex-row md:items-center md:justify-between md:gap-8">
        <div className="max-w-3xl">
          <h2
            id="consent-title"
            ref={heading}
            tabIndex={-1}
            className="font-sans text-base font-semibold text-ink outline-none"
          >
            May we measure how our shop is used?
          </h2>
          <p className="mt-1 text-sm leading-relaxed text-ink-soft">
            With your permission, Google Tag Manager and Google Analytics set cookies on our shop
            pages to count which products are viewed and bought. They never run in your account or
            your online visits, and never see health information. No advertising cookies.{' '}
            <Link to={paths.privacy} className={textLinkClass}>
              Privacy Policy
            </Link>
          </p>
        </div>
        <div className="flex shrink-0 gap-3">
          <button
            type="button"
            onClick={() => choose('denied')}
            className={`${buttonClass('secondary')} flex-1 md:flex-none`}
          >
            Decline
          </button>
          <button
            type="button"
            onClick={() => choose('granted')}
            className={`${buttonClass('primary')} flex-1 md:flex-none`}
          >
            Accept
          </button>
        </div>
      </div>
    </section>
  );
}
