import { useLayoutEffect } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import {
  MemoryRouter,
  useLocation,
  useNavigate,
  useRoutes,
  type Location,
  type RouteObject,
} from 'react-router';
import { expect, vi } from 'vitest';
import type * as z from 'zod/mini';
import { Toaster } from '#client/components/ui/toast.tsx';
import { isV2, methodOf, type BodyOf, type Endpoint } from '#shared/contract.ts';

/**
 * Test helpers for pages: a stubbed API answering by path, and a memory router with the query
 * client and the toaster around it. For component tests only; the app never imports this.
 */

export interface Reply {
  status?: number;
  body: unknown;
}

type Handler = Reply | ((body: unknown) => Reply);

export interface ApiCall {
  path: string;
  body: unknown;
}

/**
 * One stubbed endpoint (`stub(endpoint, reply)`): matched by the declaration's method and path
 * (its `:params` stand for any segment), answering with the envelope the declaration says.
 */
export interface Stub {
  readonly endpoint: Endpoint;
  readonly pattern: RegExp;
  readonly handler: Handler;
}

/** What a stubbed call answers: the declared data (as the server sends it), or a failure. */
type StubData<E extends Endpoint> = E extends { response: infer S extends z.core.$ZodType }
  ? z.input<S>
  : { message?: string };
type StubReply<E extends Endpoint> = StubData<E> | Failure;

/**
 * A stubbed answer of `endpoint`, the envelope built from its declaration as the server builds it:
 * `reply` is the data (typed by the response schema), a function of the request's body to it, or
 * `failure(…)`. `message` is a v1 answer's message where the handler words one at run time (the
 * declared `message`, or 'OK', otherwise).
 */
export function stub<E extends Endpoint>(
  endpoint: E,
  reply: StubReply<E> | ((body: BodyOf<E>) => StubReply<E>),
  { message }: { message?: string } = {},
): Stub {
  const answer = (value: StubReply<E>): Reply =>
    value instanceof Failure ? value : { body: envelopeOf(endpoint, value, message) };
  const source = endpoint.path
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/:[a-zA-Z]+/g, '[^/]+');
  return {
    endpoint,
    pattern: new RegExp(`^${source}$`),
    handler:
      typeof reply === 'function'
        ? (body) => answer((reply as (body: BodyOf<E>) => StubReply<E>)(body as BodyOf<E>))
        : answer(reply),
  };
}

function envelopeOf(endpoint: Endpoint, data: unknown, message: string | undefined): unknown {
  if (isV2(endpoint)) return { data };
  const text = message ?? endpoint.message ?? 'OK';
  if (!endpoint.response)
    return { status: 'SUCCESS', message: (data as { message?: string }).message ?? text };
  if (endpoint.envelope === 'message') return { status: 'SUCCESS', message: data };
  if (endpoint.envelope === 'flat') return { status: 'SUCCESS', ...(data as object) };
  return { status: 'SUCCESS', message: text, data };
}

/**
 * Stubs fetch. Given stubs (`stub(endpoint, reply)`), a request is answered by the last one whose
 * method and path match; given a record (the wire-level tests), `/lapi/account/login/` answers
 * with handlers['/account/login/'].
 */
export function stubApi(handlers: Record<string, Handler> | readonly Stub[]) {
  const calls: ApiCall[] = [];
  const stubs = Array.isArray(handlers) ? (handlers as readonly Stub[]) : undefined;
  const record = stubs ? undefined : (handlers as Record<string, Handler>);
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/lapi/, '');
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ path, body });
    const handler = stubs
      ? stubs.findLast((s) => methodOf(s.endpoint) === method && s.pattern.test(path))?.handler
      : record?.[path];
    if (!handler) throw new Error(`No stubbed answer for ${method} ${path}`);
    const reply = typeof handler === 'function' ? handler(body) : handler;
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  /** The bodies of the calls made to `endpoint`, oldest first. */
  const callsTo = (endpoint: Endpoint): unknown[] => {
    const pattern = stub(endpoint, {} as never).pattern;
    return calls.filter((c) => pattern.test(c.path)).map((c) => c.body);
  };
  return { calls, callsTo, fetchMock };
}

/** A failed answer, as the server's error handler writes it. */
export class Failure implements Reply {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, code: string, message: string, fields?: Record<string, string>) {
    this.status = status;
    this.body = { status: 'FAILURE', code, message, ...(fields ? { fields } : {}) };
  }
}

export const failure = (
  status: number,
  code: string,
  message: string,
  fields?: Record<string, string>,
): Failure => new Failure(status, code, message, fields);

/** Shows where the router is, for asserting redirects. */
export function LocationProbe() {
  const location = useLocation();
  return (
    <p data-testid="location">
      {location.pathname}
      {location.search}
      {location.hash}
    </p>
  );
}

export function testQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

/** Where a test's memory router is, and a way to move it (to follow redirects). */
export interface TestRouter {
  location: () => Location;
  navigate: (to: string) => void;
}

function RouteTable({
  routes,
  onRender,
}: {
  routes: RouteObject[];
  onRender: (location: Location, navigate: (to: string) => void) => void;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => onRender(location, (to) => void navigate(to)));
  return useRoutes(routes);
}

export function renderRoutes(
  routes: RouteObject[],
  {
    path = '/',
    queryClient = testQueryClient(),
  }: { path?: string; queryClient?: QueryClient } = {},
) {
  let current: { location: Location; navigate: (to: string) => void } | undefined;
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <RouteTable
          routes={routes}
          onRender={(location, navigate) => {
            current = { location, navigate };
          }}
        />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  const router: TestRouter = {
    location: () => {
      if (!current) throw new Error('The router has not rendered yet.');
      return current.location;
    },
    navigate: (to) => {
      if (!current) throw new Error('The router has not rendered yet.');
      current.navigate(to);
    },
  };
  return { ...result, router, queryClient };
}

/**
 * A dialog has closed and given the page back. Radix hides the rest of the page from assistive
 * technology while a dialog is open, and Preact runs the clean-up that lifts it a frame after the
 * dialog goes: until then the page's own roles cannot be found.
 */
export async function waitForDialogToClose(): Promise<void> {
  await waitFor(() => {
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelector('[data-aria-hidden]')).toBeNull();
  });
}

/**
 * A dialog has opened and settled: Radix moves the focus into it from an effect, which Preact runs
 * a frame after the dialog appears; until then a click inside may land before the dialog is ready.
 */
export async function waitForDialogToOpen(dialog: HTMLElement): Promise<void> {
  await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
}
