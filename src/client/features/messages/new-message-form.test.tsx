// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '#client/lib/api.ts';
import { NewMessageForm, type NewMessage } from './components/new-message-form.tsx';

afterEach(() => cleanup());

const emergency =
  'If this is an emergency, call 911. If you are thinking about suicide or self-harm, call or text 988.';

describe('a new message to the care team', () => {
  it('asks what it is about before sending, and says who answers and when', async () => {
    const u = userEvent.setup();
    const onSend = vi.fn<(message: NewMessage) => Promise<unknown>>().mockResolvedValue(undefined);
    render(<NewMessageForm orderNumber={null} onSend={onSend} onCancel={() => undefined} />);
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: /My treatment/ }));

    const topics = screen.getByRole('group', { name: 'What is your message about?' });
    expect(
      within(topics)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['treatment', 'order', 'other']);
    expect(screen.getByRole('note', { name: 'Emergencies' }).textContent).toBe(emergency);
    expect(screen.getByText('Our care team replies within one business day.')).toBeTruthy();

    await u.type(screen.getByLabelText('Subject'), 'Melatonin and wine');
    await u.type(screen.getByLabelText('Message'), 'Can I take them together?');
    await u.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Choose what your message is about')).toBeTruthy();
    expect(onSend).not.toHaveBeenCalled();
    const treatment = within(topics).getByRole('radio', { name: /My treatment/ });
    expect(treatment.getAttribute('aria-invalid')).toBe('true');
    // The first choice takes focus, so the message is heard first.
    expect(document.activeElement).toBe(treatment);
    expect(topics.getAttribute('aria-describedby')).toBe('new-topic-error');

    await u.click(treatment);
    expect(screen.getByText('A provider usually replies within one business day.')).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Send message' }));
    expect(onSend).toHaveBeenCalledWith({
      topic: 'treatment',
      subject: 'Melatonin and wine',
      body: 'Can I take them together?',
    });
    expect(screen.queryByText('Choose what your message is about')).toBeNull();
  });

  it('starts a question about an order as "My order", and puts the server\'s message on the topic', async () => {
    const u = userEvent.setup();
    const onSend = vi.fn<(message: NewMessage) => Promise<unknown>>().mockRejectedValue(
      new ApiError(400, 'VALIDATION', 'Choose what your message is about', {
        topic: 'Choose what your message is about',
      }),
    );
    render(<NewMessageForm orderNumber="PW-1042" onSend={onSend} onCancel={() => undefined} />);
    expect(screen.getByRole('radio', { name: /My order/ })).toHaveProperty('checked', true);
    expect(screen.getByLabelText('Subject')).toHaveProperty('value', 'Order PW-1042');
    await u.type(screen.getByLabelText('Message'), 'When will it ship?');
    await u.click(screen.getByRole('button', { name: 'Send message' }));
    expect(onSend).toHaveBeenCalledWith(
      expect.objectContaining({ topic: 'order', body: 'When will it ship?' }),
    );
    expect(await screen.findByText('Choose what your message is about')).toBeTruthy();
  });
});
