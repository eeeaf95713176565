import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { Toaster } from './components/ui/toast.tsx';
import { ErrorBoundary } from './features/errors/components/error-boundary.tsx';
import { AppRoutes } from './router.tsx';

interface AppProps {
  queryClient: QueryClient;
}

export function App({ queryClient }: AppProps) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
        <Toaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
