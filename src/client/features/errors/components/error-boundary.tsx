import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportError } from '#client/lib/error-reporting.ts';
import { UnexpectedError } from './unexpected-error.tsx';

interface Props {
  children: ReactNode;
  /** When it changes (the page's path), a screen that failed is tried again. */
  resetKey?: string;
}

interface State {
  failed: boolean;
}

/**
 * Catches a render error anywhere below it (a page's code that failed to download too), reports it
 * as critical and shows 'Unexpected error'.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportError(error, 'fatal', info.componentStack ? 'render' : undefined);
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey)
      this.setState({ failed: false });
  }

  override render() {
    return this.state.failed ? <UnexpectedError /> : this.props.children;
  }
}
