import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isClinical, topicLabels, type Thread } from '#shared/messages.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import {
  AccountHeader,
  useMemberData,
} from '#client/features/accounts/components/account-layout.tsx';
import { paths } from '#shared/paths.ts';
import {
  MessageList,
  ReplyForm,
  messageTime,
  newestId,
  useScrollToEnd,
} from '../components/message-thread.tsx';
import { ReplyNotice } from '../components/care-notices.tsx';
import { NewMessageForm } from '../components/new-message-form.tsx';
import {
  markThreadRead,
  refreshThreads,
  sendMessage,
  useNewMessagesPoll,
  useThreadPages,
  useThreads,
} from '../messages.api.ts';
import { earlierOf } from '../thread-pages.ts';
import { BackChevron } from '#client/components/ui/back-chevron.tsx';

const cardClass =
  'rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-6';

/**
 * /messages: the patient's conversations with their care team. New messages appear without a
 * reload (polled every 15 s while the page is visible); opening a conversation marks it read.
 */
export function MessagesPage() {
  const { leadsId } = useMemberData();
  const threads = useThreads(leadsId);
  useNewMessagesPoll(leadsId);
  const [params, setParams] = useSearchParams();
  // From an order's "Ask about this order": a new message about that order.
  const aboutOrder = params.get('order');
  const [composing, setComposing] = useState(aboutOrder !== null);
  const selectedId = Number(params.get('thread'));

  const open = (id: number | null) => {
    setComposing(false);
    setParams(id === null ? {} : { thread: String(id) });
  };

  return (
    <>
      <AccountHeader title="Messages" subtitle="Write to your care team and read their replies." />
      <QueryView query={threads} loading="Loading your messages…">
        {({ threads: list }) => {
          const selected = list.find((thread) => thread.id === selectedId) ?? null;
          return (
            <div className="grid gap-5 lg:grid-cols-[20rem_minmax(0,1fr)] lg:items-start">
              <section
                aria-labelledby="conversations-title"
                className={`${cardClass} ${selected || composing ? 'hidden lg:block' : ''}`}
              >
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <h2 id="conversations-title" className="text-xl text-ink">
                    Conversations
                  </h2>
                  <button
                    type="button"
                    className={buttonClass('secondary')}
                    onClick={() => {
                      setParams({});
                      setComposing(true);
                    }}
                  >
                    New message
                  </button>
                </div>
                {list.length === 0 ? (
                  <p className="mt-4 text-[0.9375rem] text-ink-soft">
                    You have no messages yet. Your care team writes here about your visits, and you
                    can write to them any time.
                  </p>
                ) : (
                  <ul className="mt-4 divide-y divide-line">
                    {list.map((thread) => (
                      <li key={thread.id}>
                        <button
                          type="button"
                          aria-current={thread.id === selected?.id ? 'true' : undefined}
                          onClick={() => open(thread.id)}
                          className={`flex min-h-11 w-full items-start justify-between gap-3 rounded-xl px-2 py-3 text-left hover:bg-accent-50 ${
                            thread.id === selected?.id ? 'bg-accent-50' : ''
                          }`}
                        >
                          <span className="min-w-0">
                            <span
                              className={`block truncate text-ink ${thread.unread > 0 ? 'font-semibold' : ''}`}
                            >
                              {thread.subject}
                            </span>
                            <span className="block text-sm text-muted">
                              <time dateTime={thread.updated_at}>
                                {messageTime(thread.updated_at)}
                              </time>
                            </span>
                          </span>
                          {thread.unread > 0 ? (
                            <span className="shrink-0 rounded-full bg-accent-700 px-2 py-0.5 text-sm font-semibold text-white">
                              {thread.unread}
                              <span className="sr-only"> unread</span>
                            </span>
                          ) : null}
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              {composing ? (
                <NewConversation
                  leadsId={leadsId}
                  orderNumber={aboutOrder}
                  onCancel={() => setComposing(false)}
                  onSent={(threadId) => open(threadId)}
                />
              ) : selected ? (
                <ThreadView
                  key={selected.id}
                  leadsId={leadsId}
                  thread={selected}
                  listUpdatedAt={threads.dataUpdatedAt}
                  onBack={() => open(null)}
                />
              ) : list.length > 0 ? (
                <p className="hidden text-ink-soft lg:block">Choose a conversation to read it.</p>
              ) : null}
            </div>
          );
        }}
      </QueryView>
    </>
  );
}

function BackButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="-mt-2 mb-2 inline-flex min-h-11 items-center gap-1.5 font-semibold text-accent-800 underline-offset-4 hover:underline lg:hidden"
    >
      <BackChevron />
      All conversations
    </button>
  );
}

function ThreadView({
  leadsId,
  thread: newestPage,
  listUpdatedAt,
  onBack,
}: {
  leadsId: string;
  thread: Thread;
  listUpdatedAt: number;
  onBack: () => void;
}) {
  const queryClient = useQueryClient();
  const pages = useThreadPages(leadsId, newestPage, listUpdatedAt);
  const thread = pages.thread ?? newestPage;
  const scroller = useScrollToEnd(newestId(thread.messages));
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [thread.id]);
  // Opening a conversation (or a new message arriving in it) marks it read.
  useEffect(() => {
    if (thread.unread === 0) return;
    markThreadRead(leadsId, thread.id)
      .then(() => refreshThreads(queryClient, leadsId))
      .catch(() => undefined);
  }, [leadsId, thread.id, thread.unread, queryClient]);
  return (
    <section aria-labelledby="thread-title" className={cardClass}>
      <BackButton onClick={onBack} />
      <h2 id="thread-title" ref={heading} tabIndex={-1} className="text-xl text-ink outline-none">
        {thread.subject}
      </h2>
      {thread.visit_id === null ? (
        <p className="mt-1 text-sm text-ink-soft">
          {topicLabels[thread.topic]}
          {thread.order_number ? (
            <>
              {' · About '}
              <Link to={`${paths.orders}#${thread.order_number}`} className={textLinkClass}>
                order {thread.order_number}
              </Link>
            </>
          ) : null}
        </p>
      ) : null}
      {/* Focusable: a keyboard scrolls a long conversation (axe scrollable-region-focusable). */}
      <div
        ref={scroller}
        tabIndex={0}
        className="mt-4 max-h-[32rem] overflow-y-auto rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-accent-600"
      >
        <MessageList
          messages={thread.messages}
          me="patient"
          label={thread.subject}
          earlier={earlierOf(pages)}
        />
      </div>
      <div className="mt-4 space-y-4 border-t border-line pt-4">
        <ReplyNotice topic={thread.topic} />
        <ReplyForm
          label="Your reply"
          submitLabel="Send reply"
          onSend={async (body) => {
            await sendMessage(leadsId, { thread_id: thread.id, body });
            await refreshThreads(queryClient, leadsId);
          }}
        />
      </div>
    </section>
  );
}

function NewConversation({
  leadsId,
  orderNumber,
  onCancel,
  onSent,
}: {
  leadsId: string;
  orderNumber: string | null;
  onCancel: () => void;
  onSent: (threadId: number) => void;
}) {
  const queryClient = useQueryClient();
  return (
    <section aria-labelledby="new-title" className={cardClass}>
      <BackButton onClick={onCancel} />
      <h2 id="new-title" className="text-xl text-ink">
        New message to your care team
      </h2>
      {orderNumber ? <p className="mt-1 text-sm text-ink-soft">About order {orderNumber}</p> : null}
      <NewMessageForm
        orderNumber={orderNumber}
        onCancel={onCancel}
        onSend={async (values) => {
          const message = await sendMessage(
            leadsId,
            orderNumber ? { ...values, order_number: orderNumber } : values,
          );
          await refreshThreads(queryClient, leadsId);
          showToast({
            kind: 'success',
            title: isClinical(values.topic)
              ? 'Your message was sent to your provider.'
              : 'Your message was sent to your care team.',
          });
          onSent(message.thread_id);
        }}
      />
    </section>
  );
}
