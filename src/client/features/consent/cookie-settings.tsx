import { useLocation } from 'react-router';
import { tagManagerPage } from '#shared/tag-manager.ts';
import { openConsentSettings } from './consent-store.ts';

/** The footer's "Cookie settings", where the tag manager may load: the banner again. */
export function CookieSettingsItem({ className }: { className: string }) {
  const location = useLocation();
  if (!tagManagerPage(location.pathname, location.search)) return null;
  return (
    <li>
      <button type="button" className={className} onClick={openConsentSettings}>
        Cookie settings
      </button>
    </li>
  );
}
