// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { reportError } from './error-reporting.ts';
import { setRuntimeConfig } from './runtime-config.ts';

beforeEach(() => {
  window.dataLayer = [];
  setRuntimeConfig({ sentryDsn: null });
});

describe('reporting an error to the data layer', () => {
  it('pushes what failed and how badly, scrubbed of addresses, tokens and programs', async () => {
    class PaymentError extends Error {
      override name = 'PaymentError';
    }
    reportError(
      new PaymentError('card 4242 4242 4242 4242 for jane@example.com'),
      'fatal',
      'v2 /visit/ed/checkout?email=jane@example.com',
    );
    reportError('a rejected promise', 'error');
    // The scrubber arrives with the first report.
    await vi.waitFor(() => expect(window.dataLayer).toHaveLength(2));
    expect(window.dataLayer).toEqual([
      { event: 'exception', description: 'v2 /visit/[program]: PaymentError', fatal: true },
      { event: 'exception', description: 'Error', fatal: false },
    ]);
    expect(JSON.stringify(window.dataLayer)).not.toMatch(/jane|4242|\/visit\/ed/);
  });
});
