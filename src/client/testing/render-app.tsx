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
import { Toaster } from '#client/components/ui/toast.tsx';

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

/** Stubs fetch: `/lapi/account/login/` answers with handlers['/account/login/']. */
export function stubApi(handlers: Record<string, Handler>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/lapi/, '');
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ path, body });
    const handler = handlers[path];
    if (!handler) throw new Error(`No stubbed answer for ${path}`);
    const reply = typeof handler === 'function' ? handler(body) : handler;
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const ok = (data: unknown, message = 'OK'): Reply => ({
  body: { status: 'SUCCESS', message, data },
});

export const okMessage = (message: string): Reply => ({ body: { status: 'SUCCESS', message } });

export const failure = (
  status: number,
  code: string,
  message: string,
  fields?: Record<string, string>,
): Reply => ({
  status,
  body: { status: 'FAILURE', code, message, ...(fields ? { fields } : {}) },
});

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
