import { z } from 'zod';
import { apiPaths } from './api.ts';
import { limits } from './constants.ts';
import { endpoint } from './contract.ts';
import type { ErrorCode } from './errors.ts';
import { SessionUserSchema } from './session.ts';
import { messages } from './wording.ts';

/*
 * Logging in and out, passwords, the emailed log-in unlock and the signed-in devices (spec §3,
 * §5, §7; decision 004). Whether this browser is logged in is apart, in session.ts: every page asks
 * it, and these forms' schemas do not belong in a first visit's download.
 */

/** An email address, trimmed and lower-cased, with its own "required" message. */
export const emailSchema = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .toLowerCase()
    .min(1, requiredMessage)
    .max(254, messages.invalidEmail)
    .pipe(z.email(messages.invalidEmail));

/** The log-in and reset forms' email (spec §5: 'Email is required', 'Invalid Email'). */
export const EmailSchema = emailSchema(messages.emailRequired);

/** A password someone is choosing now (DESIGN §7: 8 to 128 characters; commonness is checked on the server). */
export const NewPasswordSchema = z
  .string({ error: messages.passwordRequired })
  .min(1, messages.passwordRequired)
  .min(limits.passwordMin, messages.passwordTooShort)
  .max(limits.passwordMax, messages.passwordTooLong);

// --- Log-in ---------------------------------------------------------------------------------------

export const LoginSchema = z.strictObject({
  email: EmailSchema,
  password: z
    .string({ error: messages.passwordRequired })
    .min(1, messages.passwordRequired)
    .max(1024, messages.passwordTooLong),
});
export type Login = z.infer<typeof LoginSchema>;

/** What log-in and sign-up answer: the session's customer. */
export const LoginResultSchema = z.object({ leads_id: z.string(), user: SessionUserSchema });

/**
 * The code of the 429 a log-in gets from a device that has never logged in to the account, while
 * that account's log-ins are limited after many wrong passwords: the screen then offers an emailed
 * one-time link that lets the device log in.
 */
export const LOGIN_LOCKED = 'LOGIN_LOCKED' satisfies ErrorCode;

/** Ask for that link. The answer is the same whether or not the address has an account. */
export const UnlockRequestSchema = z.strictObject({ email: EmailSchema });

/** A one-time link's token, as the page that opened the link sends it. */
export const oneTimeLink = (invalid: string) =>
  z.string({ error: invalid }).min(1, invalid).max(256, invalid);

/** Spend the link from the email on the device that opened it. */
export const UnlockConfirmSchema = z.strictObject({
  token: oneTimeLink('This link is not valid.'),
});

// --- Passwords -----------------------------------------------------------------------------------

/** Spec §3 "Reset request": clicks_id, token, email. Always answered 200 (no account enumeration). */
export const ResetRequestSchema = z.strictObject({
  email: EmailSchema,
  clicks_id: z.union([z.string().max(64), z.number().int()]).nullish(),
  token: z.string().max(256).nullish(),
});

/** Spec §3 "Password update": the reset token and the new password. */
export const PasswordUpdateSchema = z.strictObject({
  token: z
    .string({ error: 'This reset link is not valid.' })
    .min(1, 'This reset link is not valid.')
    .max(256),
  password: NewPasswordSchema,
});

/** A reset link's token, to ask whether it can still be used (nothing is spent). */
export const ResetLinkCheckSchema = z.strictObject({
  token: z
    .string({ error: 'This reset link is not valid.' })
    .max(256, 'This reset link is not valid.'),
});

/** The update-mode form (spec §5): the confirmation never leaves the browser. */
export const PasswordUpdateFormSchema = z
  .object({
    password: NewPasswordSchema,
    password_confirm: z
      .string({ error: messages.passwordConfirmRequired })
      .min(1, messages.passwordConfirmRequired),
  })
  .refine((form) => form.password === form.password_confirm, {
    message: messages.passwordsMustMatch,
    path: ['password_confirm'],
  });

export const ResetRequestFormSchema = z.object({ email: EmailSchema });

/** Changing the password from Accounts needs the current one. */
export const ChangePasswordSchema = z.strictObject({
  current_password: z
    .string({ error: messages.passwordRequired })
    .min(1, messages.passwordRequired)
    .max(1024),
  password: NewPasswordSchema,
});

// --- Signed-in devices ---------------------------------------------------------------------------

export const SessionInfoSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  created_at: z.string(),
  last_seen_at: z.string(),
  device: z.string(),
  /** The masked network it logged in from (`203.0.113.x`); null for older sessions. */
  network: z.string().nullable(),
});

export const SessionEndSchema = z.strictObject({
  id: z.string({ error: 'Choose a device' }).min(1, 'Choose a device').max(40, 'Choose a device'),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

const NoBody = z.strictObject({}).optional();

/** The log-in, password and device calls (spec §7 and decision 004). */
export const authApi = {
  login: endpoint({
    path: apiPaths.login,
    access: 'public',
    body: LoginSchema,
    example: { email: 'avery@example.com', password: 'correct horse battery staple' },
    response: LoginResultSchema,
    errors: ['INVALID_CREDENTIALS', 'LOGIN_LOCKED'],
  }),
  /** While an account's log-ins are paused: email a link that lets this device log in. */
  loginUnlock: endpoint({
    path: apiPaths.loginUnlock,
    access: 'public',
    body: UnlockRequestSchema,
    // The same answer whether or not the address has an account, or is limited.
    message:
      'If that address has an account whose log-ins are paused, we have emailed it a link. Open it on this device within 30 minutes to log in.',
    errors: [],
  }),
  /** The link from that email, opened on the device that should log in. */
  loginUnlockConfirm: endpoint({
    path: apiPaths.loginUnlockConfirm,
    access: 'public',
    body: UnlockConfirmSchema,
    message: 'This device can log in now. Log in with your email and password.',
    errors: ['UNLOCK_LINK_INVALID'],
  }),
  logout: endpoint({
    path: apiPaths.logout,
    access: 'public',
    body: NoBody,
    message: 'You have been logged out.',
    errors: [],
  }),
  reset: endpoint({
    path: apiPaths.reset,
    access: 'public',
    body: ResetRequestSchema,
    // The same answer whether or not the address has an account (DESIGN §5).
    message: messages.resetRequested,
    errors: [],
  }),
  passwordUpdate: endpoint({
    path: apiPaths.passwordUpdate,
    access: 'public',
    body: PasswordUpdateSchema,
    message: 'Your password has been updated. Please log in with your new password.',
    errors: ['WEAK_PASSWORD', 'RESET_LINK_INVALID'],
  }),
  /**
   * Whether a reset link is unused and unexpired, so the page can say so before its form: the
   * link is not spent, and the answer names no account.
   */
  passwordResetCheck: endpoint({
    path: apiPaths.passwordResetCheck,
    access: 'public',
    body: ResetLinkCheckSchema,
    response: z.object({ valid: z.boolean() }),
    errors: [],
  }),
  changePassword: endpoint({
    path: apiPaths.changePassword,
    access: 'customer',
    body: ChangePasswordSchema,
    message: 'Your password has been changed. Other devices were logged out.',
    errors: ['WEAK_PASSWORD', 'WRONG_PASSWORD', 'CURRENT_PASSWORD_REQUIRED'],
  }),
  sessions: endpoint({
    path: apiPaths.sessions,
    access: 'customer',
    body: NoBody,
    response: z.object({ sessions: z.array(SessionInfoSchema) }),
    errors: [],
  }),
  /** Log out one other device. */
  sessionEnd: endpoint({
    path: apiPaths.sessionEnd,
    access: 'customer',
    body: SessionEndSchema,
    response: z.object({}),
    message: 'That device was logged out.',
    errors: ['NOT_FOUND'],
  }),
  /** Log out every other device. */
  sessionsRevoke: endpoint({
    path: apiPaths.sessionsRevoke,
    access: 'customer',
    body: NoBody,
    response: z.object({ ended: z.number().int() }),
    errors: [],
  }),
};
