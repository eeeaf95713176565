// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setRuntimeConfig } from '#client/lib/runtime-config.ts';
import { VersionBanner } from './version-banner.tsx';

afterEach(() => cleanup());

/** Marks that the effects of the render it is part of have run (Preact runs them in one pass). */
function EffectsRan({ onRun }: { onRun: () => void }) {
  useEffect(onRun, [onRun]);
  return null;
}

describe('the new-version banner', () => {
  it('is off by default: no request, no banner', async () => {
    setRuntimeConfig({ versionCheck: false });
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    let effectsRan = false;
    render(
      <>
        <VersionBanner />
        <EffectsRan
          onRun={() => {
            effectsRan = true;
          }}
        />
      </>,
    );
    // The banner would ask from its effect: once its sibling's effect has run, so has the banner's.
    await vi.waitFor(() => expect(effectsRan).toBe(true));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Refresh' })).toBeNull();
  });

  it('when enabled, offers Refresh once /version.json names another build', async () => {
    setRuntimeConfig({ versionCheck: true });
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ version: 'newer' }), { status: 200 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(<VersionBanner />);
    expect(await screen.findByRole('button', { name: 'Refresh' })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/version.json', { cache: 'no-store' });
  });

  it('stays hidden while the running build is the latest', async () => {
    setRuntimeConfig({ versionCheck: true });
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ version: 'test' }), { status: 200 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(<VersionBanner />);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByRole('button', { name: 'Refresh' })).toBeNull();
  });
});
