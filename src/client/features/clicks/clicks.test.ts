// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clicksApi } from '#shared/clicks.ts';
import { storageKeys } from '#shared/constants.ts';
import { failure, stub, stubApi } from '#client/testing/render-app.tsx';
import { clickPayload, deviceType, registerClick } from './clicks.ts';

beforeEach(() => {
  sessionStorage.clear();
  window.dataLayer = [];
});
afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('click registration (spec §4)', () => {
  it('sends the landing parameters once per session and keeps the click id', async () => {
    window.history.replaceState(null, '', '/shop?a=12&c1=spring&s2=x&campaigns_id=7&id=secret');
    const api = stubApi([stub(clicksApi.clickCreate, { click_id: 'c-1' })]);
    expect(await registerClick()).toBe('c-1');
    expect(await registerClick()).toBe('c-1');
    expect(api.calls).toHaveLength(1);
    expect(sessionStorage.getItem(storageKeys.clickId)).toBe('c-1');
    expect(api.calls[0]?.body).toMatchObject({
      a: '12',
      c1: 'spring',
      s2: 'x',
      campaigns_id: '7',
      url: 'http://localhost:3000/shop?a=12&c1=spring&s2=x&campaigns_id=7',
      device_type: 'desktop',
    });
    // Anything that is not attribution (a reset token in ?id=) stays in the browser.
    expect(JSON.stringify(api.calls[0]?.body)).not.toContain('secret');
  });

  it('retries 3 times, then reports "Failed to create click" and goes on without one', async () => {
    const api = stubApi([
      stub(clicksApi.clickCreate, failure(500, 'INTERNAL', 'Something went wrong')),
    ]);
    expect(await registerClick({ retryDelayMs: 1 })).toBeNull();
    expect(api.calls).toHaveLength(4);
    await vi.waitFor(() => expect(window.dataLayer).toHaveLength(1));
    expect(window.dataLayer).toEqual([
      { event: 'exception', description: 'click: Error', fatal: false },
    ]);
  });

  it('tells phones, tablets and desktops apart', () => {
    expect(deviceType('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148', 1024)).toBe(
      'mobile',
    );
    expect(deviceType('Mozilla/5.0 (iPad; CPU OS 17_0)', 1024)).toBe('tablet');
    expect(deviceType('Mozilla/5.0 (X11; Linux x86_64) Chrome/120', 1280)).toBe('desktop');
    expect(clickPayload(window.location, document, navigator).referrer).toBeNull();
  });
});
