import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { Toaster } from './components/ui/toast.tsx';
import { ErrorBoundary } from './features/errors/components/error-boundary.tsx';
import type { createRouter } from './router.tsx';

interface AppProps {
  queryClient: QueryClient;
  router: ReturnType<typeof createRouter>;
}

export function App({ queryClient, router }: AppProps) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
