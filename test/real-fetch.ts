/**
 * The platform's own fetch, taken before test/setup.ts stubs it for every test: for the few tests
 * that talk over a socket to a local fake of an outside service (the partner pharmacy). Kept on
 * the global object, because in the server project a worker runs one test file after another in
 * one module graph (vitest.config.ts): the first file's value is the real one.
 */
const holder = globalThis as typeof globalThis & { pairwellRealFetch?: typeof fetch };
holder.pairwellRealFetch ??= globalThis.fetch;

export const realFetch: typeof fetch = holder.pairwellRealFetch;
