import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { authApi } from '#shared/auth.ts';
import { cartApi } from '#shared/cart.ts';
import { catalogApi } from '#shared/catalog.ts';
import { operationsApi } from '#shared/operations.ts';
import type { ErrorReporter } from '#server/adapters/error-reporter.ts';
import { registerErrorHandling } from '#server/plugins/errors.ts';
import { createBodyCache } from './body-cache.ts';
import { AppError } from './errors.ts';
import { route } from './route.ts';
import { fastSerializerCompiler } from './serializer.ts';

/**
 * What `route()` may keep is decided when a call is registered: an answer kept for everyone only
 * for a public call without a body, a customer's own only for a `patient` call (decision 019).
 */
describe('what route() may keep', () => {
  const cache = () => createBodyCache({ max: 1, ttlMs: 1000 });
  const shared = () => ({ cache: cache(), cacheControl: 'no-cache', version: () => 1 });
  const own = () => ({ cache: cache(), key: async () => 'a key' });
  const register = (register: (app: ReturnType<typeof Fastify>) => void) => () =>
    register(Fastify());

  it("refuses to keep a customer's answer, or a call with a body, for everyone", () => {
    expect(
      register((app) =>
        route(app, cartApi.cart, { summary: 'cart', tag: 'cart', shared: shared() }, async () => {
          throw new Error('not called');
        }),
      ),
    ).toThrow('only a public call without a body can share its answer');
    expect(
      register((app) =>
        route(
          app,
          authApi.login,
          { summary: 'log in', tag: 'auth', shared: shared() },
          async () => {
            throw new Error('not called');
          },
        ),
      ),
    ).toThrow('only a public call without a body can share its answer');
  });

  it("keeps a customer's own answer only for a call checked against the customer's leads_id", () => {
    for (const endpoint of [cartApi.cart, catalogApi.products])
      expect(
        register((app) =>
          route(app, endpoint, { summary: 'x', tag: 'x', own: own() }, async () => {
            throw new Error('not called');
          }),
        ),
      ).toThrow("only a customer's own call can keep its answer");
  });
});

/**
 * `route()` writes its audit entry after the handler, outside any transaction of the handler's: it
 * may only describe a staff view (declared `view: true`). A change audits in its own transaction.
 */
describe('what route() may audit', () => {
  const notCalled = async () => {
    throw new Error('not called');
  };

  it('refuses to audit a staff change, or a call that is not the staff console', () => {
    expect(() =>
      route(
        Fastify(),
        operationsApi.ship,
        { summary: 'ship', tag: 'operations', audit: () => ({ subjectType: 'order' }) },
        notCalled,
      ),
    ).toThrow('route() audits only a staff view');
    expect(() =>
      route(
        Fastify(),
        cartApi.cart,
        { summary: 'cart', tag: 'cart', audit: () => ({ subjectType: 'cart' }) },
        notCalled,
      ),
    ).toThrow('route() audits only a staff view');
  });

  it('audits a staff view', () => {
    expect(() =>
      route(
        Fastify(),
        operationsApi.orders,
        { summary: 'orders', tag: 'operations', audit: () => ({ subjectType: 'order_list' }) },
        notCalled,
      ),
    ).not.toThrow();
  });
});

/**
 * An endpoint answers only the error codes it declares (with those of its access and of any call).
 * The API reference lists them per status; under NODE_ENV=test, where every answer is checked
 * against its schema before it is written, a code the declaration leaves out fails the call, so
 * the test that reached it fails instead of the contract drifting quietly.
 */
describe('the error codes route() answers', () => {
  async function couponAppThrowing(error: AppError, checkAnswers: boolean) {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(fastSerializerCompiler(checkAnswers));
    // The app's context as far as route() reads it: which environment this is.
    app.decorate('ctx', { env: { NODE_ENV: checkAnswers ? 'test' : 'production' } } as never);
    const reports: unknown[] = [];
    const reporter: ErrorReporter = { report: (reported) => void reports.push(reported) };
    registerErrorHandling(app, reporter);
    route(app, cartApi.couponCode, { summary: 'coupon', tag: 'cart' }, async () => {
      throw error;
    });
    await app.ready();
    const response = await app.inject({
      method: 'POST',
      url: cartApi.couponCode.path,
      payload: { code: 'WELCOME10' },
    });
    await app.close();
    return { response, reports };
  }

  it('answers a declared code as it is, in tests and in production alike', async () => {
    for (const check of [true, false]) {
      const { response } = await couponAppThrowing(
        new AppError('COUPON_REFUSED', 'This coupon has expired.'),
        check,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'COUPON_REFUSED' });
    }
  });

  it('under tests, fails the call that answers a code its endpoint does not declare', async () => {
    const undeclared = new AppError('VISIT_BUSY', 'Someone else is editing this visit.');
    const { response, reports } = await couponAppThrowing(undeclared, true);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'INTERNAL' });
    expect(String(reports[0])).toContain(
      `${cartApi.couponCode.path} answered VISIT_BUSY, which its declaration does not list`,
    );
    // In production the answer is still written (the reference is what was wrong).
    const production = await couponAppThrowing(undeclared, false);
    expect(production.response.json()).toMatchObject({ code: 'VISIT_BUSY' });
  });

  it('lists the codes of each status in the API reference', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(fastSerializerCompiler(true));
    await app.register(swagger, { openapi: {}, transform: jsonSchemaTransform });
    route(app, cartApi.couponCode, { summary: 'coupon', tag: 'cart' }, async () => {
      throw new Error('not called');
    });
    await app.ready();
    const document = app.swagger() as {
      paths: Record<string, { post: { responses: Record<string, unknown> } }>;
    };
    const responses = document.paths[cartApi.couponCode.path]?.post.responses ?? {};
    const refused = JSON.stringify(responses['400']);
    expect(refused).toContain('`code` is one of COUPON_REFUSED, VALIDATION');
    expect(JSON.stringify(responses)).not.toContain('VISIT_BUSY');
    await app.close();
  });
});
