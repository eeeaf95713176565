import { describe, expect, it } from 'vitest';
import type { Message, Thread } from '#shared/messages.ts';
import { earlierCursor, joinPages, joinThread } from './thread-pages.ts';

const message = (id: number): Message => ({
  id,
  thread_id: 7,
  sender: id % 2 ? 'patient' : 'care_team',
  author: id % 2 ? 'Dana' : 'Your care team',
  body: `Message ${id}`,
  created_at: `2026-11-01T10:${String(id).padStart(2, '0')}:00.000Z`,
  read: true,
});

const page = (ids: number[], nextCursor: string | null, unread = 0): Thread => ({
  id: 7,
  subject: 'Where is my parcel?',
  topic: 'order',
  visit_id: null,
  order_number: null,
  updated_at: '2026-11-01T10:59:00.000Z',
  unread,
  messages: ids.map(message),
  has_more: nextCursor !== null,
  next_cursor: nextCursor,
});

describe('a conversation read a page at a time', () => {
  it('joins the pages oldest message first, once each, with the oldest page cursor', () => {
    // Fetched newest first; a message seen on two pages (written between them) shows once.
    const joined = joinThread([page([5, 6, 7], '5', 2), page([3, 4, 5], '3'), page([1, 2], null)]);
    expect(joined?.messages.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(joined).toMatchObject({ unread: 2, has_more: false, next_cursor: null });
    expect(joinThread([])).toBeNull();
  });

  it('asks for the page before only while there is one', () => {
    expect(earlierCursor(page([3, 4], '3'))).toBe('3');
    expect(earlierCursor(page([1, 2], null))).toBeNull();
    expect(earlierCursor(null)).toBeNull();
  });

  it('keeps what comes beside the thread (the patient, the providers) from the newest page', () => {
    const joined = joinPages({
      pages: [
        { thread: page([3, 4], '3'), patient: { name: 'Dana R.' } },
        { thread: page([1, 2], null), patient: { name: 'Dana R.' } },
      ],
      pageParams: [null, '3'],
    });
    expect(joined.patient.name).toBe('Dana R.');
    expect(joined.thread.messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(joined.thread.has_more).toBe(false);
  });
});
