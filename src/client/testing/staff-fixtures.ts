import { staffApi, type StaffUser } from '#shared/staff.ts';
import { stub, type Stub } from './render-app.tsx';

/** The demo's operations staff member, as the staff session call describes them. */
export const ops: StaffUser = {
  id: 2,
  email: 'ops@pairwell.test',
  name: 'Sam Ortiz',
  role: 'operations',
  licensed_states: [],
};

/** The demo's provider, licensed in California and Oregon. */
export const provider: StaffUser = {
  id: 1,
  email: 'provider@pairwell.test',
  name: 'Dr. Maya Chen, MD',
  role: 'provider',
  licensed_states: ['CA', 'OR'],
};

/** The staff session call, stubbed for a logged-in staff member. */
export const loggedIn = (staff: StaffUser): Stub =>
  stub(staffApi.me, { authenticated: true, staff });
