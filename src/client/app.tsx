import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { Toaster } from './components/ui/toast.tsx';
import { ErrorBoundary } from './features/errors/components/error-boundary.tsx';
import { AppRoutes } from './router.tsx';

interface AppProps {
  queryClient: QueryClient;
  /**
   * What provides the address: the browser's by default; the prerender (boot/prerender.tsx)
   * passes a static one.
   */
  router?: (routes: ReactNode) => ReactNode;
}

const browserRouter = (routes: ReactNode) => <BrowserRouter>{routes}</BrowserRouter>;

/**
 * The whole app, the same tree in the browser and in the prerender, so that hydration finds the
 * markup it renders (boot/README.md).
 */
export function App({ queryClient, router = browserRouter }: AppProps) {
  return (
    <StrictMode>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          {router(<AppRoutes />)}
          <Toaster />
        </QueryClientProvider>
      </ErrorBoundary>
    </StrictMode>
  );
}
