import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { authApi } from '#shared/auth.ts';
import { cartApi } from '#shared/cart.ts';
import { catalogApi } from '#shared/catalog.ts';
import { operationsApi } from '#shared/operations.ts';
import { createBodyCache } from './body-cache.ts';
import { route } from './route.ts';

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
