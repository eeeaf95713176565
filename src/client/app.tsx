import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { Toaster } from './components/ui/toast.tsx';
import { ErrorBoundary } from './features/errors/components/error-boundary.tsx';
import { AppRoutes } from './router.tsx';

interface AppProps {
  queryClient: QueryClient;
  /**
   * What provides the address: the browser's by default; the server's first draw of a page
   * (server-render.tsx) passes a static one.
   */
  router?: (routes: ReactNode) => ReactNode;
}

const browserRouter = (routes: ReactNode) => <BrowserRouter>{routes}</BrowserRouter>;

export function App({ queryClient, router = browserRouter }: AppProps) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        {router(<AppRoutes />)}
        <Toaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
