import { z } from 'zod';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';
import { idSchema, LeadsIdSchema } from './ids.ts';

/** Messages between a patient and their care team (spec §7 `/messaging/…`). */
export const senders = ['patient', 'care_team'] as const;

/**
 * What a conversation is about, chosen by the patient when they start it. `treatment` is clinical:
 * a provider answers it (the provider of their latest visit, or any provider licensed in their
 * state); the others are for the care team (operations staff).
 */
export const messageTopics = ['treatment', 'order', 'other'] as const;
export type MessageTopic = (typeof messageTopics)[number];

export const topicLabels: Record<MessageTopic, string> = {
  treatment: 'My treatment',
  order: 'My order',
  other: 'Something else',
};

/** A line under each choice, so the patient picks the right one. */
export const topicHints: Record<MessageTopic, string> = {
  treatment: 'Medicines, side effects, dosage, or how you feel. A provider answers.',
  order: 'Shipping, delivery, billing, or a refill.',
  other: 'Your account or anything else.',
};

export const isClinical = (topic: MessageTopic): boolean => topic === 'treatment';

export const CHOOSE_TOPIC = 'Choose what your message is about';

/** When the patient can expect an answer, shown beside the compose box and in the conversation. */
export function replyExpectation(topic: MessageTopic): string {
  return isClinical(topic)
    ? 'A provider usually replies within one business day.'
    : 'Our care team replies within one business day.';
}

/** Shown wherever a patient writes: Messages is not watched around the clock. */
export const emergencyNotice =
  'If this is an emergency, call 911. If you are thinking about suicide or self-harm, call or text 988.';

export const TopicSchema = z.enum(messageTopics, { error: CHOOSE_TOPIC });

export const MessageSchema = z.object({
  id: z.number().int(),
  thread_id: z.number().int(),
  sender: z.enum(senders),
  /** The care-team member's name, or the patient's first name. */
  author: z.string(),
  body: z.string(),
  created_at: z.string(),
  read: z.boolean(),
});
export type Message = z.infer<typeof MessageSchema>;

/** Messages in one page of a conversation: its newest, then each earlier page. */
export const MESSAGES_PAGE_SIZE = 30;

/** Where the page before ends: the `next_cursor` a thread's answer gave (a message's id). */
export const MessageCursorSchema = z
  .string({ error: 'Use the cursor of the page before' })
  .regex(/^[1-9]\d{0,14}$/, 'Use the cursor of the page before');

export const ThreadSchema = z.object({
  id: z.number().int(),
  subject: z.string(),
  topic: TopicSchema,
  visit_id: z.number().int().nullable(),
  /** The order the thread is about, when the patient started it from that order. */
  order_number: z.string().nullable(),
  updated_at: z.string(),
  /** Unread messages from the other side in the whole thread, not only this page. */
  unread: z.number().int(),
  /** One page of the conversation, oldest first: the newest page without a cursor. */
  messages: z.array(MessageSchema),
  /** Whether earlier messages come before this page. */
  has_more: z.boolean(),
  /** The `cursor` that asks for the page of earlier messages; null when there are none. */
  next_cursor: z.string().nullable(),
});
export type Thread = z.infer<typeof ThreadSchema>;

export const MessagesRequestSchema = z.strictObject({ leads_id: LeadsIdSchema });
export const RecentMessagesRequestSchema = z.strictObject({
  leads_id: LeadsIdSchema,
  /** Only messages after this instant (ISO), for the page's polling. */
  since: z.string().datetime({ error: 'Use an ISO date and time' }).optional(),
});

/** What a message says, from either side (the forms check it too). */
export const MessageBodySchema = z
  .string({ error: 'Write a message' })
  .trim()
  .min(1, 'Write a message')
  .max(4000, 'Messages can be up to 4,000 characters');

/** A new conversation's subject. */
export const SubjectSchema = z
  .string()
  .trim()
  .min(1, 'Add a subject')
  .max(120, 'Keep the subject under 120 characters');

export const SendMessageSchema = z.strictObject({
  leads_id: LeadsIdSchema,
  /** Reply in a thread; without one, `subject` starts a new thread with the care team. */
  thread_id: z.optional(idSchema('Choose a conversation')),
  subject: SubjectSchema.optional(),
  /**
   * What a new thread is about (required for one; a reply keeps its thread's). A thread about an
   * order (`order_number`) is about the order unless the patient chose otherwise.
   */
  topic: TopicSchema.optional(),
  /** A new thread about one of the patient's orders (its subject defaults to the order). */
  order_number: z.string().trim().min(1).max(40).optional(),
  body: MessageBodySchema,
});

export const ThreadPageRequestSchema = z.strictObject({
  leads_id: LeadsIdSchema,
  thread_id: idSchema('Choose a conversation'),
  /** A thread's `next_cursor`: the messages before it; without it, the newest page. */
  cursor: MessageCursorSchema.optional(),
});

export const MarkReadSchema = z.strictObject({
  leads_id: LeadsIdSchema,
  thread_id: idSchema('Choose a conversation'),
});

export const ThreadsSchema = z.object({
  threads: z.array(ThreadSchema),
  unread: z.number().int(),
});
export const RecentSchema = z.object({
  /** The newest messages since the instant asked (at most a page of them), oldest first. */
  messages: z.array(MessageSchema),
  unread: z.number().int(),
  /** The server's time of this answer: the next poll asks for what came after it. */
  now: z.string(),
});
export const SentSchema = z.object({ message: MessageSchema });

/** The patient's side of spec §7's `/messaging/…` calls. */
export const messagesApi = {
  /**
   * Every conversation of the patient's, newest activity first, each with its newest page of
   * messages, and how many are unread.
   */
  getAll: endpoint({
    path: apiPaths.messagingGetAll,
    access: 'patient',
    body: MessagesRequestSchema,
    response: ThreadsSchema,
    errors: [],
  }),
  /** One of the patient's conversations, a page at a time: "Load earlier messages" (ours). */
  thread: endpoint({
    path: apiPaths.messagingThread,
    access: 'patient',
    body: ThreadPageRequestSchema,
    response: z.object({ thread: ThreadSchema }),
    errors: ['NOT_FOUND'],
  }),
  /** Messages to the patient since an instant, for the page's polling. */
  getRecent: endpoint({
    path: apiPaths.messagingGetRecent,
    access: 'patient',
    body: RecentMessagesRequestSchema,
    response: RecentSchema,
    errors: [],
  }),
  /** A reply in a conversation, or a new conversation with the care team. */
  send: endpoint({
    path: apiPaths.messagingSend,
    access: 'patient',
    body: SendMessageSchema,
    example: {
      leads_id: 'Ldemo0000000000000001',
      subject: 'When will my order ship?',
      topic: 'order',
      body: 'Hi, could you tell me when my last order ships?',
    },
    response: SentSchema,
    message: 'Sent.',
    errors: ['NOT_FOUND'],
  }),
  /** The patient has read a conversation. */
  read: endpoint({
    path: apiPaths.messagingRead,
    access: 'patient',
    body: MarkReadSchema,
    errors: ['NOT_FOUND'],
  }),
};

/** The provider writes in the thread of a visit they review. */
export const StaffSendMessageSchema = z.strictObject({
  visit_id: idSchema('Choose a visit'),
  body: MessageBodySchema,
});
export const StaffThreadRequestSchema = z.strictObject({
  visit_id: idSchema('Choose a visit'),
  /** The thread's `next_cursor`: its earlier messages; without it, the newest page. */
  cursor: MessageCursorSchema.optional(),
});

// --- The care team's inbox (operations staff): threads not about a visit ------------------------

export const CareInboxItemSchema = z.object({
  thread_id: z.number().int(),
  /**
   * The subject, or null for a clinical thread: operations see that a patient asked a provider
   * something, and whether it was answered, but not what (the subject may name a medicine).
   */
  subject: z.string().nullable(),
  topic: TopicSchema,
  /** A clinical thread's provider, or null while any provider licensed in the state may take it. */
  provider: z.string().nullable(),
  /** First name and last initial. */
  patient: z.string(),
  customer_id: z.number().int(),
  order_number: z.string().nullable(),
  updated_at: z.string(),
  /** Patient messages nobody on the care team has read yet. */
  unread: z.number().int(),
  /** Who wrote last: a thread waiting for the care team has 'patient'. */
  last_sender: z.enum(senders).nullable(),
  /**
   * A clinical thread with a patient message no provider has answered since; whatever operations
   * wrote (about the order, or before handing it over) does not answer it. False for the others.
   */
  waiting_for_provider: z.boolean(),
});
export type CareInboxItem = z.infer<typeof CareInboxItemSchema>;

export const CareThreadRequestSchema = z.strictObject({
  thread_id: idSchema('Choose a conversation'),
  /** The thread's `next_cursor`: its earlier messages; without it, the newest page. */
  cursor: MessageCursorSchema.optional(),
});

export const CareReplySchema = z.strictObject({
  thread_id: idSchema('Choose a conversation'),
  body: MessageBodySchema,
});

/** Operations hand a thread to a provider: it becomes clinical and leaves the care team's inbox. */
export const HandOffSchema = z.strictObject({
  thread_id: idSchema('Choose a conversation'),
  provider_id: idSchema('Choose a provider'),
});

/** A provider operations can hand a thread to. */
export const HandOffProviderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Whether they are licensed in the patient's state (those come first). */
  licensed_in_state: z.boolean(),
});

// --- The provider's patient messages: clinical threads not about a visit ------------------------

export const PatientMessageItemSchema = z.object({
  thread_id: z.number().int(),
  subject: z.string(),
  /** First name and last initial. */
  patient: z.string(),
  state: z.string().nullable(),
  /** Assigned to this provider, or open to every provider licensed in the patient's state. */
  assigned: z.enum(['me', 'open']),
  updated_at: z.string(),
  unread: z.number().int(),
  last_sender: z.enum(senders).nullable(),
  /** A patient message no provider has answered since: what operations wrote does not count. */
  waiting_for_provider: z.boolean(),
});
export type PatientMessageItem = z.infer<typeof PatientMessageItemSchema>;

/**
 * The patient's prescriptions still valid today, newest first (issue 29): what a provider needs
 * beside every patient message, each with the visit whose chart it came from.
 */
export const ActivePrescriptionsSchema = z.array(
  z.object({
    visit_id: z.number().int(),
    medicine: z.string(),
    directions: z.string().nullable(),
    refills: z.number().int(),
    valid_until: z.string(),
  }),
);
export type ActivePrescriptions = z.infer<typeof ActivePrescriptionsSchema>;

export const PatientThreadSchema = z.object({
  thread: ThreadSchema,
  patient: z.object({
    name: z.string(),
    customer_id: z.number().int(),
    state: z.string().nullable(),
  }),
  assigned: z.enum(['me', 'open']),
  /** The patient's latest visit a provider may open, for its chart. */
  visit_id: z.number().int().nullable(),
  prescriptions: ActivePrescriptionsSchema,
});
