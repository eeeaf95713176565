import type { Migration } from 'kysely';
import * as m0001 from './0001-catalog.ts';
import * as m0002 from './0002-accounts.ts';
import * as m0003 from './0003-orders.ts';
import * as m0004 from './0004-commerce.ts';
import * as m0005 from './0005-billing.ts';
import * as m0006 from './0006-staff.ts';
import * as m0007 from './0007-visits.ts';
import * as m0008 from './0008-uploads.ts';
import * as m0009 from './0009-prescriptions.ts';
import * as m0010 from './0010-messages.ts';
import * as m0011 from './0011-feedback.ts';
import * as m0012 from './0012-refills.ts';
import * as m0013 from './0013-message-orders.ts';
import * as m0014 from './0014-outbox.ts';
import * as m0015 from './0015-account-protection.ts';
import * as m0016 from './0016-payment-ledger.ts';
import * as m0017 from './0017-upload-keys.ts';
import * as m0018 from './0018-prescription-directions.ts';
import * as m0019 from './0019-state-waitlist.ts';
import * as m0020 from './0020-message-topics.ts';
import * as m0021 from './0021-checkout-progress.ts';
import * as m0022 from './0022-session-network.ts';
import * as m0023 from './0023-renewal-reminders.ts';
import * as m0024 from './0024-partners.ts';
import * as m0025 from './0025-household-ship-to-partner-and-visit-invitations.ts';
import * as m0026 from './0026-gifts-and-plans.ts';
import * as m0027 from './0027-standing-indexes.ts';
import * as m0028 from './0028-customer-versions.ts';
import * as m0029 from './0029-catalog-version.ts';
import * as m0030 from './0030-paid-through.ts';
import * as m0031 from './0031-email-verification.ts';
import * as m0032 from './0032-plan-partner-index.ts';
import * as m0033 from './0033-payment-lines.ts';
import * as m0034 from './0034-together-names.ts';
import * as m0035 from './0035-stripe-events.ts';
import * as m0036 from './0036-card-authentication.ts';
import * as m0037 from './0037-pharmacy.ts';
import * as m0038 from './0038-renewals.ts';
import * as m0039 from './0039-pharmacy-rejections.ts';
import * as m0040 from './0040-visitor-waitlist.ts';
import * as m0041 from './0041-treatment-requests.ts';
import * as m0042 from './0042-scalp-photos.ts';

/**
 * Every migration, in order. Listed in code (not read from a folder) so the bundled server carries
 * them. A migration, once released, is never edited: add the next one.
 */
export const migrations: Record<string, Migration> = {
  '0001-catalog': m0001,
  '0002-accounts': m0002,
  '0003-orders': m0003,
  '0004-commerce': m0004,
  '0005-billing': m0005,
  '0006-staff': m0006,
  '0007-visits': m0007,
  '0008-uploads': m0008,
  '0009-prescriptions': m0009,
  '0010-messages': m0010,
  '0011-feedback': m0011,
  '0012-refills': m0012,
  '0013-message-orders': m0013,
  '0014-outbox': m0014,
  '0015-account-protection': m0015,
  '0016-payment-ledger': m0016,
  '0017-upload-keys': m0017,
  '0018-prescription-directions': m0018,
  '0019-state-waitlist': m0019,
  '0020-message-topics': m0020,
  '0021-checkout-progress': m0021,
  '0022-session-network': m0022,
  '0023-renewal-reminders': m0023,
  '0024-partners': m0024,
  '0025-household-ship-to-partner-and-visit-invitations': m0025,
  '0026-gifts-and-plans': m0026,
  '0027-standing-indexes': m0027,
  '0028-customer-versions': m0028,
  '0029-catalog-version': m0029,
  '0030-paid-through': m0030,
  '0031-email-verification': m0031,
  '0032-plan-partner-index': m0032,
  '0033-payment-lines': m0033,
  '0034-together-names': m0034,
  '0035-stripe-events': m0035,
  '0036-card-authentication': m0036,
  '0037-pharmacy': m0037,
  '0038-renewals': m0038,
  '0039-pharmacy-rejections': m0039,
  '0040-visitor-waitlist': m0040,
  '0041-treatment-requests': m0041,
  '0042-scalp-photos': m0042,
};
