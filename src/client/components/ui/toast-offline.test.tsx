// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, showToast, Toaster } from './toast.tsx';

// The connection dropped: the toast list's own code cannot be downloaded.
vi.mock('./toast-list.tsx', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

afterEach(() => {
  cleanup();
  clearToasts();
});

describe('toasts without their code', () => {
  it('still show, as a status the customer can dismiss', async () => {
    const u = userEvent.setup();
    render(<Toaster />);
    act(() =>
      showToast({ kind: 'error', title: 'Something went wrong.', description: 'Try again.' }),
    );
    const toast = await screen.findByRole('status');
    expect(toast.textContent).toContain('Something went wrong.');
    expect(toast.textContent).toContain('Try again.');
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
