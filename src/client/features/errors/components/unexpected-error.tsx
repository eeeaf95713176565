import { messages } from '#shared/wording.ts';
import { site } from '#shared/site.ts';
import { buttonClass } from '#client/components/ui/button.ts';

/**
 * The 'Unexpected error' screen of spec §2. It stands on its own (no router, no data) because it
 * shows when something else has already failed.
 */
export function UnexpectedError() {
  return (
    <main
      id="main"
      className="flex min-h-[70vh] items-center justify-center px-5 py-16 text-center"
    >
      <div className="max-w-md">
        <div
          aria-hidden="true"
          className="mx-auto mb-6 grid size-14 place-items-center rounded-full bg-accent-100 text-accent-800"
        >
          <svg
            viewBox="0 0 24 24"
            className="size-7"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path
              d="M12 8v5m0 3.5v.01M10.3 3.9 2.5 17.5A2 2 0 0 0 4.2 20.5h15.6a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </div>
        <h1 className="text-3xl text-ink">{messages.unexpectedError}</h1>
        <p className="mt-3 text-ink-soft">
          Something went wrong on this page. Our team has been notified and is looking into it.
        </p>
        <p className="mt-2 text-ink-soft">
          If it keeps happening, write to us at{' '}
          <a
            className="font-medium text-accent-800 underline underline-offset-4"
            href={`mailto:${site.supportEmail}`}
          >
            {site.supportEmail}
          </a>
          .
        </p>
        <button
          type="button"
          className={`${buttonClass('primary', 'lg')} mt-8`}
          onClick={() => window.location.reload()}
        >
          {messages.refreshPage}
        </button>
      </div>
    </main>
  );
}
