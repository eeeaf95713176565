// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '#shared/messages.ts';
import { ApiError } from '#client/lib/api.ts';
import { MessageList, ReplyForm } from './components/message-thread.tsx';

const message = (overrides: Partial<Message>): Message => ({
  id: 1,
  thread_id: 9,
  sender: 'care_team',
  author: 'Dr. Maya Chen, MD',
  body: 'Hello',
  created_at: '2026-05-04T16:20:00.000Z',
  read: false,
  ...overrides,
});

afterEach(() => cleanup());

describe('a message thread', () => {
  it('lists the messages oldest first in a log, each with its author', () => {
    render(
      <MessageList
        me="patient"
        label="Your visit"
        messages={[
          message({ id: 1, body: 'Take one an hour before.' }),
          message({ id: 2, sender: 'patient', author: 'Jordan', body: 'Thank you.' }),
        ]}
      />,
    );
    const log = screen.getByRole('log', { name: 'Your visit' });
    const items = within(log).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Take one an hour before.'),
      expect.stringContaining('Thank you.'),
    ]);
    expect(within(items[0]!).getByText('Dr. Maya Chen, MD')).toBeTruthy();
  });

  it('says so when there are no messages', () => {
    render(<MessageList me="patient" label="Empty" messages={[]} />);
    expect(screen.getByText('No messages yet.')).toBeTruthy();
  });

  it("sends a reply, clears the box, and puts the server's field message on the field", async () => {
    const u = userEvent.setup();
    const onSend = vi
      .fn<(body: string) => Promise<unknown>>()
      .mockResolvedValueOnce(undefined)
      .mockRejectedValueOnce(
        new ApiError(400, 'VALIDATION', 'Check the form', {
          body: 'Messages can be up to 4,000 characters',
        }),
      );
    render(<ReplyForm label="Your reply" submitLabel="Send reply" onSend={onSend} />);
    await u.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Write a message')).toBeTruthy();
    expect(onSend).not.toHaveBeenCalled();
    await u.type(screen.getByLabelText('Your reply'), 'See you soon');
    await u.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(onSend).toHaveBeenCalledWith('See you soon');
    await vi.waitFor(() => expect(screen.getByLabelText('Your reply')).toHaveProperty('value', ''));
    await u.type(screen.getByLabelText('Your reply'), 'Again');
    await u.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Messages can be up to 4,000 characters')).toBeTruthy();
    expect(screen.getByLabelText('Your reply').getAttribute('aria-invalid')).toBe('true');
  });
});
