import { paths } from './paths.ts';

/**
 * The operator's tag manager (GTM_ID, DESIGN §8, decision 020): which container ids are accepted,
 * where its script comes from, and the pages it may load on.
 */

/** A Google Tag Manager web container id, as Google prints it: GTM-XXXXXXX. */
export const GTM_ID_PATTERN = /^GTM-[A-Z0-9]{4,12}$/;

/** Google's container script; the loader adds `?id=` and the Content-Security-Policy allows it. */
export const GTM_SCRIPT_URL = 'https://www.googletagmanager.com/gtm.js';

/**
 * The storefront's public pages: the only ones a tag manager may load on. An allowlist, so a page
 * added later stays without it until someone decides otherwise. Member pages (/dashboard,
 * /accounts, /orders, /messages, /subscriptions), every online-visit page (/visit/…), the staff
 * console (/staff…), and the pages a token arrives on (reset, unlock, undo) are not on it.
 */
const publicPaths = new Set<string>([
  paths.home,
  paths.shop,
  paths.cart,
  // Only a redirect to step 1, but a document first loaded here must be able to hold it.
  '/checkout',
  paths.checkoutShipping,
  paths.checkoutUpsell,
  paths.checkoutPayment,
  paths.checkoutComplete,
  paths.privacy,
  paths.terms,
  paths.consentToTelehealth,
  paths.faq,
]);

/** Log-in and sign-up: public, but an invitation's token can ride in their address. */
const publicWithoutQuery = new Set<string>([paths.login, paths.signup]);

const productPage = /^\/shop\/[^/]+$/;

/**
 * Whether the page at this address may load the tag manager. `search` is the address's query
 * (`?…`, or '' for none); the server asks without it, for the Content-Security-Policy.
 */
export function tagManagerPage(pathname: string, search = ''): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (publicPaths.has(path) || productPage.test(path)) return true;
  return publicWithoutQuery.has(path) && (search === '' || search === '?');
}
