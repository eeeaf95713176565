import { Link } from 'react-router';
import { site } from '#shared/site.ts';
import { paths } from '#shared/paths.ts';
import { TagManagerPart } from '#client/components/layout/tag-manager-part.tsx';
import { Logo } from '#client/components/layout/logo.tsx';

const footerLink = 'text-sm text-ink-soft underline-offset-4 hover:text-accent-800 hover:underline';

const loadCookieSettings = () =>
  import('#client/features/consent/cookie-settings.tsx').then(
    (module) => module.CookieSettingsItem,
  );

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="mt-auto border-t print:hidden border-line bg-surface">
      <div className="container-page grid gap-10 py-12 md:grid-cols-[1.4fr_1fr_1fr]">
        <div className="max-w-sm">
          <Logo />
          <p className="mt-3 font-display text-lg text-ink">{site.tagline}</p>
          <p className="mt-2 text-sm text-muted">
            Online visits with licensed providers and everyday supplements, made for two.
          </p>
        </div>
        <nav aria-label="Legal and help">
          <h2 className="font-sans text-sm font-semibold uppercase tracking-wider text-ink">
            Help &amp; legal
          </h2>
          <ul className="mt-4 space-y-2.5">
            <li>
              <Link className={footerLink} to={paths.faq}>
                FAQ
              </Link>
            </li>
            <li>
              <Link className={footerLink} to={paths.privacy}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link className={footerLink} to={paths.terms}>
                Terms of Service
              </Link>
            </li>
            <li>
              <Link className={footerLink} to={paths.consentToTelehealth}>
                Consent to Telehealth
              </Link>
            </li>
            {/* Where the tag manager may load (GTM_ID set, a public page), consent can change. */}
            <TagManagerPart load={loadCookieSettings} props={{ className: footerLink }} />
          </ul>
        </nav>
        <div>
          <h2 className="font-sans text-sm font-semibold uppercase tracking-wider text-ink">
            Contact us
          </h2>
          <ul className="mt-4 space-y-2.5">
            <li>
              <a className={footerLink} href={`mailto:${site.supportEmail}`}>
                {site.supportEmail}
              </a>
            </li>
            <li>
              <a className={footerLink} href={`tel:${site.supportPhone.replace(/[^\d+]/g, '')}`}>
                {site.supportPhone}
              </a>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-line">
        <div className="container-page space-y-2 py-6 text-xs leading-relaxed text-muted">
          <p>
            If you think you may have a medical emergency, call 911 or go to the nearest emergency
            room. Pairwell does not provide emergency care.
          </p>
          <p>
            These statements about our supplements have not been evaluated by the Food and Drug
            Administration. Our supplements are not intended to diagnose, treat, cure or prevent any
            disease.
          </p>
          <p>
            © {year} {site.name}. All rights reserved.
          </p>
        </div>
      </div>
    </footer>
  );
}
