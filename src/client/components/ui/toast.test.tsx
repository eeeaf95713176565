// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, showToast, Toaster } from './toast.tsx';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  clearToasts();
  vi.useRealTimers();
});

describe('toasts', () => {
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
