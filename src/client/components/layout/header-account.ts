/**
 * The id of the header's account control: 'Log in' for a visitor, 'My account' once logged in.
 * The log-in slider gives focus back to it (it replaces the button that opened the slider).
 */
export const headerAccountId = 'header-account';
