import { describe, expect, it } from 'vitest';
import { urlOf } from '#test/contract.ts';
import { authApi } from './auth.ts';
import {
  programWords,
  releaseName,
  scrubBreadcrumb,
  scrubEvent,
  scrubText,
  scrubUrl,
  scrubValue,
} from './error-reports.ts';
import { programCategories, visitsApi } from './visits.ts';

// The shape of a real reset token: 32 random bytes in base64url.
const resetToken = 'q3Zt8vX0bN-7kPw_2YhR5sLmC9aJdE4fG1iUoT6nBxA';

describe('scrubbing error reports', () => {
  it('knows the same program words as the telehealth programs', () => {
    expect([...programWords]).toEqual([...programCategories]);
  });

  describe('URLs', () => {
    it('drop query strings, fragments and user info, keeping origin and path', () => {
      expect(scrubUrl(`https://pairwell.example/reset-password?id=${resetToken}`)).toBe(
        'https://pairwell.example/reset-password',
      );
      expect(scrubUrl('/login?next=%2Forders#top')).toBe('/login');
      expect(scrubUrl('https://user:secret@pairwell.example/orders')).toBe(
        'https://pairwell.example/orders',
      );
      expect(scrubUrl('/faq#shipping')).toBe('/faq');
    });

    it('replace tokens, email addresses and card numbers in the path', () => {
      expect(scrubUrl(`/lapi/unlock/${resetToken}`)).toBe('/lapi/unlock/[token]');
      expect(scrubUrl('/lapi/lookup/jane.doe%40example.com')).toBe('/lapi/lookup/[email]');
      expect(scrubUrl('/pay/4242-4242-4242-4242')).toBe('/pay/[card]');
      expect(scrubUrl(urlOf(visitsApi.photoId, { id: '9f86d081884c7d659a2feaa0c55ad015' }))).toBe(
        '/lapi/uploads/[token]',
      );
    });

    it('turn a program page and everything below it into /visit/[program]', () => {
      for (const program of programWords) {
        expect(scrubUrl(`/visit/${program}`)).toBe('/visit/[program]');
        expect(scrubUrl(`https://pairwell.example/visit/${program}/not-a-fit?x=1`)).toBe(
          'https://pairwell.example/visit/[program]',
        );
      }
    });

    it('keep plain paths and the public hashed files as they are', () => {
      expect(scrubUrl('/shop/sleep-gummies')).toBe('/shop/sleep-gummies');
      expect(scrubUrl('/staff/visits/42')).toBe('/staff/visits/42');
      expect(scrubUrl('/visit/:category/questions')).toBe('/visit/:category/questions');
      expect(scrubUrl('http://127.0.0.1:3000/assets/visit-layout-Dk3f9sl2aBc7.js')).toBe(
        'http://127.0.0.1:3000/assets/visit-layout-Dk3f9sl2aBc7.js',
      );
    });
  });

  describe('text', () => {
    it('replaces email addresses', () => {
      expect(
        scrubText(
          "Can't send mail - all recipients were rejected: 550 5.1.1 <Jane.Doe+x@mail.example.co.uk>: Recipient address rejected",
        ),
      ).toBe(
        "Can't send mail - all recipients were rejected: 550 5.1.1 <[email]>: Recipient address rejected",
      );
    });

    it('replaces card-like digit runs of 12 to 19 digits, with or without spaces and dashes', () => {
      expect(scrubText('card 4242 4242 4242 4242 declined')).toBe('card [card] declined');
      expect(scrubText('card 4000-0000-0000-0002.')).toBe('card [card].');
      expect(scrubText('pan=378282246310005')).toBe('pan=[card]');
      expect(scrubText('4000000000000000341')).toBe('[card]');
      // Shorter numbers (ids, amounts, phone numbers, dates) stay.
      expect(scrubText('order 12345 of 2,499 cents on 2025-01-31, call 555 123 4567')).toBe(
        'order 12345 of 2,499 cents on 2025-01-31, call 555 123 4567',
      );
    });

    it('replaces long random-looking strings but keeps words, codes and request ids', () => {
      expect(scrubText(`invalid token ${resetToken}`)).toBe('invalid token [token]');
      expect(scrubText('leads id L0a1b2c3d4e5f6a7b8c')).toBe('leads id [token]');
      // A token that drew no digit (a CI run met this one).
      expect(scrubText('(token CxgcgJZchZAj_XbhsAuJdrzTN-oXjvxHVIhUYTNPbDk)')).toBe(
        '(token [token])',
      );
      expect(scrubText('ResizeObserverLoopCompletedWithUndeliveredNotifications')).toBe(
        'ResizeObserverLoopCompletedWithUndeliveredNotifications',
      );
      expect(scrubText('HTMLInputElementPrototypeValueSetter')).toBe(
        'HTMLInputElementPrototypeValueSetter',
      );
      expect(
        scrubText("Cannot read properties of undefined (reading 'useSyncExternalStore')"),
      ).toBe("Cannot read properties of undefined (reading 'useSyncExternalStore')");
      expect(scrubText('ERR_HTTP2_STREAM_CANCEL')).toBe('ERR_HTTP2_STREAM_CANCEL');
      const requestId = '3b241101-e2bb-4255-8caf-4136c566a962';
      expect(scrubText(`request ${requestId}`)).toBe(`request ${requestId}`);
      // Digit groups inside a request id are not a card number, whatever the id's digits.
      for (const id of [
        '3421e83d-c2c5-4136-9510-092d890932d8',
        '12345678-1234-4123-8123-123456789012',
      ])
        expect(scrubValue({ requestId: id })).toEqual({ requestId: id });
      expect(scrubText('card 4242 4242 4242 4242 in 3b241101-e2bb-4255-8caf-4136c566a962')).toBe(
        'card [card] in 3b241101-e2bb-4255-8caf-4136c566a962',
      );
    });

    it('cuts very long text at a space before scrubbing it', () => {
      const long = `${'word '.repeat(799)}jane.doe@example.com ${'x'.repeat(50)}`;
      const scrubbed = scrubText(long);
      expect(scrubbed.length).toBeLessThanOrEqual(4001);
      expect(scrubbed).not.toContain('jane');
      expect(scrubbed.endsWith('…')).toBe(true);
      // Punctuation runs cannot make the rules slow: the text is bounded first.
      expect(scrubText(`/visit/${'.'.repeat(200_000)}`).length).toBeLessThanOrEqual(4001);
    });

    it('scrubs URLs and paths inside text, query strings included', () => {
      expect(
        scrubText(`Failed to load https://pairwell.example/reset-password?id=${resetToken} (404)`),
      ).toBe('Failed to load https://pairwell.example/reset-password (404)');
      expect(scrubText(`GET /reset-password?id=${resetToken} failed`)).toBe(
        'GET /reset-password failed',
      );
      expect(scrubText(`(see /login?next=/orders#x). Then /faq?q=a:b, done`)).toBe(
        '(see /login). Then /faq, done',
      );
      expect(scrubText('no questions at /visit/ed/questions today')).toBe(
        'no questions at /visit/[program] today',
      );
    });
  });

  describe('values', () => {
    it('redact fields named for secrets and contact details', () => {
      expect(
        scrubValue({
          password: 'hunter22',
          token: 'short',
          email: 'someone',
          phone: '5551234567',
          ccnum: '4242',
          nested: { Authorization: 'Bearer x' },
          count: 3,
        }),
      ).toEqual({
        password: '[redacted]',
        token: '[redacted]',
        email: '[redacted]',
        phone: '[redacted]',
        ccnum: '[redacted]',
        nested: { Authorization: '[redacted]' },
        count: 3,
      });
    });

    it('turn program words and category fields into [program]', () => {
      expect(
        scrubValue({ context: 'ED', category: 'sleeping', list: ['hair', 'shop'], n: null }),
      ).toEqual({
        context: '[program]',
        category: '[program]',
        list: ['[program]', 'shop'],
        n: null,
      });
    });

    it('scrub URLs by their key or their shape, and text otherwise', () => {
      expect(
        scrubValue({
          from: `/reset-password?id=${resetToken}`,
          to: '/visit/hair',
          route: '/visit/sleep/questions',
          note: 'sent to jane@example.com',
        }),
      ).toEqual({
        from: '/reset-password',
        to: '/visit/[program]',
        route: '/visit/[program]',
        note: 'sent to [email]',
      });
    });

    it('stop at a fixed depth', () => {
      let deep: unknown = 'jane@example.com';
      for (let i = 0; i < 10; i++) deep = { inner: deep };
      expect(JSON.stringify(scrubValue(deep))).not.toContain('jane@example.com');
    });
  });

  describe('breadcrumbs', () => {
    it('drop clicks and inputs', () => {
      expect(scrubBreadcrumb({ category: 'ui.click', message: 'button#pay' })).toBeNull();
      expect(scrubBreadcrumb({ category: 'ui.input', message: 'input[name=ccnum]' })).toBeNull();
    });

    it('scrub navigation, fetch and console breadcrumbs', () => {
      expect(
        scrubBreadcrumb({
          category: 'navigation',
          data: { from: `/reset-password?id=${resetToken}`, to: '/visit/ed/eligibility' },
        }),
      ).toEqual({
        category: 'navigation',
        data: { from: '/reset-password', to: '/visit/[program]' },
      });
      expect(
        scrubBreadcrumb({
          category: 'fetch',
          data: {
            method: 'GET',
            url: `${urlOf(authApi.reset)}?email=jane%40example.com`,
            status_code: 400,
          },
        }),
      ).toEqual({
        category: 'fetch',
        data: { method: 'GET', url: urlOf(authApi.reset), status_code: 400 },
      });
      expect(
        scrubBreadcrumb({
          category: 'console',
          message: 'typed 4242 4242 4242 4242 for jane@example.com',
          data: { arguments: ['typed', '4242424242424242'], logger: 'console' },
        }),
      ).toEqual({
        category: 'console',
        message: 'typed [card] for [email]',
        data: { arguments: ['typed', '[card]'], logger: 'console' },
      });
    });
  });

  describe('events', () => {
    it('scrub every part that can carry a secret and keep the rest', () => {
      const event = {
        event_id: 'abc',
        release: releaseName('0.1.0+x'),
        level: 'error',
        message: 'failed for jane@example.com',
        logentry: { message: 'card %s', params: ['4242424242424242'] },
        exception: {
          values: [
            {
              type: 'Error',
              value: `reset ${resetToken} for jane@example.com with 4242 4242 4242 4242 at /visit/ed`,
              stacktrace: {
                frames: [
                  {
                    filename: `http://127.0.0.1/reset-password?id=${resetToken}`,
                    abs_path: 'http://127.0.0.1/visit/hair',
                    function: 'submit',
                    lineno: 3,
                    vars: { email: 'jane@example.com' },
                  },
                ],
              },
            },
          ],
        },
        request: {
          url: `http://127.0.0.1/reset-password?id=${resetToken}`,
          method: 'POST',
          query_string: `id=${resetToken}`,
          data: { email: 'jane@example.com' },
          cookies: { session: 'x' },
          headers: { 'User-Agent': 'Chrome', Referer: '/visit/ed', Cookie: 'session=x' },
        },
        breadcrumbs: [
          { category: 'ui.input', message: 'input' },
          { category: 'navigation', data: { from: '/visit/sleep', to: '/cart' } },
        ],
        tags: { context: 'visit', program: 'ed' },
        extra: { requestId: 'a1b2c3d4-e5f6-4a1b-8c2d-3e4f5a6b7c8d', email: 'jane@example.com' },
        transaction: '/visit/ed/questions',
        spans: [{ description: 'GET /visit/ed?x=1', data: { url: '/visit/sleep' } }],
        user: { email: 'jane@example.com', ip_address: '1.2.3.4' },
        contexts: { trace: { trace_id: '0123456789abcdef0123456789abcdef' } },
      };
      const scrubbed = scrubEvent(event);
      expect(scrubbed).toEqual({
        event_id: 'abc',
        release: 'pairwell@0.1.0+x',
        level: 'error',
        message: 'failed for [email]',
        logentry: { message: 'card %s', params: ['[card]'] },
        exception: {
          values: [
            {
              type: 'Error',
              value: 'reset [token] for [email] with [card] at /visit/[program]',
              stacktrace: {
                frames: [
                  {
                    filename: 'http://127.0.0.1/reset-password',
                    abs_path: 'http://127.0.0.1/visit/[program]',
                    function: 'submit',
                    lineno: 3,
                  },
                ],
              },
            },
          ],
        },
        request: {
          url: 'http://127.0.0.1/reset-password',
          method: 'POST',
          headers: { 'User-Agent': 'Chrome' },
        },
        breadcrumbs: [{ category: 'navigation', data: { from: '/visit/[program]', to: '/cart' } }],
        tags: { context: 'visit', program: '[program]' },
        extra: { requestId: 'a1b2c3d4-e5f6-4a1b-8c2d-3e4f5a6b7c8d', email: '[redacted]' },
        transaction: '/visit/[program]',
        spans: [{ description: 'GET /visit/[program]', data: { url: '/visit/[program]' } }],
        // The trace context is Sentry's own and must stay intact.
        contexts: { trace: { trace_id: '0123456789abcdef0123456789abcdef' } },
      });
      // The event given is left as it was.
      expect(event.request.query_string).toContain(resetToken);
    });
  });
});
