import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportError } from '#client/lib/error-reporting.ts';
import { UnexpectedError } from './unexpected-error.tsx';

interface State {
  failed: boolean;
}

/** Catches a render error anywhere below it, reports it as critical and shows 'Unexpected error'. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportError(error, 'fatal', info.componentStack ? 'render' : undefined);
  }

  override render() {
    return this.state.failed ? <UnexpectedError /> : this.props.children;
  }
}
