import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { messages } from '#shared/wording.ts';
import { LoadError } from './load-error.tsx';
import { Spinner } from './spinner.tsx';

interface QueryViewProps<T> {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isPending' | 'isError' | 'refetch'>;
  /** What the spinner says to a screen reader while the data is on its way. */
  loading: string;
  /** Spinner size: `block` fills the content area, `screen` the whole page (no layout shift). */
  size?: 'inline' | 'block' | 'screen';
  children: (data: T) => ReactNode;
}

/**
 * The one way a page shows server data: a spinner while it loads, the call's own message with
 * "Try again" when it failed, the data once it is here. The message is the call's (spec §8).
 */
export function QueryView<T>({ query, loading, size = 'block', children }: QueryViewProps<T>) {
  if (query.isPending)
    return <Spinner label={loading} block={size === 'block'} screen={size === 'screen'} />;
  if (query.isError)
    return (
      <LoadError
        message={query.error?.message ?? messages.somethingWentWrong}
        onRetry={() => void query.refetch()}
      />
    );
  return <>{children(query.data as T)}</>;
}
