// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setRuntimeConfig } from '#client/lib/runtime-config.ts';
import { ErrorBoundary } from './components/error-boundary.tsx';
import { FeatureGate } from './components/feature-gate.tsx';

function Broken(): never {
  throw new Error('render failed');
}

afterEach(() => {
  cleanup();
  window.dataLayer = [];
});

describe('the error boundary', () => {
  it("shows 'Unexpected error' with the support email and 'Refresh page', and reports it as critical", async () => {
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Unexpected error' })).toBeTruthy();
    expect(screen.getByText(/Our team has been notified/)).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'support@pairwell.example' }).getAttribute('href'),
    ).toBe('mailto:support@pairwell.example');
    expect(screen.getByRole('button', { name: 'Refresh page' })).toBeTruthy();
    await vi.waitFor(() =>
      expect(window.dataLayer).toContainEqual(
        expect.objectContaining({ event: 'exception', fatal: true }),
      ),
    );
  });

  it('renders its children when nothing fails', () => {
    render(
      <ErrorBoundary>
        <p>All good</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText('All good')).toBeTruthy();
  });
});

describe('feature flags', () => {
  function renderGated(enabled: boolean) {
    setRuntimeConfig({ features: { login: true, onlineVisit: enabled } });
    render(
      <MemoryRouter>
        <FeatureGate feature="onlineVisit">
          <p>Visit screen</p>
        </FeatureGate>
      </MemoryRouter>,
    );
  }

  it('a disabled feature shows the no-access page naming it, with a link home', () => {
    renderGated(false);
    expect(
      screen.getByRole('heading', { name: "You don't have access to Online visit" }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe(
      '/',
    );
    expect(screen.queryByText('Visit screen')).toBeNull();
  });

  it('an enabled feature shows its screen', () => {
    renderGated(true);
    expect(screen.getByText('Visit screen')).toBeTruthy();
  });
});
