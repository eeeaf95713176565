/**
 * Debian's Chromium, as the browser journeys and the size check launch it: the flags keep it from
 * reaching out to a network this machine does not have. (Lighthouse, in its own package under
 * bench/lighthouse/, passes the same flags to chrome-launcher.)
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};
