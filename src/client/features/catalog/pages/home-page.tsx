import { Link } from 'react-router';
import { site } from '#shared/site.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { paths } from '#shared/paths.ts';
import { neverShared, sharingItems, sharingItemText } from '#shared/partners-privacy.ts';
import { useCatalog } from '../catalog.api.ts';
import { ProductCard } from '../components/product-card.tsx';
import { useViewItemList } from '../use-item-list.ts';
import { itemLists } from '#client/lib/analytics.ts';
import { PageTitle } from '#client/components/layout/document-head.tsx';

/**
 * The telehealth programs (DESIGN §1, §2), each with its illustration and the way into its online
 * visit.
 */
const programs = [
  {
    id: 'ed',
    title: 'Erectile dysfunction',
    img: '/images/program-ed.svg',
    text: 'Discreet online visits for ED. A licensed provider reviews your health history and, if it is right for you, prescribes sildenafil or tadalafil.',
  },
  {
    id: 'sleep',
    title: 'Sleep',
    img: '/images/program-sleep.svg',
    text: 'Trouble falling or staying asleep? Talk it through with a provider and get a plan, including prescription sleep support when it fits.',
  },
  {
    id: 'hair',
    title: 'Hair',
    img: '/images/program-hair.svg',
    text: 'Thinning hair or a receding hairline: finasteride and minoxidil treatment plans from a provider, with refills shipped to your door.',
  },
];

const promises = [
  {
    title: 'Licensed providers',
    text: 'Every online visit is reviewed by a US-licensed provider in your state.',
  },
  {
    title: 'Private by design',
    text: 'Discreet packaging, and your health information stays with your care team.',
  },
  {
    title: 'Free shipping',
    text: 'Delivered to your door at no extra cost. Skip, pause or cancel any time.',
  },
];

export function HomePage() {
  const catalog = useCatalog();
  useViewItemList(itemLists.home, catalog.data?.lines);
  return (
    <>
      <PageTitle>{site.title}</PageTitle>
      <section className="relative overflow-hidden bg-gradient-to-b from-accent-50 via-accent-50/60 to-white">
        <div className="container-page grid items-center gap-10 py-14 md:grid-cols-[1.1fr_0.9fr] md:py-20">
          <div>
            <p className="inline-flex rounded-full bg-white px-3 py-1 text-sm font-semibold text-accent-800 ring-1 ring-accent-200">
              {site.tagline}
            </p>
            <h1 className="mt-5 text-[2.5rem] leading-[1.08] text-ink md:text-6xl">
              Better health, together.
            </h1>
            <p className="mt-5 max-w-xl text-lg leading-relaxed text-ink-soft">
              Pairwell brings the clinic home for the two of you: private online visits with
              licensed providers for ED, sleep and hair, and everyday supplement gummies delivered
              to your door.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <a href="#supplements" className={buttonClass('primary', 'lg')}>
                Shop supplements
              </a>
              <a href="#how-it-works" className={buttonClass('secondary', 'lg')}>
                How it works
              </a>
            </div>
          </div>
          <div className="relative mx-auto w-full max-w-md">
            <div
              aria-hidden="true"
              className="absolute -inset-6 rounded-[3rem] bg-accent-100/70 blur-2xl"
            />
            <img
              src={site.heroImage}
              alt="Pairwell Sleep, Biotin and Immunity Gummies"
              width={800}
              height={800}
              fetchPriority="high"
              className="relative aspect-square w-full rounded-[2.5rem] object-cover shadow-xl ring-1 ring-white"
            />
          </div>
        </div>
      </section>

      <section aria-labelledby="promises-title" className="border-y border-line bg-white">
        <h2 id="promises-title" className="sr-only">
          Why Pairwell
        </h2>
        <ul className="container-page grid gap-6 py-8 sm:grid-cols-3">
          {promises.map((promise) => (
            <li key={promise.title} className="flex gap-3">
              <span
                aria-hidden="true"
                className="mt-1 grid size-6 shrink-0 place-items-center rounded-full bg-accent-100 text-accent-800"
              >
                <svg
                  viewBox="0 0 20 20"
                  className="size-3.5"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2.5"
                >
                  <path d="M4 10.5l4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              </span>
              <div>
                <h3 className="font-sans font-semibold text-ink">{promise.title}</h3>
                <p className="mt-0.5 text-sm text-ink-soft">{promise.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section
        id="supplements"
        aria-labelledby="supplements-title"
        className="container-page py-14 md:py-20"
      >
        <div className="max-w-2xl">
          <h2 id="supplements-title" className="text-3xl text-ink md:text-4xl">
            Everyday supplements
          </h2>
          <p className="mt-3 text-ink-soft">
            Vegan gummies for sleep, hair and immunity. Buy once, or subscribe monthly or quarterly
            and save.
          </p>
        </div>
        <div className="mt-8">
          {catalog.isPending ? (
            <Spinner label="Loading products…" block />
          ) : catalog.isError ? (
            <div
              role="alert"
              className="rounded-2xl border border-line bg-surface p-6 text-ink-soft"
            >
              <p>{catalog.error.message}</p>
              <button
                type="button"
                onClick={() => void catalog.refetch()}
                className={`${buttonClass('secondary')} mt-4`}
              >
                Try again
              </button>
            </div>
          ) : (
            <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
              {catalog.data.lines.map((line, index) => (
                <li key={line.slug} className="flex">
                  <ProductCard line={line} list={itemLists.home} index={index} />
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      <section id="programs" aria-labelledby="programs-title" className="border-t border-line">
        <div className="container-page py-14 md:py-20">
          <div className="max-w-2xl">
            <h2 id="programs-title" className="text-3xl text-ink md:text-4xl">
              Online visits with a licensed provider
            </h2>
            <p className="mt-3 text-ink-soft">
              Three programs for the health you share. Every visit is private, and treatment is
              prescribed only when a provider approves it.
            </p>
          </div>
          <ul className="mt-8 grid gap-5 md:grid-cols-3">
            {programs.map((program) => (
              <li
                key={program.id}
                className="flex flex-col overflow-hidden rounded-3xl border border-line bg-white shadow-[0_1px_2px_rgba(15,37,51,0.04)]"
              >
                <div className="bg-gradient-to-b from-accent-50 to-white px-6 pt-6">
                  <img
                    src={program.img}
                    alt=""
                    width={480}
                    height={360}
                    loading="lazy"
                    decoding="async"
                    className="mx-auto aspect-[4/3] w-full max-w-xs"
                  />
                </div>
                <div className="flex flex-1 flex-col p-6 pt-4">
                  <h3 className="font-sans text-lg font-semibold text-ink">{program.title}</h3>
                  <p className="mt-2 text-[0.9375rem] text-ink-soft">{program.text}</p>
                  <Link
                    to={paths.visit(program.id)}
                    // One name, without the space a flex layout puts before a hidden part.
                    aria-label={`Start your visit: ${program.title}`}
                    className={`${buttonClass('primary')} mt-5 self-start`}
                  >
                    Start your visit
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="couples" aria-labelledby="couples-title" className="border-t border-line">
        <div className="container-page py-14 md:py-20">
          <div className="max-w-2xl">
            <h2 id="couples-title" className="text-3xl text-ink md:text-4xl">
              For couples
            </h2>
            <p className="mt-3 text-ink-soft">
              Link your account with your partner&apos;s. Each of you chooses, item by item, what
              the other can see. Nothing is shared until you turn it on, and either of you can
              unlink at any time, without the other being told if you prefer.
            </p>
          </div>
          <div className="mt-8 grid gap-5 md:grid-cols-2">
            <div className="rounded-3xl border border-line bg-white p-6">
              <h3 className="font-sans text-lg font-semibold text-ink">
                What your partner can see, only if you choose
              </h3>
              <ul className="mt-3 space-y-3">
                {sharingItems.map((item) => (
                  <li key={item} className="text-[0.9375rem]">
                    <span className="font-semibold text-ink">{sharingItemText[item].label}</span>
                    <span className="block text-ink-soft">{sharingItemText[item].means}</span>
                  </li>
                ))}
              </ul>
            </div>
            <div className="rounded-3xl border border-line bg-white p-6">
              <h3 className="font-sans text-lg font-semibold text-ink">
                What your partner never sees
              </h3>
              <p className="mt-1 text-[0.9375rem] text-ink-soft">
                No setting can share these. They stay between you and your care team.
              </p>
              <ul className="mt-3 list-disc space-y-1 pl-5 text-[0.9375rem] text-ink-soft">
                {neverShared.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          </div>
        </div>
      </section>

      <section id="how-it-works" aria-labelledby="how-title" className="bg-surface">
        <div className="container-page py-14 md:py-20">
          <h2 id="how-title" className="text-3xl text-ink md:text-4xl">
            How Pairwell works
          </h2>
          <ol className="mt-8 grid gap-6 md:grid-cols-3">
            {[
              [
                'Tell us about you',
                'Answer a short, private questionnaire about your health and goals. It takes about ten minutes.',
              ],
              [
                'A provider reviews',
                'A licensed provider in your state reviews your visit, usually within one business day, and writes to you in your account.',
              ],
              [
                'Treatment, delivered',
                'If treatment is right for you, it ships free in discreet packaging, with refills on your schedule.',
              ],
            ].map(([title, text], index) => (
              <li key={title} className="rounded-3xl bg-white p-6 ring-1 ring-line">
                <span className="font-display text-3xl text-accent-600">{index + 1}</span>
                <h3 className="mt-3 font-sans text-lg font-semibold text-ink">{title}</h3>
                <p className="mt-2 text-[0.9375rem] text-ink-soft">{text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>
    </>
  );
}
