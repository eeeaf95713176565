// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, showToast, Toaster } from './toast.tsx';

beforeAll(async () => {
  // The toast list is downloaded with the first toast: load it once, then time with a fake clock.
  render(<Toaster />);
  act(() => showToast({ title: 'Loading' }));
  expect(await screen.findByText('Loading')).toBeTruthy();
  cleanup();
  clearToasts();
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  clearToasts();
  vi.useRealTimers();
});

describe('toasts', () => {
  it('draw nothing, and need none of their code, before the first one', () => {
    const { container } = render(<Toaster />);
    expect(container.innerHTML).toBe('');
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('show in a labelled region reachable with F8, and close by themselves after 5000 ms', () => {
    render(<Toaster />);
    act(() =>
      showToast({
        kind: 'success',
        title: 'Account update',
        description: 'Account updated successfully',
      }),
    );
    expect(screen.getByText('Account update')).toBeTruthy();
    expect(screen.getByText('Account updated successfully')).toBeTruthy();
    expect(screen.getByRole('region').getAttribute('aria-label')).toContain('F8');
    act(() => vi.advanceTimersByTime(4900));
    expect(screen.queryByText('Account update')).not.toBeNull();
    act(() => vi.advanceTimersByTime(400));
    expect(screen.queryByText('Account update')).toBeNull();
  });

  it('queue 500 ms apart when several arrive at once', () => {
    render(<Toaster />);
    act(() => {
      showToast({ title: 'First' });
      showToast({ title: 'Second' });
    });
    expect(screen.queryByText('First')).not.toBeNull();
    expect(screen.queryByText('Second')).toBeNull();
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByText('Second')).not.toBeNull();
  });
});
