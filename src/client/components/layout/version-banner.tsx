import { useEffect, useState } from 'react';
// zod/mini, not classic zod: the banner is on every page (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';
import { runtimeConfig } from '#client/lib/runtime-config.ts';
import { buttonClass } from '#client/components/ui/button.ts';

const VersionFileSchema = z.object({ version: z.string() });
const CHECK_EVERY_MS = 5 * 60_000;

/**
 * Offers a Refresh when a newer build is deployed (spec §2). It reads /version.json and compares
 * it with the build that is running. The check is off unless the server enables it (VERSION_CHECK).
 */
export function VersionBanner() {
  const [stale, setStale] = useState(false);

  useEffect(() => {
    if (!runtimeConfig().versionCheck) return;
    let cancelled = false;
    const check = async () => {
      try {
        const response = await fetch('/version.json', { cache: 'no-store' });
        if (!response.ok) return;
        const parsed = VersionFileSchema.safeParse(await response.json());
        if (!cancelled && parsed.success && parsed.data.version !== __APP_BUILD__) setStale(true);
      } catch {
        // Offline or mid-deploy: the next check will tell.
      }
    };
    void check();
    const timer = setInterval(() => void check(), CHECK_EVERY_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      cancelled = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  if (!stale) return null;
  return (
    <div role="status" className="bg-accent-800 text-white">
      <div className="container-page flex flex-wrap items-center justify-between gap-3 py-2.5 text-sm">
        <p>A new version of the site is available.</p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className={`${buttonClass('secondary')} min-h-9! px-4! text-sm`}
        >
          Refresh
        </button>
      </div>
    </div>
  );
}
