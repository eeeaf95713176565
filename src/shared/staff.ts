import { z } from 'zod';
import { apiPaths } from './api.ts';
import { UnlockConfirmSchema, UnlockRequestSchema } from './auth.ts';
import { endpoint } from './contract.ts';

export const staffRoles = ['provider', 'operations'] as const;
export type StaffRole = (typeof staffRoles)[number];

export const StaffLoginSchema = z.strictObject({
  email: z
    .string({ error: 'Field required' })
    .trim()
    .toLowerCase()
    .min(1, 'Field required')
    .max(254)
    .pipe(z.email('Invalid Email')),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
  code: z
    .string({ error: 'Enter the 6-digit code from your authenticator app' })
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'),
});
export type StaffLogin = z.infer<typeof StaffLoginSchema>;

/**
 * Issue 29: a National Provider Identifier: ten digits, the last a Luhn check digit computed over
 * the first nine with the card-issuer prefix 80840 in front (CMS's NPI check digit rule).
 */
export function isNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = `80840${value}`.split('').map(Number);
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    const digit = digits[i] ?? 0;
    const added = double ? digit * 2 : digit;
    sum += added > 9 ? added - 9 : added;
  }
  return sum % 10 === 0;
}

export const StaffUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(staffRoles),
  licensed_states: z.array(z.string()),
});
export type StaffUser = z.infer<typeof StaffUserSchema>;

export const StaffMeSchema = z.object({
  authenticated: z.boolean(),
  staff: StaffUserSchema.nullable(),
});

/**
 * The staff console's own log-in (DESIGN §7): password and authenticator code, the emailed unlock
 * of a device while the account's log-ins are limited, log-out, and who is logged in.
 */
export const staffApi = {
  login: endpoint({
    path: apiPaths.staffLogin,
    access: 'public',
    body: StaffLoginSchema,
    response: z.object({ staff: StaffUserSchema }),
    errors: ['INVALID_CREDENTIALS', 'LOGIN_LOCKED'],
  }),
  unlock: endpoint({
    path: apiPaths.staffLoginUnlock,
    access: 'public',
    body: UnlockRequestSchema,
    message:
      'If that address has a staff account whose log-ins are paused, we have emailed it a link. Open it on this device within 30 minutes to log in.',
    errors: [],
  }),
  unlockConfirm: endpoint({
    path: apiPaths.staffLoginUnlockConfirm,
    access: 'public',
    body: UnlockConfirmSchema,
    message: 'This device can log in now. Log in with your password and authenticator code.',
    errors: ['UNLOCK_LINK_INVALID'],
  }),
  logout: endpoint({
    path: apiPaths.staffLogout,
    access: 'public',
    body: z.strictObject({}).optional(),
    message: 'You have been logged out.',
    errors: [],
  }),
  me: endpoint({
    path: apiPaths.staffMe,
    access: 'public',
    body: z.strictObject({}).optional(),
    response: StaffMeSchema,
    errors: [],
  }),
};
