import { useEffect, useState, type ComponentType } from 'react';
import { tagManagerId } from '#client/lib/consent.ts';

/**
 * A part of the page that exists only with the operator's tag manager (GTM_ID, decision 020): its
 * code is fetched after the first render, and only when GTM_ID is set. Without it, nothing is
 * rendered and nothing downloaded; the first render matches the server's prerender either way.
 * `load` must be a module-level function (it is an effect's dependency).
 */
export function TagManagerPart<P extends object>({
  load,
  props,
}: {
  load: () => Promise<ComponentType<P>>;
  props: P;
}) {
  const [Part, setPart] = useState<{ component: ComponentType<P> } | null>(null);
  useEffect(() => {
    if (!tagManagerId()) return;
    let live = true;
    // Should its code fail to arrive, nothing is asked, and nothing loads.
    load()
      .then((component) => {
        if (live) setPart({ component });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [load]);
  return Part ? <Part.component {...props} /> : null;
}
